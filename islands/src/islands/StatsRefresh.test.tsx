import { afterEach, describe, expect, it, vi } from "vitest";
import { dataStat, sel } from "../lib/contract";
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
