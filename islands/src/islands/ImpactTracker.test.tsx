import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dataApiList, dataCount, dataEmpty, dataHeading, dataIsland, dataList, sel } from "../lib/contract";
import type { ImpactEntries } from "../lib/impact-circular";
import { inAct, isHidden, loadPage, mountIsland, resetPage, shown, text } from "../test/fixture";
import ImpactTracker from "./ImpactTracker";

// The fixture's /impact-tracker, built as of 2021-03-01: the three entity
// cards, and the payment aggregator guidelines (DPSS.CO.PD.No.1810/...,
// 2020-03-17) as the one high impact circular currently active.
const pa = "DPSS.CO.PD.No.1810/02.14.008/2019-20 - Guidelines on Regulation of Payment Aggregators & Payment Gateways";

describe("ImpactTracker on /impact-tracker", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async () => new Response("[]"));
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    resetPage();
  });

  const open = async (url: string) => {
    await loadPage(url);
    await mountIsland("ImpactTracker", ImpactTracker);
  };
  const search = (q: string) =>
    inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search entity types or circular IDs" }), { target: { value: q } }));
  const heading = () => text(sel(dataHeading, "entities"));
  const emptyShown = (list: string) => !isHidden(sel(dataEmpty, list));

  it("filters entity cards by type and name, and circulars by number, title and slug", async () => {
    await open("/impact-tracker");
    expect(heading()).toBe("All Entity Types");
    expect(shown("entities")).toEqual(["Payment Service Providers", "Card Issuers", "Payment Aggregators"]);
    expect(shown("high-circulars")).toEqual([pa]);
    expect(emptyShown("medium-circulars")).toBe(true);

    await search("issuer");
    expect(heading()).toBe('Search Results for "issuer"');
    expect(shown("entities")).toEqual(["Card Issuers"]);
    expect(text(sel(dataCount, "entities"))).toBe("1");
    expect(window.location.search).toBe("?q=issuer");

    await search("DPSS.CO.PD.No.1810"); // a circular number
    expect(shown("high-circulars")).toEqual([pa]);
    expect(shown("entities")).toEqual([]);
    expect(emptyShown("entities")).toBe(true);

    await search("rbi-2020-03-17"); // a slug
    expect(shown("high-circulars")).toEqual([pa]);

    await search("aggregators"); // a display name and a title
    expect(shown("entities")).toEqual(["Payment Aggregators"]);
    expect(shown("high-circulars")).toEqual([pa]);

    await search("xyzzy");
    expect(shown("high-circulars")).toEqual([]);
    expect(emptyShown("high-circulars")).toBe(true);

    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "Clear" })));
    expect(heading()).toBe("All Entity Types");
    expect(shown("entities")).toHaveLength(3);
    expect(shown("high-circulars")).toEqual([pa]);
    expect(window.location.search).toBe("");
  });

  it("starts from the URL's search", async () => {
    await open("/impact-tracker?q=PSP");
    expect(heading()).toBe('Search Results for "PSP"');
    expect(shown("entities")).toEqual(["Payment Service Providers"]);
  });

  it("with a list beyond its first page, a search covers every entry, a page of matches at a time", async () => {
    // The page as the generator writes it when a list runs beyond its
    // first page: the island names the entries, the list has its slot.
    await loadPage("/impact-tracker");
    const island = document.querySelector<HTMLElement>(sel(dataIsland, "ImpactTracker"))!;
    const labels = { documentTypes: { circular: "Circular" }, verifications: {} };
    island.setAttribute("data-props", JSON.stringify({ entries: "/impact-tracker/entries.json", labels, pageSize: 2 }));
    const slot = document.createElement("div");
    slot.setAttribute(dataApiList, "high-circulars");
    document.querySelector(sel(dataList, "high-circulars"))!.after(slot);
    const extra = (i: number) => ({
      id: `x${i}`, slug: `sebi-2021-01-0${i}-extra`, circularNumber: `SEBI/HO/${i}`, title: `Extra circular ${i}`,
      preview: "A preview.", lang: "en" as const, source: "SEBI" as const, documentType: "circular" as const, verification: null, publishedDate: `2021-01-0${i}`,
    });
    const entries: ImpactEntries = { high: [1, 2, 3, 4, 5].map(extra), medium: [], open: [] };
    fetchMock.mockImplementation(async () => new Response(JSON.stringify(entries)));
    await mountIsland("ImpactTracker", ImpactTracker);
    expect(fetchMock).not.toHaveBeenCalled(); // read only once someone searches

    const drawn = () => [...slot.querySelectorAll("li h3")].map((h) => h.textContent);
    const staticList = document.querySelector<HTMLElement>(sel(dataList, "high-circulars"))!;
    await search("extra");
    await waitFor(() => expect(drawn()).toEqual(["SEBI/HO/1 - Extra circular 1", "SEBI/HO/2 - Extra circular 2"]));
    expect(fetchMock).toHaveBeenCalledWith("/impact-tracker/entries.json", expect.anything());
    expect(staticList.hidden).toBe(true);
    expect(text(sel(dataCount, "high-circulars"))).toBe("5");
    expect(screen.getByRole("status").textContent).toBe("Showing 2 of 5 matches");
    const more = () => screen.queryByRole("button", { name: "Show more matches" });
    await inAct(() => fireEvent.click(more()!));
    expect(drawn()).toHaveLength(4);
    await inAct(() => fireEvent.click(more()!));
    expect(drawn()).toHaveLength(5);
    expect(more()).toBeNull();

    await search("SEBI/HO/3"); // a number; a new search starts at one page
    expect(drawn()).toEqual(["SEBI/HO/3 - Extra circular 3"]);
    await search("xyzzy");
    expect(drawn()).toEqual([]);
    expect(emptyShown("high-circulars")).toBe(true);
    expect(text(sel(dataCount, "high-circulars"))).toBe("0");

    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "Clear" })));
    expect(drawn()).toEqual([]);
    expect(staticList.hidden).toBe(false);
    expect(shown("high-circulars")).toEqual([pa]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("searches the first page when the entries do not load", async () => {
    await loadPage("/impact-tracker");
    const island = document.querySelector<HTMLElement>(sel(dataIsland, "ImpactTracker"))!;
    island.setAttribute("data-props", JSON.stringify({ entries: "/impact-tracker/entries.json", labels: { documentTypes: {}, verifications: {} }, pageSize: 2 }));
    fetchMock.mockImplementation(async () => new Response("Not found", { status: 404 }));
    vi.spyOn(console, "error").mockImplementation(() => {});
    await mountIsland("ImpactTracker", ImpactTracker);
    await search("DPSS.CO.PD.No.1810");
    await waitFor(() => expect(console.error).toHaveBeenCalled());
    expect(shown("high-circulars")).toEqual([pa]);
  });

  it("never asks the API: the page's scores and bands are the generator's", async () => {
    await open("/impact-tracker");
    const before = document.querySelector(sel(dataHeading, "entities"))!.closest("section")!.innerHTML;
    await search("card");
    await search("");
    expect(fetchMock).not.toHaveBeenCalled();
    expect(document.querySelector(sel(dataHeading, "entities"))!.closest("section")!.innerHTML).toBe(before);
  });
});
