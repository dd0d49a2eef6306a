// Paging state kept in the URL as text ("ip=2"): read it as a page that
// exists for the list's current length, whatever the URL says.
import { pageCount } from "./static-list";

export function pageFrom(raw: string, n: number, size: number): number {
  const p = Number.parseInt(raw, 10);
  if (!Number.isFinite(p) || p < 1) return 1;
  return Math.min(p, pageCount(n, size));
}

// maxPageButtons is how many page numbers a pager shows around the current page.
export const maxPageButtons = 5;

// pageButtons are the page numbers to offer: up to max of them, the
// current one as central as the ends allow.
export function pageButtons(current: number, total: number, max = maxPageButtons): number[] {
  const n = Math.min(max, total);
  const first = Math.min(Math.max(1, current - Math.floor(n / 2)), total - n + 1);
  return Array.from({ length: n }, (_, i) => first + i);
}
