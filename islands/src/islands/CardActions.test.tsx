import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterAll, describe, expect, it, vi } from "vitest";
import { dataCardActions, sel } from "../lib/contract";
import { removeToaster } from "../lib/toast";
import { inAct, loadPage, mountIsland, resetPage } from "../test/fixture";
import CardActions from "./CardActions";
import { bodyOf, pathOf } from "../test/fetch";

const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });

describe("CardActions on /circulars", () => {
  afterAll(() => {
    vi.unstubAllGlobals();
    // the toasts' dismiss timers must not outlive the test's document
    act(() => removeToaster());
    resetPage();
  });

  it("puts Summarize and Impact into every card, each acting on its own circular", async () => {
    await loadPage("/circulars");
    const slots = Array.from(document.querySelectorAll<HTMLElement>(sel(dataCardActions)));
    expect(slots.length).toBe(document.querySelectorAll("[data-circular]").length);
    expect(slots.length).toBeGreaterThan(1);
    await mountIsland("CardActions", CardActions);
    expect(screen.getAllByRole("button", { name: "Summarize" })).toHaveLength(slots.length);
    expect(screen.getAllByRole("button", { name: "Impact" })).toHaveLength(slots.length);

    // the second card's Impact asks about the second card's circular, for PSPs
    const second = slots[1];
    const id = second.getAttribute(dataCardActions);
    const impact = vi.fn(async (_req: Request) =>
      json({ circularId: id, entityType: "PSP", impactLevel: "high", reasons: ["It binds PSPs."], provider: "local", model: "rules", generatedAt: "2026-01-01T00:00:00Z" }),
    );
    vi.stubGlobal("fetch", impact);
    await inAct(() => fireEvent.click(within(second).getByRole("button", { name: "Impact" })));
    await waitFor(() => expect(screen.getByText("Impact level: high. See detailed analysis.")).toBeTruthy());
    expect(pathOf(impact.mock.calls[0][0])).toBe(`/api/circulars/${id}/impact`);
    expect(await bodyOf(impact.mock.calls[0][0])).toEqual({ entityType: "PSP" });
    expect(within(second).getByText("It binds PSPs.")).toBeTruthy();
    expect(within(slots[0]).queryByText("It binds PSPs.")).toBeNull();
  });

});

describe("CardActions with hidden cards (the dashboard's)", () => {
  afterAll(() => {
    act(() => removeToaster());
    resetPage();
  });

  it("fills a hidden card's slot only once the card is shown", async () => {
    await loadPage("/circulars");
    const cards = Array.from(document.querySelectorAll<HTMLElement>("[data-circular]"));
    cards[1].hidden = true;
    await mountIsland("CardActions", CardActions);
    const slot = cards[1].querySelector<HTMLElement>(sel(dataCardActions))!;
    expect(within(slot).queryByRole("button", { name: "Summarize" })).toBeNull();
    expect(screen.getAllByRole("button", { name: "Summarize" })).toHaveLength(cards.length - 1);
    await inAct(() => (cards[1].hidden = false));
    await waitFor(() => expect(within(slot).getByRole("button", { name: "Summarize" })).toBeTruthy());
  });
});
