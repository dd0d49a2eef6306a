// /payment-body/{body} matches the body's code without regard to case
// (codes are matched without regard to case). A static host serves the
// not-found page for /payment-body/Rbi; this sends the visitor on to the
// body's page. regpulse serve already redirects such paths itself.

import type { dataBodyLookup } from "../lib/contract";

// lib/contract.ts's name, checked by the type (see theme.ts).
const lookupAttr: typeof dataBodyLookup = "data-body-lookup";

// bodyPath returns the canonical path for a mis-cased body path, or null.
// What comes before /payment-body/ (a language's root: /hi) is kept, so
// the shell needs no rule of the site's languages.
export function bodyPath(pathname: string, known: string[]): string | null {
  const m = /^((?:\/[^/]+)?)\/payment-body\/([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  let code: string;
  try {
    code = decodeURIComponent(m[2]).toUpperCase();
  } catch {
    return null;
  }
  const slug = known.find((k) => k.toUpperCase() === code);
  return slug && slug !== m[2] ? `${m[1]}/payment-body/${slug}` : null;
}

export function initBodyLookup(doc: Document = document, go: (url: string) => void = (u) => location.replace(u)): void {
  const el = doc.querySelector(`[${lookupAttr}]`);
  if (!el) return;
  const url = bodyPath(doc.location.pathname, (el.getAttribute(lookupAttr) ?? "").split(" ").filter(Boolean));
  if (url) go(url + doc.location.search + doc.location.hash);
}
