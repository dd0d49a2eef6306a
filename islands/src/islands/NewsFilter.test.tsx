import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dataAge, dataApiList, dataEmpty, dataNewsHeading, dataNewsResults, dataNewsTop, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage, shown, text } from "../test/fixture";
import NewsFilter from "./NewsFilter";
import { pathOf } from "../test/fetch";

// The fixture's /news: one Indian item, "NPCI changes UPI transaction IDs"
// (Payment Systems), in the Top 5 India block and in the full list.
const item = "NPCI changes UPI transaction IDs";

const open = async () => {
  await loadPage("/news");
  await mountIsland("NewsFilter", NewsFilter);
};
const search = (q: string) => inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search news" }), { target: { value: q } }));
const choose = (value: string) => inAct(() => fireEvent.change(screen.getByRole("combobox", { name: "Category" }), { target: { value } }));
const topShown = () => !isHidden(sel(dataNewsTop));
const resultsShown = () => !isHidden(sel(dataNewsResults));
const emptyShown = () => !isHidden(sel(dataEmpty, "news"));

// apiShown are the titles of the cards drawn from the API's answer.
const apiShown = () => [...document.querySelectorAll(`${sel(dataApiList, "news")} h3`)].map((h) => h.textContent);
const news = (title: string) => ({ id: title, slug: title, title, excerpt: "", source: "NPCI", category: "Payment Systems", region: "India", publishedDate: "2024-03-28", sourceUrl: "https://example.test/", content: "", circular: null });
const answers: Record<string, string[]> = {
  "/api/news?search=alphanumeric&limit=30": [item],
  "/api/news?category=CBDC&limit=30": [],
  "/api/news?category=Payment+Systems&limit=30": [item],
};
const stubNews = () => {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const titles = answers[pathOf(input)] ?? [];
    return new Response(JSON.stringify(titles.map(news)), { headers: { "X-Total-Count": String(titles.length) } });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
};

describe("NewsFilter on /news", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    resetPage();
  });

  it("shows the top blocks unfiltered and fills every relative age", async () => {
    await open();
    expect(topShown()).toBe(true);
    expect(resultsShown()).toBe(false);
    const ages = [...document.querySelectorAll(sel(dataAge))];
    expect(ages).toHaveLength(2); // the top card and the list card
    for (const el of ages) expect(el.textContent).toMatch(/^\d+ days ago$/);
  });

  it("switches to the API's results for a search or a category, and back on Clear Filters", async () => {
    const fetch = stubNews();
    await open();
    await search("alphanumeric"); // the excerpt
    expect(topShown()).toBe(false);
    expect(resultsShown()).toBe(true);
    await waitFor(() => expect(apiShown()).toEqual([item]));
    expect(text(sel(dataNewsHeading))).toBe("Search Results (1 article)");

    await search("");
    await choose("CBDC");
    await waitFor(() => expect(emptyShown()).toBe(true));
    expect(apiShown()).toEqual([]);
    expect(text(sel(dataEmpty, "news"))).toContain("No news articles found");
    expect(text(sel(dataNewsHeading))).toBe("Search Results (0 articles)");
    expect(window.location.search).toBe("?category=CBDC");

    await choose("Payment Systems");
    await waitFor(() => expect(apiShown()).toEqual([item]));
    expect(emptyShown()).toBe(false);
    expect(fetch.mock.calls.map((c) => pathOf((c as unknown[])[0]))).toEqual(Object.keys(answers));

    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "Clear Filters" })));
    expect(topShown()).toBe(true);
    expect(resultsShown()).toBe(false);
    expect(emptyShown()).toBe(false);
    expect(window.location.search).toBe("");
  });

  it("says it is searching, not a count, until the answer is in", async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      await held;
      const titles = answers[pathOf(input)] ?? [];
      return new Response(JSON.stringify(titles.map(news)), { headers: { "X-Total-Count": String(titles.length) } });
    });
    vi.stubGlobal("fetch", fetch);
    await open();
    const heading = document.querySelector(sel(dataNewsHeading))!;
    expect(heading.getAttribute("aria-live")).toBe("polite");
    await search("alphanumeric");
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(resultsShown()).toBe(true);
    expect(text(sel(dataNewsHeading))).toBe("Searching…");
    expect(emptyShown()).toBe(false);
    await inAct(async () => release());
    await waitFor(() => expect(apiShown()).toEqual([item]));
    expect(text(sel(dataNewsHeading))).toBe("Search Results (1 article)");
  });

  it("filters this page's cards when the API does not answer", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<h1>404</h1>", { status: 404 })));
    await open();
    await choose("CBDC");
    await waitFor(() => expect(emptyShown()).toBe(true));
    expect(shown("news")).toEqual([]);
    await choose("Payment Systems");
    await waitFor(() => expect(shown("news")).toEqual([item]));
  });

  it("offers All Categories and the page's categories", async () => {
    await open();
    const labels = [...screen.getByRole("combobox", { name: "Category" }).querySelectorAll("option")].map((o) => o.textContent);
    expect(labels).toEqual(["All Categories", "Payment Systems", "CBDC", "Sandbox", "Digital Banking", "Regulations"]);
  });
});
