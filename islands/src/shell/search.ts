// Header search: goes to /search?q={trimmed text} (/hi/search on a Hindi
// page) only when the text is non-empty. Without JavaScript the form still submits to /search.

import type { dataHeaderSearch } from "../lib/contract";

// lib/contract.ts's name, checked by the type (see theme.ts).
const formAttr: typeof dataHeaderSearch = "data-header-search";

// searchURL is the search page (action: the form's, which the generator
// writes in the page's language: /search, /hi/search) for text.
export function searchURL(text: string, action = "/search"): string | null {
  const q = text.trim();
  return q === "" ? null : `${action}?q=${encodeURIComponent(q)}`;
}

export function initHeaderSearch(doc: Document = document, go: (url: string) => void = (u) => location.assign(u)): void {
  for (const form of doc.querySelectorAll<HTMLFormElement>(`form[${formAttr}]`)) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = form.elements.namedItem("q") as HTMLInputElement | null;
      const url = searchURL(input?.value ?? "", form.getAttribute("action") ?? undefined);
      if (url) go(url);
      else input?.focus();
    });
  }
}
