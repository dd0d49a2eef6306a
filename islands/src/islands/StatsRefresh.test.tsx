import { afterEach, describe, expect, it, vi } from "vitest";
import { dataStat, dataStatZero, sel } from "../lib/contract";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import StatsRefresh from "./StatsRefresh";

const figure = (key: string) => document.querySelector(sel(dataStat, key))!.textContent;

describe("StatsRefresh on the dashboard", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    resetPage();
  });

  it("writes the API's figures over the build's", async () => {
    await loadPage("/");
    expect(figure("activeUsers")).toMatch(/^\d+$/);
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(JSON.stringify({ newCirculars: 7, impactAlerts: 2, latestNews: 11, activeUsers: 42 }), { status: 200 }),
    );
    await mountIsland("StatsRefresh", StatsRefresh);
    await vi.waitFor(() => expect(figure("activeUsers")).toBe("42"));
    expect([figure("newCirculars"), figure("impactAlerts"), figure("latestNews")]).toEqual(["7", "2", "11"]);
  });

  it("says when the last one came under a figure of 0, and nothing under the others", async () => {
    await loadPage("/");
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(
        JSON.stringify({
          newCirculars: 0, impactAlerts: 2, latestNews: 0, activeUsers: 1, awaitingVerification: 0,
          lastCircular: "2026-10-01", lastImpactAlert: "2026-09-18", lastNews: null,
        }),
        { status: 200 },
      ),
    );
    await mountIsland("StatsRefresh", StatsRefresh);
    const note = (key: string) => document.querySelector<HTMLElement>(sel(dataStatZero, key))!;
    await vi.waitFor(() => expect(note("newCirculars").hidden).toBe(false));
    expect(note("newCirculars").textContent).toBe("None in 30 days: the last came on 1 October 2026");
    expect(note("newCirculars").querySelector("time")!.dateTime).toBe("2026-10-01");
    expect(note("impactAlerts").hidden).toBe(true);
    expect(note("latestNews").hidden).toBe(false);
    expect(document.querySelector(sel(dataStatZero, "activeUsers"))).toBeNull();
  });

  it("asks again when the page comes back from the back/forward cache", async () => {
    await loadPage("/");
    const answer = (activeUsers: number) => new Response(JSON.stringify({ newCirculars: 7, impactAlerts: 2, latestNews: 11, activeUsers }), { status: 200 });
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(answer(0)).mockResolvedValueOnce(answer(1));
    await mountIsland("StatsRefresh", StatsRefresh);
    await vi.waitFor(() => expect(figure("newCirculars")).toBe("7"));
    expect(figure("activeUsers")).toBe("0");
    // a page shown afresh (not from the cache) asks nothing more
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: false }));
    expect(fetch).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
    await vi.waitFor(() => expect(figure("activeUsers")).toBe("1"));
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("keeps the build's figures when the call fails, and only logs", async () => {
    await loadPage("/");
    const before = figure("newCirculars");
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("down", { status: 503 }));
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await mountIsland("StatsRefresh", StatsRefresh);
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    expect(figure("newCirculars")).toBe(before);
  });
});
