import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../lib/api";
import { dataApiList, dataEmpty, dataIsland, dataProps, dataSearchNews, dataSearchTitle, dataSkeleton, dataStaticPage, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage } from "../test/fixture";
import Search, { feedURL, pageTitle, searchURL } from "./Search";
import { pageButtons } from "../lib/paging";
import { pathOf } from "../test/fetch";

describe("searchURL and feedURL", () => {
  it.each([
    [{ q: " upi ", source: "all", category: "all", page: "1" }, "/api/search?q=upi", "/api/search/feed?q=upi"],
    [
      { q: "RBI/2021-22/96", source: "RBI", category: "Security", page: "2" },
      "/api/search?q=RBI%2F2021-22%2F96&page=2&source=RBI&category=Security",
      "/api/search/feed?q=RBI%2F2021-22%2F96&source=RBI&category=Security",
    ],
  ])("%j", (state, search, feed) => {
    expect(searchURL(state)).toBe(search);
    expect(feedURL(state)).toBe(feed);
  });
});

describe("pageButtons", () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 9, [1, 2, 3, 4, 5]],
    [5, 9, [3, 4, 5, 6, 7]],
    [9, 9, [5, 6, 7, 8, 9]],
    [8, 9, [5, 6, 7, 8, 9]],
  ])("page %i of %i", (current, total, want) => {
    expect(pageButtons(current, total)).toEqual(want);
  });
});

it("pageTitle names the source", () => {
  expect(pageTitle("PFRDA")).toBe("PFRDA Documents");
  expect(pageTitle("all")).toBe("Search Regulatory Documents");
});

// The fixture site has three circulars: NPCI's UPI IDs (2024), RBI's
// tokenisation (2021) and RBI's payment aggregator guidelines (2020);
// and one NPCI news item.
const upi = "npci-2024-03-28-upi-ids";
const token = "rbi-2021-09-07-tokenisation";
const pa = "rbi-2020-03-17-pa-guidelines";

// shownSlugs are the circulars on screen: the static page's cards while it
// shows, else those the island drew from the API or the fallback index.
const shownSlugs = () => {
  const page = document.querySelector<HTMLElement>(sel(dataStaticPage, "search-circulars"))!;
  const cards = page.hidden
    ? document.querySelectorAll<HTMLElement>(`${sel(dataApiList, "search-circulars")} [data-circular], [data-island] [data-circular]`)
    : page.querySelectorAll<HTMLElement>("[data-circular]");
  return [...cards].map((e) => e.getAttribute("data-circular"));
};

const circular = (slug: string) =>
  ({ id: slug, slug, title: slug, source: "RBI", category: "Security", documentType: "circular", impactLevel: "high", publishedDate: "2021-09-07" }) as Schemas["Circular"];

function response(slugs: string[], over: Partial<Schemas["SearchResponse"]> = {}): Schemas["SearchResponse"] {
  return {
    circulars: slugs.map(circular),
    provisions: [],
    answer: {
      directAnswer: "Use only alphanumeric characters.",
      confidence: 0.866,
      method: "extractive",
      model: null,
      answerType: null,
      fact: null,
      modelFallback: null,
      provision: null,
      sources: [
        {
          circularId: "1",
          slug: upi,
          source: "NPCI",
          title: "Transaction IDs: alphanumeric only",
          lang: "en",
          relevantExcerpt: "Use only alphanumeric characters.",
          highlights: [{ start: 9, end: 21 }],
          officialUrl: null,
        },
      ],
    },
    pagination: { currentPage: 1, totalPages: 1, totalResults: slugs.length, hasPrev: false, hasNext: false },
    facets: { source: { NPCI: 1, RBI: 2 }, category: { UPI: 1 } },
    correction: null,
    latest: false,
    ...over,
  };
}

const stubAPI = (...bodies: Schemas["SearchResponse"][]) => {
  let i = 0;
  // a source or category without a query lists circulars: none here
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    pathOf(input).startsWith("/api/circulars") ? new Response("[]", { headers: { "X-Total-Count": "0" } }) : new Response(JSON.stringify(bodies[Math.min(i++, bodies.length - 1)])),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
};
const called = (fetch: ReturnType<typeof vi.fn>) => fetch.mock.calls.map((c) => pathOf((c as unknown[])[0]));

// Role queries over a whole page are slow in jsdom on a busy machine.
const slow = 30_000;

describe("Search on /search", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    resetPage();
  }, slow);
  const open = async (url = "/search") => {
    await loadPage(url);
    await mountIsland("Search", Search);
  };
  const type = async (q: string) => {
    await inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search text" }), { target: { value: q } }));
    await inAct(() => fireEvent.submit(screen.getByRole("search", { name: "Search regulatory documents" })));
  };

  it("without a query shows the static page, and a source or category as a page of GET /api/circulars", async () => {
    const lists: Record<string, string[]> = { "/api/circulars?source=RBI&limit=30": [token, pa], "/api/circulars?source=RBI&category=UPI&limit=30": [] };
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const slugs = lists[pathOf(input)] ?? [];
      return new Response(JSON.stringify(slugs.map(circular)), { headers: { "X-Total-Count": String(slugs.length) } });
    });
    vi.stubGlobal("fetch", fetch);
    await open("/search");
    expect(shownSlugs()).toEqual([upi, token, pa]);
    expect(fetch).not.toHaveBeenCalled();
    await inAct(() => fireEvent.change(screen.getByRole("combobox", { name: "Source" }), { target: { value: "RBI" } }));
    await waitFor(() => expect(shownSlugs()).toEqual([token, pa]));
    expect(window.location.search).toBe("?source=RBI");
    expect(document.querySelector(sel(dataSearchTitle))!.textContent).toBe("RBI Documents");
    expect(document.title).toContain("RBI Documents");
    await inAct(() => fireEvent.change(screen.getByRole("combobox", { name: "Category" }), { target: { value: "UPI" } }));
    await waitFor(() => expect(isHidden(sel(dataEmpty, "search-circulars"))).toBe(false));
    expect(shownSlugs()).toEqual([]);
    expect(called(fetch)).toEqual(Object.keys(lists));
    // Back: the first filter again, from the cache
    await inAct(() => window.history.back());
    await waitFor(() => expect(shownSlugs()).toEqual([token, pa]));
  }, slow);

  it("shows up to three recent news cards for a chosen source", async () => {
    stubAPI(response([]));
    await open("/search?source=NPCI");
    expect(isHidden(sel(dataSearchNews))).toBe(false);
    await inAct(() => fireEvent.change(screen.getByRole("combobox", { name: "Source" }), { target: { value: "SEBI" } }));
    expect(isHidden(sel(dataSearchNews))).toBe(true);
  }, slow);

  it("with a query shows the API's circulars, answer, facets and feed", async () => {
    const fetch = stubAPI(response([upi, pa]));
    await open("/search");
    await type("  upi ids ");
    await waitFor(() => expect(shownSlugs()).toEqual([upi, pa]));
    expect(called(fetch)).toEqual(["/api/search?q=upi+ids"]);
    expect(window.location.search).toBe("?q=upi+ids");
    expect(screen.getByRole("heading", { name: "Direct Answer" })).toBeTruthy();
    expect(screen.getByText("87%")).toBeTruthy();
    expect(screen.getByText("Extracted from the circulars (no AI)", { exact: false })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Transaction IDs: alphanumeric only" }).getAttribute("href")).toBe(`/circulars/${upi}`);
    expect(document.querySelector("mark")!.textContent).toBe("alphanumeric");
    // an English source on an English page carries no lang of its own
    expect(screen.getByRole("link", { name: "Transaction IDs: alphanumeric only" }).hasAttribute("lang")).toBe(false);
    expect(screen.getByRole("option", { name: "RBI (2)" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Atom feed of this search" }).getAttribute("href")).toBe("/api/search/feed?q=upi+ids");
    // a single page has no pager
    expect(screen.queryByRole("navigation", { name: "Search results pages" })).toBeNull();
  }, slow);

  it("marks a source written in Hindi with lang=hi (the API's lang, decided in Go)", async () => {
    const r = response([upi]);
    r.answer!.sources[0] = { ...r.answer!.sources[0], title: "यूपीआई लेनदेन आईडी", lang: "hi" };
    stubAPI(r);
    await open("/search");
    await type("upi ids");
    const link = await screen.findByRole("link", { name: "यूपीआई लेनदेन आईडी" });
    expect(link.getAttribute("lang")).toBe("hi");
    expect(link.closest("li")!.querySelector("p")!.getAttribute("lang")).toBe("hi");
  }, slow);

  it("marks the asked fact in the direct answer, says what it marks, and why a model's answer is not shown", async () => {
    const text = "Issuers have six months from the circular's date to comply.";
    const base = response([upi]);
    stubAPI({
      ...base,
      answer: { ...base.answer, directAnswer: text, answerType: "duration", fact: { text: "six months", start: 13, end: 23 }, modelFallback: "missingFact" },
    });
    await open("/search?q=how+long+do+issuers+have");
    const card = await screen.findByRole("region", { name: "Direct Answer" });
    const mark = card.querySelector("mark[data-fact]")!;
    expect(mark.textContent).toBe("six months");
    expect(mark.parentElement!.textContent).toBe(`${text} (The time limit asked for: six months.)`);
    expect(card.textContent).toContain("The AI model's answer left out the time limit the circular states, so the circular's own words are shown.");
  }, slow);

  it("marks nothing when the fact's span is outside the answer, and names the model that wrote one", async () => {
    const base = response([upi]);
    stubAPI({ ...base, answer: { ...base.answer, method: "model", model: "gpt-x", answerType: "date", fact: { text: "x", start: 30, end: 99 } } });
    await open("/search?q=when+did+it+apply");
    const card = await screen.findByRole("region", { name: "Direct Answer" });
    expect(card.querySelector("mark[data-fact]")).toBeNull();
    expect(card.textContent).toContain("Written by gpt-x from the circulars");
  }, slow);

  it("answers from a Master Direction's provision citing it, and lists the provisions in force apart from the circulars", async () => {
    const text = "Before issuing a reloadable small PPI, the issuer collects the holder's mobile number.";
    const provision = (id: string, heading: string | null): Schemas["ProvisionHit"] => ({
      id,
      chapter: null,
      heading,
      text,
      wording: "digest",
      direction: "ppi-2021",
      directionTitle: "MD-PPIs, 2021",
      source: "RBI",
      inForceFrom: "2025-11-28",
      url: `/master-directions/ppi-2021/#p-${id.replace(/[^A-Za-z0-9]+/g, "-").replace(/-$/, "")}`,
      highlights: [{ start: 28, end: 33 }],
    });
    const cited = provision("9.1(i)(b)", "Small PPIs that can be reloaded: minimum details");
    const base = response([upi]);
    stubAPI({ ...base, provisions: [cited, provision("13", null)], answer: { ...base.answer, directAnswer: text, provision: cited } });
    await open("/search?q=small+PPI+details");
    const card = await screen.findByRole("region", { name: "Direct Answer" });
    expect(card.textContent).toContain("Extracted from a Master Direction in force (no AI)");
    const source = within(card).getByRole("link", { name: "MD-PPIs, 2021, para 9.1(i)(b): Small PPIs that can be reloaded: minimum details" });
    expect(source.getAttribute("href")).toBe("/master-directions/ppi-2021/#p-9-1-i-b");
    expect(source.parentElement!.textContent).toContain("(RBI; in force since 2025-11-28)");
    // the circulars are further reading under a provision's answer
    expect(within(card).getByRole("heading", { name: "Related circulars" })).toBeTruthy();
    expect(within(card).queryByRole("heading", { name: "Sources" })).toBeNull();
    const list = screen.getByRole("region", { name: "Master Directions in force" });
    const items = [...list.querySelectorAll("li")];
    expect(items.map((li) => li.getAttribute("data-provision"))).toEqual(["ppi-2021 9.1(i)(b)", "ppi-2021 13"]);
    expect(within(items[1]).getByRole("link", { name: "MD-PPIs, 2021, para 13" }).getAttribute("href")).toBe("/master-directions/ppi-2021/#p-13");
    expect(items[0].querySelector("mark")!.textContent).toBe("small");
    // the circulars' list is the circulars'
    expect(shownSlugs()).toEqual([upi]);
  }, slow);

  it("shows no provisions section when none match, and a circular's answer keeps its Sources", async () => {
    stubAPI(response([upi]));
    await open("/search?q=upi+ids");
    const card = await screen.findByRole("region", { name: "Direct Answer" });
    expect(within(card).getByRole("heading", { name: "Sources" })).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Master Directions in force" })).toBeNull();
  }, slow);

  it("pages: Previous and Next follow hasPrev and hasNext, up to five numbers, and filters reset the page", async () => {
    const many = (page: number) =>
      response([upi], { pagination: { currentPage: page, totalPages: 7, totalResults: 33, hasPrev: page > 1, hasNext: page < 7 } });
    const fetch = stubAPI(many(1), many(2), many(1));
    await open("/search?q=upi");
    const pager = await screen.findByRole("navigation", { name: "Search results pages" });
    expect(screen.getByRole("button", { name: "Previous" })).toHaveProperty("disabled", true);
    expect(screen.getByRole("button", { name: "Next" })).toHaveProperty("disabled", false);
    expect([...pager.querySelectorAll("[aria-label^='Page ']")].map((b) => b.textContent)).toEqual(["1", "2", "3", "4", "5"]);
    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "Next" })));
    await waitFor(() => expect(called(fetch)).toContain("/api/search?q=upi&page=2"));
    expect(window.location.search).toBe("?q=upi&page=2");
    await inAct(() => fireEvent.change(screen.getByRole("combobox", { name: "Source" }), { target: { value: "NPCI" } }));
    await waitFor(() => expect(called(fetch)).toContain("/api/search?q=upi&source=NPCI"));
    expect(window.location.search).toBe("?q=upi&source=NPCI");
  }, slow);

  it("shows the UPI banner, the correction and 'No results found'", async () => {
    stubAPI(response([], { latest: true, correction: { original: "upi limt", corrected: "upi limit" } }));
    await open("/search?q=upi+limt");
    await screen.findByText("UPI search:", { exact: false });
    expect(screen.getByText("upi limit").tagName).toBe("STRONG");
    expect(shownSlugs()).toEqual([]);
    expect(isHidden(sel(dataEmpty, "search-circulars"))).toBe(false);
  }, slow);

  it("shows five placeholders while the API works", async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal("fetch", vi.fn(() => new Promise<Response>((r) => (answer = r))));
    await open("/search?q=upi");
    expect(document.querySelectorAll(sel(dataSkeleton))).toHaveLength(5);
    await inAct(() => answer(new Response(JSON.stringify(response([upi])))));
    await waitFor(() => expect(document.querySelectorAll(sel(dataSkeleton))).toHaveLength(0));
  }, slow);

  it("without the API searches the compact index and says so", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const index = {
      fields: ["slug", "circularNumber", "title", "source", "category", "publishedDate"],
      sources: ["RBI", "NPCI"],
      categories: ["Security", "UPI"],
      rows: [
        [upi, "", "UPI transaction IDs", 1, 1, "2024-03-28"],
        [token, "RBI/2021-22/92", "Tokenisation - Card Transactions", 0, 0, "2021-09-07"],
      ],
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => (pathOf(input) === "/search-index.json" ? new Response(JSON.stringify(index)) : new Response("<html>404</html>", { status: 404 }))),
    );
    await open("/search?q=tokenisation");
    await screen.findByText("The search service is unavailable", { exact: false });
    await waitFor(() => expect(shownSlugs()).toEqual([token]));
    expect(screen.getByRole("link", { name: "RBI/2021-22/92 - Tokenisation - Card Transactions" }).getAttribute("href")).toBe(`/circulars/${token}`);
  }, slow);

  it("without the API and without an index says so and points to the lists", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<html>404</html>", { status: 404 })));
    await loadPage("/search?q=tokenisation");
    const el = document.querySelector<HTMLElement>(sel(dataIsland, "Search"))!;
    el.setAttribute(dataProps, JSON.stringify({ ...JSON.parse(el.getAttribute(dataProps)!), fallbackIndex: "" }));
    await mountIsland("Search", Search);
    await screen.findByText("this archive is too large to search in your browser", { exact: false });
    expect(screen.getByRole("link", { name: "circulars by regulator and category" }).getAttribute("href")).toBe("/circulars");
  }, slow);

  it("Back and Forward step through searches; Clear Filters resets everything", async () => {
    stubAPI(response([upi]), response([pa]), response([upi]));
    await open("/search");
    await type("upi");
    await waitFor(() => expect(shownSlugs()).toEqual([upi]));
    await type("aggregator");
    await waitFor(() => expect(shownSlugs()).toEqual([pa]));
    await inAct(() => window.history.back());
    await waitFor(() => expect(window.location.search).toBe("?q=upi"));
    await waitFor(() => expect(screen.getByRole("searchbox", { name: "Search text" })).toHaveProperty("value", "upi"));
    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "Clear Filters" })));
    expect(window.location.search).toBe("");
    expect(shownSlugs()).toEqual([upi, token, pa]);
  }, slow);
});
