import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import SponsoredBanner, { dismissedKey, rotateMs, shownShare, type Ad } from "./SponsoredBanner";

const ads: Ad[] = ["One", "Two", "Three"].map((t, i) => ({
  id: String(i), title: t, description: `About ${t}`, company: "Example", category: "payment", ctaText: "Learn", targetUrl: "/news",
}));
const title = () => document.querySelector("[data-ad-title]")?.textContent;
const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

function reducedMotion(on: boolean) {
  window.matchMedia = ((q: string) => ({
    matches: on && q.includes("reduce"), media: q, addEventListener() {}, removeEventListener() {},
  })) as unknown as typeof window.matchMedia;
}

// pageHidden makes the tab hidden or shown again, as the browser tells it.
function pageHidden(on: boolean) {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (on ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}

// observeViewport stands in for the browser's IntersectionObserver: the
// returned report says how much of the banner is in the viewport.
function observeViewport() {
  let notify: (entries: Partial<IntersectionObserverEntry>[]) => void = () => {};
  vi.stubGlobal("IntersectionObserver", class {
    constructor(cb: typeof notify) { notify = cb; }
    observe() {}
    disconnect() {}
  });
  return (ratio: number) => act(() => notify([{ isIntersecting: ratio > 0, intersectionRatio: ratio }]));
}

describe("SponsoredBanner", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    reducedMotion(false);
    sessionStorage.clear();
  });
  afterEach(() => {
    delete (document as { visibilityState?: unknown }).visibilityState;
    vi.unstubAllGlobals();
    vi.useRealTimers();
    vi.restoreAllMocks();
    resetPage();
  });

  it("rotates every 10 s and wraps around", async () => {
    render(<SponsoredBanner ads={ads} />);
    expect(title()).toBe("One");
    await tick(rotateMs - 1);
    expect(title()).toBe("One");
    await tick(1);
    expect(title()).toBe("Two");
    await tick(rotateMs);
    expect(title()).toBe("Three");
    await tick(rotateMs);
    expect(title()).toBe("One");
    expect(screen.getByRole("region", { name: "Sponsored advertisement" })).toBeTruthy();
  });

  // The early turn: the timer ran on in a hidden tab, so a reader coming
  // back saw the ad (or the next one) turn after a few seconds.
  it("counts only the seconds the tab is shown: hidden, the ad holds and then gets its full 10 s", async () => {
    render(<SponsoredBanner ads={ads} />);
    await tick(rotateMs - 2_000);
    await act(() => pageHidden(true));
    await tick(5 * rotateMs);
    expect(title()).toBe("One");
    await act(() => pageHidden(false));
    await tick(rotateMs - 1);
    expect(title()).toBe("One");
    await tick(1);
    expect(title()).toBe("Two");
  });

  it("mounted in a hidden tab (a background tab's load), it waits to be shown", async () => {
    pageHidden(true);
    render(<SponsoredBanner ads={ads} />);
    await tick(3 * rotateMs);
    expect(title()).toBe("One");
    await act(() => pageHidden(false));
    await tick(rotateMs);
    expect(title()).toBe("Two");
  });

  // The island mounts 200 px before the banner comes into view (and a
  // phone's reader scrolls past it): the 10 s start when it is on screen.
  it("counts only the seconds the banner is in view", async () => {
    const report = observeViewport();
    render(<SponsoredBanner ads={ads} />);
    await tick(rotateMs + 2_000); // mounted below the fold, no report yet
    expect(title()).toBe("One");
    await report(0);
    await tick(rotateMs + 2_000);
    expect(title()).toBe("One");
    await report(shownShare - 0.2); // a sliver is not shown
    await tick(rotateMs + 2_000);
    expect(title()).toBe("One");
    await report(1);
    await tick(rotateMs - 2_000);
    expect(screen.getByRole("region").dataset.rotating).toBe("true");
    await report(0); // scrolled away before its 10 s
    expect(screen.getByRole("region").dataset.rotating).toBe("false");
    await tick(rotateMs);
    expect(title()).toBe("One");
    await report(shownShare);
    await tick(rotateMs - 1);
    expect(title()).toBe("One");
    await tick(1);
    expect(title()).toBe("Two");
    await tick(rotateMs);
    expect(title()).toBe("Three");
  });

  it("pauses while hovered or focused, and on its button", async () => {
    render(<SponsoredBanner ads={ads} />);
    const region = screen.getByRole("region");
    fireEvent.mouseEnter(region);
    await tick(3 * rotateMs);
    expect(title()).toBe("One");
    fireEvent.mouseLeave(region);
    fireEvent.focus(screen.getByRole("link"));
    await tick(3 * rotateMs);
    expect(title()).toBe("One");
    fireEvent.blur(screen.getByRole("link"));
    fireEvent.click(screen.getByRole("button", { name: "Pause sponsored rotation" }));
    fireEvent.blur(screen.getByRole("button", { name: "Play sponsored rotation" }));
    await tick(3 * rotateMs);
    expect(title()).toBe("One");
    fireEvent.click(screen.getByRole("button", { name: "Play sponsored rotation" }));
    fireEvent.blur(screen.getByRole("button", { name: "Pause sponsored rotation" }));
    await tick(rotateMs);
    expect(title()).toBe("Two");
  });

  it("a hover holds the ad even when the turn is due before React has rendered it", async () => {
    render(<SponsoredBanner ads={ads} />);
    await tick(rotateMs - 1);
    const region = screen.getByRole("region");
    // one act: the hover's state is rendered only after the timer is due
    await act(async () => {
      fireEvent.mouseEnter(region);
      vi.advanceTimersByTime(1);
    });
    expect(title()).toBe("One");
    await tick(3 * rotateMs);
    expect(title()).toBe("One");
  });

  it("Pause pressed twice before React renders plays again, as the button then says", async () => {
    render(<SponsoredBanner ads={ads} />);
    const pause = screen.getByRole("button", { name: "Pause sponsored rotation" });
    // one act: the second press comes before the first is rendered
    await act(async () => {
      pause.click();
      pause.click();
    });
    expect(screen.getByRole("button", { name: "Pause sponsored rotation" })).toBeTruthy();
    fireEvent.blur(pause);
    await tick(rotateMs);
    expect(title()).toBe("Two");
  });

  it("does not rotate under prefers-reduced-motion, and offers no Pause", async () => {
    reducedMotion(true);
    render(<SponsoredBanner ads={ads} />);
    await tick(5 * rotateMs);
    expect(title()).toBe("One");
    expect(screen.queryByRole("button", { name: /Pause/ })).toBeNull();
  });

  it("Dismiss hides it and its box for the visit", async () => {
    const { container, unmount } = render(<SponsoredBanner ads={ads} />);
    fireEvent.click(screen.getByRole("button", { name: "Dismiss sponsored banner" }));
    expect(title()).toBeUndefined();
    expect(container.hidden).toBe(true);
    expect(sessionStorage.getItem(dismissedKey)).toBe("1");
    unmount();
    render(<SponsoredBanner ads={ads} />);
    expect(title()).toBeUndefined();
  });

  it("a failure is only logged", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    render(<SponsoredBanner ads={[null as unknown as Ad]} />);
    expect(title()).toBeUndefined();
    expect(log).toHaveBeenCalled();
  });

  it("mounts on the dashboard over its static card", async () => {
    await loadPage("/");
    const staticTitle = title();
    expect(staticTitle).toBeTruthy();
    await mountIsland("SponsoredBanner", SponsoredBanner);
    expect(title()).toBe(staticTitle);
    expect(screen.getByRole("button", { name: "Dismiss sponsored banner" })).toBeTruthy();
  });

  it("on a Hindi page marks the ad's own English text lang=en, not the translated controls", async () => {
    document.documentElement.lang = "hi";
    try {
      render(<SponsoredBanner ads={ads.slice(0, 1)} />);
      expect(document.querySelector("[data-ad-title]")!.getAttribute("lang")).toBe("en");
      expect(screen.getByText("About One").getAttribute("lang")).toBe("en");
      expect(screen.getByRole("link", { name: "Learn" }).getAttribute("lang")).toBe("en");
      for (const e of document.querySelectorAll('[lang="en"]')) expect(e.textContent).not.toMatch(/[\u0900-\u097F]/);
    } finally {
      document.documentElement.lang = "";
    }
  });

  it("on an English page marks nothing", async () => {
    render(<SponsoredBanner ads={ads.slice(0, 1)} />);
    expect(document.body.querySelector("[lang]")).toBeNull();
  });
});
