import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../lib/api";
import { dataApiList, dataStaticPage, sel } from "../lib/contract";
import { inAct, loadPage, mountIsland, resetPage } from "../test/fixture";
import CircularList, { parseView, viewURL, type Lists } from "./CircularList";
import { pathOf } from "../test/fetch";

const lists: Lists = {
  sources: { RBI: "/circulars/rbi", NPCI: "/circulars/npci" },
  sourceOrder: ["RBI", "NPCI"],
  categories: { UPI: "/circulars/category/upi", Security: "/circulars/category/security" },
  categoryOrder: ["UPI", "Security"],
};

describe("viewURL and parseView", () => {
  it.each([
    [{ source: "all", category: "all", page: 1 }, "/circulars"],
    [{ source: "RBI", category: "all", page: 3 }, "/circulars/rbi/page/3"],
    [{ source: "all", category: "UPI", page: 1 }, "/circulars/category/upi"],
    [{ source: "RBI", category: "UPI", page: 2 }, "/circulars?source=RBI&category=UPI&page=2"],
  ])("%j is %s and back", (view, url) => {
    expect(viewURL(view, lists)).toBe(url);
    const u = new URL(url, "http://x.test");
    expect(parseView(u.pathname, u.search, lists)).toEqual(view);
  });
  it("ignores an unknown filter and a bad page", () => {
    expect(parseView("/circulars/", "?source=NOPE&page=x", lists)).toEqual({ source: "all", category: "all", page: 1 });
  });
  it("keeps a Hindi page's views under /hi", () => {
    document.documentElement.lang = "hi";
    try {
      const view = { source: "RBI", category: "all", page: 3 };
      expect(viewURL(view, lists)).toBe("/hi/circulars/rbi/page/3");
      expect(parseView("/hi/circulars/rbi/page/3", "", lists)).toEqual(view);
      expect(viewURL({ source: "RBI", category: "UPI", page: 1 }, lists)).toBe("/hi/circulars?source=RBI&category=UPI");
    } finally {
      document.documentElement.lang = "";
    }
  });
});

// The fixture's /circulars: three circulars, one page.
const upi = "npci-2024-03-28-upi-ids";
const token = "rbi-2021-09-07-tokenisation";
const pa = "rbi-2020-03-17-pa-guidelines";
const circular = (slug: string) =>
  ({ id: slug, slug, title: slug, source: "RBI", category: "Security", documentType: "circular", impactLevel: "high", publishedDate: "2021-09-07" }) as Schemas["Circular"];

const shown = () => {
  const page = document.querySelector<HTMLElement>(sel(dataStaticPage, "circulars"))!;
  const cards = page.hidden ? document.querySelectorAll(`${sel(dataApiList, "circulars")} [data-circular]`) : page.querySelectorAll("[data-circular]");
  return [...cards].map((e) => e.getAttribute("data-circular"));
};

describe("CircularList on /circulars", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    resetPage();
  });

  it("pages and filters through the API, the URL in step, Back and Forward too", async () => {
    const answers: Record<string, string[]> = {
      "/api/circulars?source=RBI&limit=30": [token, pa],
      "/api/circulars?source=RBI&category=Payment+Systems&limit=30": [token],
    };
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const slugs = answers[pathOf(input)] ?? [];
      return new Response(JSON.stringify(slugs.map(circular)), { headers: { "X-Total-Count": String(slugs.length) } });
    });
    vi.stubGlobal("fetch", fetch);
    await loadPage("/circulars");
    await mountIsland("CircularList", CircularList);
    expect(shown()).toEqual([upi, token, pa]);
    expect(fetch).not.toHaveBeenCalled();

    const filters = () => within(screen.getByRole("navigation", { name: "Filter circulars" }));
    await inAct(() => fireEvent.click(filters().getByRole("link", { name: "RBI" })));
    await waitFor(() => expect(shown()).toEqual([token, pa]));
    expect(window.location.pathname).toBe("/circulars/rbi");
    expect(document.querySelector("h1")!.textContent).toBe("RBI Circulars");

    await inAct(() => fireEvent.click(filters().getByRole("link", { name: "Payment Systems" })));
    await waitFor(() => expect(shown()).toEqual([token]));
    expect(window.location.pathname + window.location.search).toBe("/circulars?source=RBI&category=Payment+Systems");
    expect(filters().getByRole("link", { name: "Payment Systems" }).getAttribute("aria-current")).toBe("true");

    await inAct(() => window.history.back());
    await waitFor(() => expect(shown()).toEqual([token, pa]));
    await inAct(() => window.history.back());
    await waitFor(() => expect(shown()).toEqual([upi, token, pa]));
    expect(Object.keys(answers)).toEqual(fetch.mock.calls.map((c) => pathOf((c as unknown[])[0])));
  });

  it("opens the static page nearest the view when the API does not answer", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<h1>404</h1>", { status: 404 })));
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, pathname: "/circulars", search: "?source=RBI&category=UPI", assign });
    await loadPage("/circulars?source=RBI&category=UPI");
    await mountIsland("CircularList", CircularList);
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/circulars/rbi"));
  });
});
