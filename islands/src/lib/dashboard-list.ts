// The dashboard's lists (Recent Circulars, Latest Fintech News): the page
// draws every item the list can show, the first pageSize visible; these
// rules pick which are shown for a source filter and a count. The numbers
// (pageSize, step, hideAbove) are the generator's (internal/dashboard),
// given as props, never restated here.
import type { StaticItem } from "./static-list";

export type ListRules = { pageSize: number; step: number; hideAbove: number };

// matching are the indexes of the items of source ("" is every source),
// in page order.
export function matching(items: StaticItem[], source: string): number[] {
  const out: number[] = [];
  items.forEach((it, i) => {
    if (!source || it.fields.source === source) out.push(i);
  });
  return out;
}

// canLoadMore: the Load More button shows while no more than hideAbove
// items are shown and more match.
export function canLoadMore(shown: number, total: number, rules: ListRules): boolean {
  return shown <= rules.hideAbove && total > shown;
}

// exportHref is a bulk download's URL for a source filter.
export function exportHref(format: string, source: string): string {
  const base = `/api/circulars.${format}`;
  return source ? `${base}?source=${encodeURIComponent(source)}` : base;
}
