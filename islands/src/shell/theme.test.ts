import { afterEach, describe, expect, it, vi } from "vitest";
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

describe("initTheme", () => {
  afterEach(() => {
    localStorage.clear();
    document.body.innerHTML = "";
    document.documentElement.className = "";
  });

  it("stores the clicked choice, marks the button and follows the OS only in system", () => {
    document.body.innerHTML = `
      <button data-theme-choice="light">Light</button>
      <button data-theme-choice="dark">Dark</button>
      <button data-theme-choice="system">System</button>`;
    const media = fakeMedia(false);
    window.matchMedia = vi.fn().mockReturnValue(media as unknown as MediaQueryList);
    const stop = initTheme(document, window);
    const root = document.documentElement;
    expect(root.classList.contains("dark")).toBe(false);

    media.set(true); // system follows the OS
    expect(root.classList.contains("dark")).toBe(true);

    (document.querySelector('[data-theme-choice="light"]') as HTMLElement).click();
    expect(localStorage.getItem(THEME_KEY)).toBe("light");
    expect(root.classList.contains("dark")).toBe(false);
    expect(document.querySelector('[data-theme-choice="light"]')!.getAttribute("aria-pressed")).toBe("true");
    expect(document.querySelector('[data-theme-choice="system"]')!.getAttribute("aria-pressed")).toBe("false");

    media.set(false);
    media.set(true); // light ignores the OS
    expect(root.classList.contains("dark")).toBe(false);

    (document.querySelector('[data-theme-choice="dark"]') as HTMLElement).click();
    expect(root.classList.contains("dark")).toBe(true);
    expect(root.dataset.theme).toBe("dark");
    stop();
  });

  it("applyTheme sets the class from the choice", () => {
    applyTheme("dark", document.documentElement, false);
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    applyTheme("system", document.documentElement, false);
    expect(document.documentElement.classList.contains("dark")).toBe(false);
  });
});
