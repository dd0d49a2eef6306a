// /news: search over title, excerpt and category, a category filter and
// Clear Filters; unfiltered, the page shows its two "Top 5" blocks,
// filtered, the flat results list. Also fills in each card's relative age.
// The cards are the generator's.
import { useCallback, useEffect, useMemo } from "react";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import type { Fields } from "../lib/match";
import { isFiltered, showNewsView } from "../lib/news";
import { useQueryState } from "../lib/query-state";
import { fillAges } from "../lib/relative-age";

const defaults = { q: "", category: "all" };
const keys = ["title", "excerpt", "category"];

export default function NewsFilter(props: { categories: string[] }) {
  const [state, set] = useQueryState(defaults);
  const list = useStaticList("news");
  const filter = useCallback((f: Fields) => state.category === "all" || f.category === state.category, [state.category]);
  const matches = useMatches(list, keys, state.q, filter);
  useShowList(list, matches);
  const filtered = isFiltered(state);
  useEffect(() => showNewsView(document, filtered, matches.length), [filtered, matches]);
  useEffect(() => fillAges(document, new Date()), []);
  const categories = useMemo(() => options("All Categories", props.categories), [props.categories]);
  return (
    <Toolbar label="Filter news">
      <SearchBox id="news-search" label="Search news" placeholder="Search news..." value={state.q} onChange={(q) => set({ q })} />
      <SelectBox id="news-category" label="Category" value={state.category} options={categories} onChange={(category) => set({ category })} />
      <Button onClick={() => set(defaults)} disabled={!filtered}>
        Clear Filters
      </Button>
    </Toolbar>
  );
}
