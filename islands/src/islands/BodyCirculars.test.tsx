import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../lib/api";
import { dataApiList, dataEmpty, dataFields, dataList, dataStaticPage, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage } from "../test/fixture";
import BodyCirculars, { circularsURL } from "./BodyCirculars";
import { pathOf } from "../test/fetch";

describe("circularsURL", () => {
  it.each([
    [{ q: "RBI", sort: "date", filter: "all", page: "1" }, "/api/circulars?source=RBI&limit=100&sort=date&search=RBI"],
    [{ q: "  ", sort: "impact", filter: "high", page: "1" }, "/api/circulars?source=RBI&limit=100&sort=impact&filter=high"],
    [{ q: "e-mandate & cards", sort: "relevance", filter: "all", page: "1" }, "/api/circulars?source=RBI&limit=100&sort=relevance&search=e-mandate+%26+cards"],
  ])("%j", (state, want) => {
    expect(circularsURL("RBI", 100, state)).toBe(want);
  });
});

// The fixture's /payment-body/rbi lists RBI's two circulars, newest first:
// tokenisation (medium impact, 2021) and the payment aggregator
// guidelines (high, 2020).
const token = "rbi-2021-09-07-tokenisation";
const pa = "rbi-2020-03-17-pa-guidelines";

// shown lists the slugs of the visible cards, in page order: the static
// page's while it shows, else those drawn from the API's answer.
const shown = () => {
  const page = document.querySelector<HTMLElement>(sel(dataStaticPage, "body-circulars"))!;
  if (page.hidden) return [...document.querySelectorAll<HTMLElement>(`${sel(dataApiList, "body-circulars")} [data-circular]`)].map((e) => e.dataset.circular);
  const list = document.querySelector<HTMLElement>(sel(dataList, "body-circulars"))!;
  if (list.hidden) return [];
  return [...list.querySelectorAll<HTMLElement>(sel(dataFields))].filter((e) => !e.hidden).map((e) => JSON.parse(e.dataset.fields!).slug);
};
const circular = (slug: string) =>
  ({ id: slug, slug, title: slug, source: "RBI", category: "Security", documentType: "circular", impactLevel: "high", publishedDate: "2021-09-07" }) as Schemas["Circular"];
const answer = (slugs: string[]) => new Response(JSON.stringify(slugs.map(circular)), { headers: { "X-Total-Count": String(slugs.length) } });

describe("BodyCirculars on /payment-body/rbi", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    resetPage();
  });
  const open = async () => {
    await loadPage("/payment-body/rbi");
    await mountIsland("BodyCirculars", BodyCirculars);
  };

  it("asks nothing until the visitor changes something, then shows the API's order", async () => {
    const fetch = vi.fn(async () => answer([pa, "not-on-this-page", token]));
    vi.stubGlobal("fetch", fetch);
    await open();
    expect(screen.getByRole("searchbox", { name: "Search RBI circulars" })).toHaveProperty("value", "RBI");
    expect(shown()).toEqual([token, pa]);
    expect(fetch).not.toHaveBeenCalled();

    await inAct(() => fireEvent.change(screen.getByRole("combobox", { name: "Sort by" }), { target: { value: "impact" } }));
    // a circular of another page is drawn from the answer too
    await waitFor(() => expect(shown()).toEqual([pa, "not-on-this-page", token]));
    expect(fetch).toHaveBeenCalledTimes(1);
    // the page size comes from the page's props (Go's generator.ListPageSize)
    expect(pathOf((fetch.mock.calls[0] as unknown[])[0])).toBe("/api/circulars?source=RBI&sort=impact&search=RBI&limit=30");
    expect(window.location.search).toBe("?sort=impact");
  });

  it("shows the empty state when the API finds nothing", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => answer([])));
    await open();
    await inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search RBI circulars" }), { target: { value: "nothing like it" } }));
    await waitFor(() => expect(isHidden(sel(dataEmpty, "body-circulars"))).toBe(false));
    expect(shown()).toEqual([]);
  });

  it("filters in the browser when the API does not answer", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<h1>404</h1>", { status: 404 })));
    vi.spyOn(console, "error").mockImplementation(() => {});
    await open();
    await inAct(() => fireEvent.change(screen.getByRole("combobox", { name: "Impact level" }), { target: { value: "high" } }));
    await screen.findByText(/Live sorting is unavailable/);
    await waitFor(() => expect(shown()).toEqual([pa]));
    await inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search RBI circulars" }), { target: { value: "nothing like it" } }));
    await waitFor(() => expect(shown()).toEqual([]));
    expect(isHidden(sel(dataEmpty, "body-circulars"))).toBe(false);
  });
});
