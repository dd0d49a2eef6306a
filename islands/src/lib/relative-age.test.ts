import { describe, expect, it } from "vitest";
import { fillAges, relativeAge } from "./relative-age";

// Dates are built in local time, as relativeAge reads the day, so these
// hold in any time zone.
const at = (d: number, h = 0, m = 0) => new Date(2025, 10, d, h, m);

describe("relativeAge", () => {
  it.each([
    [at(13, 0), "0 hours ago"],
    [at(13, 0, 59), "0 hours ago"],
    [at(13, 1), "1 hour ago"],
    [at(13, 23, 59), "23 hours ago"],
    [at(14, 0), "1 day ago"], // 24 hours
    [at(14, 23, 59), "1 day ago"],
    [at(15, 0), "2 days ago"],
    [new Date(2026, 10, 13, 12), "365 days ago"],
    [at(12, 12), "0 hours ago"], // published later than now
  ])("at %s", (now, want) => {
    expect(relativeAge("2025-11-13", now)).toBe(want);
  });

  it("crosses month and year ends", () => {
    expect(relativeAge("2024-12-31", new Date(2025, 0, 2))).toBe("2 days ago");
    expect(relativeAge("2024-02-28", new Date(2024, 2, 1))).toBe("2 days ago"); // leap year
  });

  it.each(["", "2025-11", "13/11/2025", "2025-11-13T00:00"])("gives nothing for %j", (day) => {
    expect(relativeAge(day, at(20))).toBe("");
  });
});

describe("fillAges", () => {
  it("fills every data-age element and leaves the rest", () => {
    document.body.innerHTML = `<span data-age="2025-11-13"></span><p><span data-age="2025-11-10"></span></p><span id="x">keep</span>`;
    fillAges(document, at(13, 5));
    expect([...document.querySelectorAll("[data-age]")].map((e) => e.textContent)).toEqual(["5 hours ago", "3 days ago"]);
    expect(document.getElementById("x")!.textContent).toBe("keep");
  });
});
