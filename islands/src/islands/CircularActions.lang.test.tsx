// On a Hindi page the circular's AI actions ask the API for Hindi
// (lang=hi: with a model configured the summary and the reasons are
// written in Hindi); on an English page they send no lang (the API's
// default), as CircularActions.test.tsx holds.
import { act, fireEvent, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { removeToaster } from "../lib/toast";
import { inAct, loadPage, mountIsland, resetPage } from "../test/fixture";
import CircularActions from "./CircularActions";

const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { "Content-Type": "application/json" } });

describe("CircularActions on a Hindi page", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    act(() => removeToaster());
    resetPage();
    document.documentElement.lang = ""; // the other files' pages are English
  });

  it("asks for the summary and the impact in Hindi", async () => {
    await loadPage("/circulars/rbi-2021-09-07-tokenisation");
    document.documentElement.lang = "hi-IN";
    await mountIsland("CircularActions", CircularActions);
    const fetch = vi.fn(async (req: Request) =>
      new URL(req.url).pathname.endsWith("/impact")
        ? json({ circularId: "x", entityType: "PSP", impactLevel: "low", reasons: ["कारण।"], provider: "local", model: "rules", generatedAt: "2026-01-01T00:00:00Z" })
        : json({ aiSummary: { summary: "सारांश।", provider: "local", model: "lexrank", generatedAt: "2026-01-01T00:00:00Z" } }),
    );
    vi.stubGlobal("fetch", fetch);
    // The buttons by their place (their names are the catalogue's, in Hindi here).
    const buttons = () => [...document.querySelectorAll<HTMLButtonElement>("[data-ai-actions] button")];
    await inAct(() => fireEvent.click(buttons()[0]));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(buttons()[1].disabled).toBe(false));
    await inAct(() => fireEvent.click(buttons()[1]));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    const urls = fetch.mock.calls.map(([req]) => new URL(req.url));
    expect(urls.map((u) => u.pathname.split("/").pop())).toEqual(["summarize", "impact"]);
    for (const u of urls) expect(u.searchParams.get("lang")).toBe("hi");
  });
});
