import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dataApiList, dataExport, dataIsland, dataList, dataLoadMore, sel } from "../lib/contract";
import { canLoadMore, exportHref } from "../lib/dashboard-list";
import { inAct, loadPage, mountIsland, resetPage, shown } from "../test/fixture";
import DashboardList from "./DashboardList";
import { pathOf } from "../test/fetch";

// The fixture's dashboard: three circulars, newest first: NPCI (UPI
// IDs), RBI (tokenisation), RBI (payment aggregators); one news item.
const list = "dashboard-circulars";

// mountWith renders the circulars' island with smaller rules than the
// page's, so Load More has something to do with three cards.
async function mountWith(rules: { pageSize: number; step: number; hideAbove: number }) {
  const el = document.querySelectorAll<HTMLElement>(sel(dataIsland, "DashboardList"))[0];
  await act(async () => {
    const { labels } = JSON.parse(el.getAttribute("data-props")!);
    render(<DashboardList list={list} noun="circulars" total={3} labels={labels} sources={["RBI", "NPCI", "SEBI"]} {...rules} />, { container: el });
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

// visible are the slugs of the circular cards on screen: the static
// first screen's while it shows, else those drawn from the API.
const visible = () => {
  const stat = document.querySelector<HTMLElement>(sel(dataList, list))!;
  const cards = stat.hidden ? document.querySelectorAll(`${sel(dataApiList, list)} [data-circular]`) : stat.querySelectorAll("[data-circular]");
  return [...cards].map((e) => e.getAttribute("data-circular"));
};
const upi = "npci-2024-03-28-upi-ids";
const token = "rbi-2021-09-07-tokenisation";
const pa = "rbi-2020-03-17-pa-guidelines";
const bySource: Record<string, string[]> = { "": [upi, token, pa], RBI: [token, pa], NPCI: [upi], SEBI: [] };
const source = (slug: string) => (slug.startsWith("npci") ? "NPCI" : "RBI");
// stubAPI answers GET /api/circulars?source=&limit= from the fixture's circulars.
const stubAPI = () => {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const q = new URL(pathOf(input), "http://x.test").searchParams;
    const all = bySource[q.get("source") ?? ""];
    const page = all.slice(0, Number(q.get("limit")));
    const body = page.map((slug) => ({ id: slug, slug, title: slug, source: source(slug), category: "UPI", documentType: "circular", impactLevel: "high", publishedDate: "2021-01-01" }));
    return new Response(JSON.stringify(body), { headers: { "X-Total-Count": String(all.length) } });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
};

describe("DashboardList on the dashboard", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    resetPage();
  });

  it("mounts over the static row with the page's rules: three cards, no Load More, nothing asked", async () => {
    const fetch = stubAPI();
    await loadPage("/");
    expect(shown(list)).toHaveLength(3);
    await mountIsland("DashboardList", DashboardList);
    expect(shown(list)).toHaveLength(3);
    expect(loadMore()).toBeNull();
    expect(screen.getByRole("button", { name: "All" }).getAttribute("aria-pressed")).toBe("true");
    // the slot's no-JavaScript link is gone
    expect(document.querySelector(sel(dataLoadMore, list))!.querySelector("a")).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("Load More asks the API for step more and goes once more than hideAbove show", async () => {
    const fetch = stubAPI();
    await loadPage("/");
    await mountWith({ pageSize: 1, step: 1, hideAbove: 1 });
    await inAct(() => fireEvent.click(loadMore()!));
    await waitFor(() => expect(visible()).toEqual([upi, token]));
    expect(loadMore()).toBeNull(); // 2 > 1
    expect(screen.getByRole("status").textContent).toBe("Showing 2 of 3 circulars");
    expect(fetch.mock.calls.map((c) => pathOf((c as unknown[])[0]))).toEqual(["/api/circulars?limit=2"]);
  });

  it("a source button asks the API, resets the count and writes ?source= and the downloads", async () => {
    stubAPI();
    await loadPage("/");
    await mountWith({ pageSize: 1, step: 1, hideAbove: 5 });
    await inAct(() => fireEvent.click(loadMore()!));
    await waitFor(() => expect(visible()).toHaveLength(2));
    await press("RBI");
    expect(window.location.search).toBe("?source=RBI");
    await waitFor(() => expect(visible()).toEqual([token]));
    expect(screen.getByRole("button", { name: "RBI" }).getAttribute("aria-pressed")).toBe("true");
    const hrefs = [...document.querySelectorAll<HTMLAnchorElement>(sel(dataExport))].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["/api/circulars.csv?source=RBI", "/api/circulars.json?source=RBI"]);
    await press("SEBI");
    await waitFor(() => expect(visible()).toEqual([]));
    await press("All");
    expect(window.location.search).toBe("");
    expect(visible()).toEqual([upi, token, pa]); // the static first screen again
  });

  it("starts from the URL's source, the first screen busy until the answer is in", async () => {
    const fetch = stubAPI();
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const api = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input: RequestInfo | URL) => {
      await held;
      return api(input);
    });
    await loadPage("/?source=NPCI");
    await mountIsland("DashboardList", DashboardList);
    const stat = document.querySelector<HTMLElement>(sel(dataList, list))!;
    await waitFor(() => expect(stat.getAttribute("aria-busy")).toBe("true"));
    expect(visible()).toEqual([upi, token, pa]);
    await inAct(answer);
    await waitFor(() => expect(visible()).toEqual([upi]));
    expect(stat.getAttribute("aria-busy")).toBe("false");
  });
});
