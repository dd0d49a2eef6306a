import { describe, expect, it } from "vitest";
import { isFiltered, resultsHeading, showNewsView } from "./news";

describe("isFiltered", () => {
  it.each([
    [{ q: "", category: "all" }, false],
    [{ q: "  ", category: "all" }, false],
    [{ q: "upi", category: "all" }, true],
    [{ q: "", category: "CBDC" }, true],
  ])("%j", (f, want) => {
    expect(isFiltered(f)).toBe(want);
  });
});

describe("resultsHeading", () => {
  it.each([
    [0, "Search Results (0 articles)"],
    [1, "Search Results (1 article)"],
    [12, "Search Results (12 articles)"],
  ])("%i", (n, want) => {
    expect(resultsHeading(n)).toBe(want);
  });
});

describe("showNewsView", () => {
  const page = () => {
    document.body.innerHTML = `<div data-news-top>top</div>
      <section data-news-results><h2 data-news-heading>All news (35 articles)</h2></section>`;
    return {
      top: document.querySelector<HTMLElement>("[data-news-top]")!,
      results: document.querySelector<HTMLElement>("[data-news-results]")!,
      heading: document.querySelector<HTMLElement>("[data-news-heading]")!,
    };
  };

  it("shows only the top blocks when not filtered", () => {
    const p = page();
    showNewsView(document, false, 35);
    expect([p.top.hidden, p.results.hidden]).toEqual([false, true]);
  });

  it("shows only the results, with their count, when filtered", () => {
    const p = page();
    showNewsView(document, true, 3);
    expect([p.top.hidden, p.results.hidden]).toEqual([true, false]);
    expect(p.heading.textContent).toBe("Search Results (3 articles)");
    showNewsView(document, false, 35);
    showNewsView(document, true, 0);
    expect([p.top.hidden, p.results.hidden, p.heading.textContent]).toEqual([true, false, "Search Results (0 articles)"]);
  });
});
