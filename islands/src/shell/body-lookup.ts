// /payment-body/{body} matches the body's code without regard to case
// (codes are matched without regard to case). A static host serves the
// not-found page for /payment-body/Rbi; this sends the visitor on to the
// body's page. regpulse serve already redirects such paths itself.

import type { dataBodyLookup } from "../lib/contract";
import { pagePath } from "../lib/i18n";

// lib/contract.ts's name, checked by the type (see theme.ts).
const lookupAttr: typeof dataBodyLookup = "data-body-lookup";

// bodyPath returns the canonical path for a mis-cased body path, or null.
export function bodyPath(pathname: string, known: string[]): string | null {
  const m = /^\/payment-body\/([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  let code: string;
  try {
    code = decodeURIComponent(m[1]).toUpperCase();
  } catch {
    return null;
  }
  const slug = known.find((k) => k.toUpperCase() === code);
  return slug && slug !== m[1] ? `/payment-body/${slug}` : null;
}

export function initBodyLookup(doc: Document = document, go: (url: string) => void = (u) => location.replace(u)): void {
  const el = doc.querySelector(`[${lookupAttr}]`);
  if (!el) return;
  // a Hindi page's path without its /hi, and the body's page in Hindi
  const root = pagePath("/").slice(0, -1);
  const pathname = doc.location.pathname;
  const english = root && pathname.startsWith(root + "/") ? pathname.slice(root.length) : pathname;
  const url = bodyPath(english, (el.getAttribute(lookupAttr) ?? "").split(" ").filter(Boolean));
  if (url) go(pagePath(url) + doc.location.search + doc.location.hash);
}
