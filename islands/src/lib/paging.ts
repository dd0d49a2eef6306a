// Paging state kept in the URL as text ("ip=2"): read it as a page that
// exists for the list's current length, whatever the URL says.
import { pageCount } from "./static-list";

export function pageFrom(raw: string, n: number, size: number): number {
  const p = Number.parseInt(raw, 10);
  if (!Number.isFinite(p) || p < 1) return 1;
  return Math.min(p, pageCount(n, size));
}
