import { afterEach, describe, expect, it } from "vitest";
import { loadPage, resetPage, text } from "../test/fixture";
import { dataAge, sel } from "./contract";
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

// The fixture's /news: one item of 2024-03-28, in the Top 5 block and in
// the full list, each card with its empty data-age.
describe("fillAges on /news", () => {
  afterEach(resetPage);

  it("fills every data-age element and leaves the rest", async () => {
    await loadPage("/news");
    const ages = [...document.querySelectorAll(sel(dataAge))];
    expect(ages.map((e) => e.textContent)).toEqual(["", ""]);
    const h1 = text("main h1");
    fillAges(document, new Date(2024, 2, 30, 5));
    expect(ages.map((e) => e.textContent)).toEqual(["2 days ago", "2 days ago"]);
    expect(text("main h1")).toBe(h1);
  });
});

describe("relativeAge on a Hindi page", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("says it in Hindi", () => {
    document.documentElement.lang = "hi";
    expect(relativeAge("2025-11-13", at(13, 1))).toBe("1 घंटा पहले");
    expect(relativeAge("2025-11-13", at(13, 5))).toBe("5 घंटे पहले");
    expect(relativeAge("2025-11-13", at(15, 0))).toBe("2 दिन पहले");
  });
});
