// Header search: goes to /search?q={trimmed text} (/hi/search on a Hindi
// page) only when the text is non-empty. Without JavaScript the form still submits to /search.

import type { dataHeaderSearch } from "../lib/contract";
import { pagePath } from "../lib/i18n";

// lib/contract.ts's name, checked by the type (see theme.ts).
const formAttr: typeof dataHeaderSearch = "data-header-search";

export function searchURL(text: string): string | null {
  const q = text.trim();
  return q === "" ? null : pagePath(`/search?q=${encodeURIComponent(q)}`);
}

export function initHeaderSearch(doc: Document = document, go: (url: string) => void = (u) => location.assign(u)): void {
  for (const form of doc.querySelectorAll<HTMLFormElement>(`form[${formAttr}]`)) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = form.elements.namedItem("q") as HTMLInputElement | null;
      const url = searchURL(input?.value ?? "");
      if (url) go(url);
      else input?.focus();
    });
  }
}
