import { afterEach, describe, expect, it, vi } from "vitest";
import { dataTheme, dataThemeChoice, sel } from "../lib/contract";
import { loadPage, resetPage } from "../test/fixture";
import { THEME_KEY, applyTheme, initTheme, isDark, readTheme } from "./theme";

function fakeMedia(matches: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches,
    addEventListener: (_: string, f: () => void) => listeners.add(f),
    removeEventListener: (_: string, f: () => void) => listeners.delete(f),
    set(v: boolean) {
      media.matches = v;
      listeners.forEach((f) => f());
    },
  };
  return media;
}

describe("readTheme", () => {
  afterEach(() => localStorage.clear());
  it.each([
    [null, "system"],
    ["light", "light"],
    ["dark", "dark"],
    ["system", "system"],
    ["purple", "system"],
  ])("stored %s reads as %s", (stored, want) => {
    if (stored !== null) localStorage.setItem(THEME_KEY, stored);
    expect(readTheme()).toBe(want);
  });
});

describe("isDark", () => {
  it.each([
    ["light", false, false],
    ["light", true, false],
    ["dark", false, true],
    ["system", true, true],
    ["system", false, false],
  ] as const)("%s with system dark %s is %s", (theme, sys, want) => {
    expect(isDark(theme, sys)).toBe(want);
  });
});

// The theme buttons of the fixture site's header (templates/_partials/header.html).
describe("initTheme", () => {
  afterEach(() => {
    localStorage.clear();
    resetPage();
    document.documentElement.className = "";
    document.documentElement.removeAttribute(dataTheme);
  });
  const button = (theme: string) => document.querySelector<HTMLElement>(sel(dataThemeChoice, theme))!;

  it("stores the clicked choice, marks the button and follows the OS only in system", async () => {
    await loadPage("/");
    const media = fakeMedia(false);
    window.matchMedia = vi.fn().mockReturnValue(media as unknown as MediaQueryList);
    const stop = initTheme(document, window);
    const root = document.documentElement;
    expect(root.classList.contains("dark")).toBe(false);

    media.set(true); // system follows the OS
    expect(root.classList.contains("dark")).toBe(true);

    button("light").click();
    expect(localStorage.getItem(THEME_KEY)).toBe("light");
    expect(root.classList.contains("dark")).toBe(false);
    expect(button("light").getAttribute("aria-pressed")).toBe("true");
    expect(button("system").getAttribute("aria-pressed")).toBe("false");

    media.set(false);
    media.set(true); // light ignores the OS
    expect(root.classList.contains("dark")).toBe(false);

    button("dark").click();
    expect(root.classList.contains("dark")).toBe(true);
    expect(root.getAttribute(dataTheme)).toBe("dark");
    expect(button("dark").getAttribute("aria-pressed")).toBe("true");
    stop();
  });

  it("applyTheme sets the class from the choice", () => {
    applyTheme("dark", document.documentElement, false);
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    applyTheme("system", document.documentElement, false);
    expect(document.documentElement.classList.contains("dark")).toBe(false);
  });
});
