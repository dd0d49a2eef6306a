import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dataCount, dataEmpty, dataHeading, sel } from "../lib/contract";
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

  it("never asks the API: the page's scores and bands are the generator's", async () => {
    await open("/impact-tracker");
    const before = document.querySelector(sel(dataHeading, "entities"))!.closest("section")!.innerHTML;
    await search("card");
    await search("");
    expect(fetchMock).not.toHaveBeenCalled();
    expect(document.querySelector(sel(dataHeading, "entities"))!.closest("section")!.innerHTML).toBe(before);
  });
});
