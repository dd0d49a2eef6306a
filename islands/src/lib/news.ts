// The /news page's two views: with no search and every category, the two
// "Top 5" blocks; otherwise the flat results list. Both are the
// generator's HTML (templates/news.html); this only switches them.
import strings from "../../../internal/i18n/strings/news.json";
import { dataNewsHeading, dataNewsResults, dataNewsTop, sel, setHiddenAll } from "./contract";
import { translator } from "./i18n";
import { formatCount } from "./numbers";

const t = translator(strings);

export type NewsFilter = { q: string; category: string };

export const isFiltered = (f: NewsFilter) => f.q.trim() !== "" || f.category !== "all";

// searching is the results' heading while the filter's answer is still on
// its way: a count before the answer would be a claim the answer can belie.
export const searching = (): string => t("news.searching");

export function resultsHeading(n: number): string {
  return t("news.resultsHeading", { Count: n, N: formatCount(n) });
}

// showNewsView shows the top blocks or the results list, and the results'
// heading for n matches when filtered (searching while n is undefined: the
// answer is not in yet).
export function showNewsView(root: ParentNode, list: boolean, n: number | undefined, filtered = list) {
  setHiddenAll(root, sel(dataNewsTop), list);
  setHiddenAll(root, sel(dataNewsResults), !list);
  if (filtered) for (const el of root.querySelectorAll<HTMLElement>(sel(dataNewsHeading))) el.textContent = n === undefined ? searching() : resultsHeading(n);
}
