// The directory pages' free-text search: every case-insensitive
// substring match is always found, in the list's own order. When the text
// matches nothing exactly, fuse.js offers close (typo) matches, best
// first: adding them to exact hits too turned a correct "india" into
// India's laws plus every text with "individuals".
import type Fuse from "fuse.js";

export type Fields = Record<string, string | string[]>;

// FuseClass is fuse.js's constructor, passed in so the matcher stays
// synchronous and fuse.js can be loaded only once someone types.
export type FuseClass = typeof Fuse;

// fuzzyMinLength keeps one- and two-letter queries to exact matches, where
// fuzzy matching would match nearly everything.
export const fuzzyMinLength = 3;

const fold = (s: string) => s.toLocaleLowerCase();

function values(f: Fields, keys: string[]): string[] {
  const out: string[] = [];
  for (const k of keys) {
    const v = f[k];
    if (Array.isArray(v)) out.push(...v);
    else if (v) out.push(v);
  }
  return out;
}

// containsQuery reports whether any of the keys' values contains the query,
// ignoring case. An empty (or blank) query matches everything.
export function containsQuery(f: Fields, keys: string[], query: string): boolean {
  const q = fold(query.trim());
  if (q === "") return true;
  return values(f, keys).some((v) => fold(v).includes(q));
}

// search returns the indexes of the items matching the query: the substring
// matches in their original order or, when there are none, fuzzy matches.
export function search(items: Fields[], keys: string[], query: string, FuseCtor?: FuseClass): number[] {
  const q = query.trim();
  const exact: number[] = [];
  items.forEach((f, i) => {
    if (containsQuery(f, keys, q)) exact.push(i);
  });
  if (exact.length > 0 || !FuseCtor || q.length < fuzzyMinLength) return exact;
  const fuse = new FuseCtor(items, { keys, threshold: 0.3, ignoreLocation: true });
  return fuse.search(q).map((r) => r.refIndex);
}
