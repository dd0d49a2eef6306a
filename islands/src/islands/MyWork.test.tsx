import { act } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "../lib/api";
import { loadPage, mountIsland, resetSignedInPage } from "../test/fixture";
import { decision, fakeTeamAPI } from "../test/teams";
import MyWork, { pageSize } from "./MyWork";

afterEach(resetSignedInPage);

describe("MyWork on /work/", () => {
  it("sends a signed-out reader to sign in and back", async () => {
    const replace = vi.fn();
    vi.stubGlobal("location", { ...window.location, href: window.location.href, search: "", pathname: "/work/", replace });
    await loadPage("/work");
    fakeTeamAPI({ orgs: [], signedOut: true });
    await mountIsland("MyWork", MyWork);
    await vi.waitFor(() => expect(replace).toHaveBeenCalledWith("/login?next=/work/"));
  });

  it("lists what I own in the API's order, overdue marked as the API says, each linked to its page", async () => {
    setToken("t");
    await loadPage("/work");
    fakeTeamAPI({
      orgs: [],
      work: [
        { ...decision({ subjectId: "c1", dueDate: "2026-11-01", due: "2026-11-01", overdue: true, status: "new" }), organisationName: "Asha Payments" },
        { ...decision({ subjectId: "o9", subjectType: "obligation", subjectTitle: "Report frauds", subjectPath: "/circulars/fraud", overdue: false }), organisationName: "Ravi Cards" },
        { ...decision({ subjectId: "gone", subjectTitle: "", subjectPath: "", dueDate: null, due: null }), organisationName: "Asha Payments" },
      ],
    });
    const el = await mountIsland("MyWork", MyWork);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-work-item]")).toHaveLength(3));
    const rows = [...el.querySelectorAll("[data-work-item]")];
    expect(rows.map((r) => r.getAttribute("data-overdue"))).toEqual(["true", "false", "false"]);
    expect(rows[0].querySelector("[data-overdue-label]")!.textContent).toBe("Overdue");
    expect(rows[0].querySelector("a")!.getAttribute("href")).toBe("/circulars/pa");
    expect(rows[0].textContent).toContain("Asha Payments");
    expect(rows[0].querySelector("[data-work-status]")!.textContent).toBe("New");
    expect(rows[1].querySelector("a")!.textContent).toBe("Report frauds");
    expect(rows[2].querySelector("a")).toBeNull();
    expect(rows[2].textContent).toContain("A circular no longer in the catalog");
    expect(rows[2].querySelector("[data-work-due]")!.textContent).toBe("No due date");
    expect(el.querySelector("[data-work-summary]")!.textContent).toBe("3 open items, 1 overdue.");
  });

  it("shows a page at a time, the counts the whole work's as the API's headers say", async () => {
    setToken("t");
    await loadPage("/work");
    const work = Array.from({ length: pageSize + 3 }, (_, i) => ({
      ...decision({ subjectId: `c${i}`, overdue: i < 2 }),
      organisationName: "Asha Payments",
    }));
    const calls = fakeTeamAPI({ orgs: [], work });
    const el = await mountIsland("MyWork", MyWork);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-work-item]")).toHaveLength(pageSize));
    expect(el.querySelector("[data-work-summary]")!.textContent).toBe(`${pageSize + 3} open items, 2 overdue.`);
    expect(calls.some((c) => c.url.includes(`/api/user/work?limit=${pageSize}`))).toBe(true);
    expect(el.textContent).toContain("Page 1 of 2 - Your work");
    const next = [...el.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Next");
    expect(next).toBeTruthy();
    await act(async () => (next as HTMLElement).click());
    await vi.waitFor(() => expect(el.querySelectorAll("[data-work-item]")).toHaveLength(3));
    expect(calls.some((c) => c.url.includes(`offset=${pageSize}`))).toBe(true);
  });

  it("says when nothing is mine", async () => {
    setToken("t");
    await loadPage("/work");
    fakeTeamAPI({ orgs: [], work: [] });
    const el = await mountIsland("MyWork", MyWork);
    await vi.waitFor(() => expect(el.querySelector("[data-work-summary]")?.textContent).toContain("Nothing is yours to do"));
  });
});

describe("MyWork on a Hindi page", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("says the work in Hindi and links to the Hindi pages", async () => {
    setToken("t");
    await loadPage("/work");
    document.documentElement.lang = "hi";
    fakeTeamAPI({
      orgs: [],
      work: [
        { ...decision({ subjectId: "c1", dueDate: "2026-11-01", due: "2026-11-01", overdue: true, status: "new" }), organisationName: "Asha Payments" },
        { ...decision({ subjectId: "gone", subjectTitle: "", subjectPath: "", dueDate: null, due: null }), organisationName: "Asha Payments" },
      ],
    });
    const el = await mountIsland("MyWork", MyWork);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-work-item]")).toHaveLength(2));
    const rows = [...el.querySelectorAll("[data-work-item]")];
    expect(rows[0].querySelector("[data-overdue-label]")!.textContent).toBe("अतिदेय");
    expect(rows[0].querySelector("a")!.getAttribute("href")).toBe("/hi/circulars/pa");
    expect(rows[1].textContent).toContain("परिपत्र, जो अब कैटलॉग में नहीं है");
    expect(rows[1].querySelector("[data-work-due]")!.textContent).toBe("कोई नियत तिथि नहीं");
    expect(el.querySelector("[data-work-summary]")!.textContent).toBe("2 खुली मदें, 1 अतिदेय।");
  });
});
