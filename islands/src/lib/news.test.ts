import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isHidden, loadPage, resetPage, text } from "../test/fixture";
import { dataNewsHeading, dataNewsResults, dataNewsTop, sel } from "./contract";
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

// The fixture's /news: the Top 5 India block and the full list of one item.
describe("showNewsView on /news", () => {
  beforeEach(() => loadPage("/news"));
  afterEach(resetPage);
  const view = () => [isHidden(sel(dataNewsTop)), isHidden(sel(dataNewsResults))];
  const heading = () => text(sel(dataNewsHeading));

  it("shows only the top blocks when not filtered", () => {
    expect(heading()).toBe("All news (1 article)"); // the generator's, for readers without JavaScript
    showNewsView(document, false, 1);
    expect(view()).toEqual([false, true]);
    expect(heading()).toBe("All news (1 article)");
  });

  it("shows only the results, with their count, when filtered", () => {
    showNewsView(document, true, 1);
    expect(view()).toEqual([true, false]);
    expect(heading()).toBe("Search Results (1 article)");
    showNewsView(document, false, 1);
    showNewsView(document, true, 0);
    expect([...view(), heading()]).toEqual([true, false, "Search Results (0 articles)"]);
  });

  it("says it is searching while the count is not known", () => {
    showNewsView(document, true, undefined);
    expect([...view(), heading()]).toEqual([true, false, "Searching…"]);
  });
});
