// The dashboard's lists (Recent Circulars, Latest Fintech News): the page
// draws the first pageSize; these rules say when Load More shows. The
// numbers (pageSize, step, hideAbove) are the generator's
// (internal/dashboard), given as props, never restated here.
export type ListRules = { pageSize: number; step: number; hideAbove: number };

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
