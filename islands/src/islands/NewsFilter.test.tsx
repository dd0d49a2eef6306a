import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { dataAge, dataEmpty, dataNewsHeading, dataNewsResults, dataNewsTop, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage, shown, text } from "../test/fixture";
import NewsFilter from "./NewsFilter";

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

describe("NewsFilter on /news", () => {
  afterEach(resetPage);

  it("shows the top blocks unfiltered and fills every relative age", async () => {
    await open();
    expect(topShown()).toBe(true);
    expect(resultsShown()).toBe(false);
    const ages = [...document.querySelectorAll(sel(dataAge))];
    expect(ages).toHaveLength(2); // the top card and the list card
    for (const el of ages) expect(el.textContent).toMatch(/^\d+ days ago$/);
  });

  it("switches to the results list for a search or a category, and back on Clear Filters", async () => {
    await open();
    await search("alphanumeric"); // the excerpt
    expect(topShown()).toBe(false);
    expect(resultsShown()).toBe(true);
    expect(shown("news")).toEqual([item]);
    expect(text(sel(dataNewsHeading))).toBe("Search Results (1 article)");

    await search("");
    await choose("CBDC");
    expect(shown("news")).toEqual([]);
    expect(emptyShown()).toBe(true);
    expect(text(sel(dataEmpty, "news"))).toContain("No news articles found");
    expect(text(sel(dataNewsHeading))).toBe("Search Results (0 articles)");
    expect(window.location.search).toBe("?category=CBDC");

    await choose("Payment Systems");
    expect(shown("news")).toEqual([item]);
    expect(emptyShown()).toBe(false);

    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "Clear Filters" })));
    expect(topShown()).toBe(true);
    expect(resultsShown()).toBe(false);
    expect(emptyShown()).toBe(false);
    expect(window.location.search).toBe("");
  });

  it("offers All Categories and the page's categories", async () => {
    await open();
    const labels = [...screen.getByRole("combobox", { name: "Category" }).querySelectorAll("option")].map((o) => o.textContent);
    expect(labels).toEqual(["All Categories", "Payment Systems", "CBDC", "Sandbox", "Digital Banking", "Regulations"]);
  });
});
