// Theme choice: kept in localStorage under a product key, with "system"
// (the default) following the OS. templates/_partials/theme-init.html
// applies the stored choice before first paint with the same rule; this
// module keeps it right afterwards and drives the switcher buttons.

import type { dataTheme, dataThemeChoice } from "../lib/contract";

// The attribute names are lib/contract.ts's: the type ties each literal to
// it (tsc fails if they differ) without importing it, so the shell stays one
// file that shares no chunk with the islands.
const themeAttr: typeof dataTheme = "data-theme";
const choiceAttr: typeof dataThemeChoice = "data-theme-choice";

export const THEME_KEY = "regpulse-theme";
export type Theme = "light" | "dark" | "system";
const THEMES: readonly Theme[] = ["light", "dark", "system"];

export function readTheme(storage: Storage = localStorage): Theme {
  try {
    const v = storage.getItem(THEME_KEY);
    return THEMES.includes(v as Theme) ? (v as Theme) : "system";
  } catch {
    return "system"; // storage disabled: fall back to the OS
  }
}

export function isDark(theme: Theme, systemDark: boolean): boolean {
  return theme === "dark" || (theme === "system" && systemDark);
}

export function applyTheme(theme: Theme, root: HTMLElement, systemDark: boolean): void {
  root.classList.toggle("dark", isDark(theme, systemDark));
  root.setAttribute(themeAttr, theme);
  for (const b of root.ownerDocument.querySelectorAll<HTMLButtonElement>(`[${choiceAttr}]`)) {
    b.setAttribute("aria-pressed", String(b.getAttribute(choiceAttr) === theme));
  }
}

// initTheme wires the switcher buttons and follows the OS while "system"
// is chosen. It returns a function that removes the listeners (for tests).
export function initTheme(doc: Document = document, win: Window = window): () => void {
  const media = win.matchMedia("(prefers-color-scheme: dark)");
  const root = doc.documentElement;
  let theme = readTheme(win.localStorage);
  applyTheme(theme, root, media.matches);

  const onMedia = () => applyTheme(theme, root, media.matches);
  media.addEventListener("change", onMedia);

  const onClick = (e: Event) => {
    const btn = (e.target as Element | null)?.closest<HTMLElement>(`[${choiceAttr}]`);
    if (!btn) return;
    theme = btn.getAttribute(choiceAttr) as Theme;
    try {
      win.localStorage.setItem(THEME_KEY, theme);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
    applyTheme(theme, root, media.matches);
  };
  doc.addEventListener("click", onClick);

  // Another tab changed the theme.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== THEME_KEY) return;
    theme = readTheme(win.localStorage);
    applyTheme(theme, root, media.matches);
  };
  win.addEventListener("storage", onStorage);

  return () => {
    media.removeEventListener("change", onMedia);
    doc.removeEventListener("click", onClick);
    win.removeEventListener("storage", onStorage);
  };
}
