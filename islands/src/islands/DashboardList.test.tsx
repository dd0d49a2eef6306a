import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { dataExport, dataIsland, dataLoadMore, sel } from "../lib/contract";
import { canLoadMore, exportHref } from "../lib/dashboard-list";
import { inAct, loadPage, mountIsland, resetPage, shown } from "../test/fixture";
import DashboardList from "./DashboardList";

// The fixture's dashboard: three circulars, newest first: NPCI (UPI
// IDs), RBI (tokenisation), RBI (payment aggregators); one news item.
const list = "dashboard-circulars";
const npci = /UPI/;

// mountWith renders the circulars' island with smaller rules than the
// page's, so Load More has something to do with three cards.
async function mountWith(rules: { pageSize: number; step: number; hideAbove: number }) {
  const el = document.querySelectorAll<HTMLElement>(sel(dataIsland, "DashboardList"))[0];
  el.replaceChildren();
  await act(async () => {
    render(<DashboardList list={list} noun="circulars" sources={["RBI", "NPCI", "SEBI"]} {...rules} />, { container: el });
  });
}
const loadMore = () => screen.queryByRole("button", { name: "Load More circulars" });
const press = (name: string) => inAct(() => fireEvent.click(screen.getByRole("button", { name })));

describe("canLoadMore", () => {
  const rules = { pageSize: 5, step: 5, hideAbove: 15 };
  it.each([
    [5, 20, true],
    [15, 20, true],
    [20, 20, false], // more than 15 shown
    [20, 40, false],
    [5, 5, false], // nothing more to show
    [8, 8, false],
  ])("%i shown of %i: %s", (shownN, total, want) => {
    expect(canLoadMore(shownN, total, rules)).toBe(want);
  });
});

describe("exportHref", () => {
  it("carries the source filter", () => {
    expect(exportHref("csv", "")).toBe("/api/circulars.csv");
    expect(exportHref("json", "RBI")).toBe("/api/circulars.json?source=RBI");
  });
});

describe("DashboardList on the dashboard", () => {
  afterEach(resetPage);

  it("mounts over the static row with the page's rules: three cards, no Load More", async () => {
    await loadPage("/");
    expect(shown(list)).toHaveLength(3);
    await mountIsland("DashboardList", DashboardList);
    expect(shown(list)).toHaveLength(3);
    expect(loadMore()).toBeNull();
    expect(screen.getByRole("button", { name: "All" }).getAttribute("aria-pressed")).toBe("true");
    // the slot's no-JavaScript link is gone
    expect(document.querySelector(sel(dataLoadMore, list))!.querySelector("a")).toBeNull();
  });

  it("Load More adds step cards and goes once more than hideAbove show", async () => {
    await loadPage("/");
    await mountWith({ pageSize: 1, step: 1, hideAbove: 1 });
    expect(shown(list)).toHaveLength(1);
    expect(shown(list)[0]).toMatch(npci);
    await inAct(() => fireEvent.click(loadMore()!));
    expect(shown(list)).toHaveLength(2);
    expect(loadMore()).toBeNull(); // 2 > 1
    expect(screen.getByRole("status").textContent).toBe("Showing 2 of 3 circulars");
  });

  it("a source button filters, resets the count and writes ?source= and the downloads", async () => {
    await loadPage("/");
    await mountWith({ pageSize: 1, step: 1, hideAbove: 5 });
    await inAct(() => fireEvent.click(loadMore()!));
    expect(shown(list)).toHaveLength(2);
    await press("RBI");
    expect(window.location.search).toBe("?source=RBI");
    expect(shown(list)).toHaveLength(1);
    expect(shown(list)[0]).not.toMatch(npci);
    expect(screen.getByRole("button", { name: "RBI" }).getAttribute("aria-pressed")).toBe("true");
    const hrefs = [...document.querySelectorAll<HTMLAnchorElement>(sel(dataExport))].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["/api/circulars.csv?source=RBI", "/api/circulars.json?source=RBI"]);
    await press("SEBI");
    expect(shown(list)).toEqual([]);
    await press("All");
    expect(window.location.search).toBe("");
    expect(shown(list)).toHaveLength(1);
  });

  it("starts from the URL's source", async () => {
    await loadPage("/?source=NPCI");
    await mountIsland("DashboardList", DashboardList);
    expect(shown(list)).toHaveLength(1);
    expect(shown(list)[0]).toMatch(npci);
  });
});
