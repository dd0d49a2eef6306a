// /payment-body/{body}: search (pre-filled with the body's code), sort and
// impact filter over the body's circulars. The API (GET /api/circulars)
// decides which circulars match and in what order; the island shows those
// of the page's static cards. Where no API answers (a static host without
// it), the search and impact filter run in the browser and the date order
// stays.
import { useCallback, useEffect, useState } from "react";
import { getList, type Circular, type CircularSort } from "../lib/api";
import { dataEmpty, dataSkeleton, sel, setHidden, setHiddenAll } from "../lib/contract";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useMatches, useStaticList } from "../lib/directory";
import type { Fields } from "../lib/match";
import { useQueryState } from "../lib/query-state";
import { showList } from "../lib/static-list";

// sortLabels names every sort the API knows (the type fails to compile
// when Go adds one), in the order the select offers them.
const sortLabels: Record<CircularSort, string> = { date: "Latest First", relevance: "Most Relevant", impact: "Impact Level" };
const sorts = Object.entries(sortLabels).map(([value, label]) => ({ value, label }));
const keys = ["circularNumber", "title", "content", "source", "category"];
// debounceMs keeps typing from sending a request per key.
const debounceMs = 250;

// limit is the API's page size cap (from Go, through the page); pages
// beyond the first are followed (getList).
type Props = { source: string; name: string; impactLevels: string[]; limit: number };

export function circularsURL(source: string, limit: number, state: { q: string; sort: string; filter: string }): string {
  const p = new URLSearchParams({ source, limit: String(limit), sort: state.sort });
  if (state.q.trim()) p.set("search", state.q.trim());
  if (state.filter !== "all") p.set("filter", state.filter);
  return `/api/circulars?${p}`;
}

export default function BodyCirculars({ source, name, impactLevels, limit }: Props) {
  const defaults = { q: source, sort: "date", filter: "all" };
  const [state, set] = useQueryState(defaults);
  const list = useStaticList("body-circulars");
  const [loading, setLoading] = useState(false);
  const [offline, setOffline] = useState(false);
  const isDefault = state.q === defaults.q && state.sort === "date" && state.filter === "all";

  // In-browser fallback when the API is unreachable.
  const filter = useCallback((f: Fields) => state.filter === "all" || f.impactLevel === state.filter, [state.filter]);
  const local = useMatches(list, keys, state.q, filter);

  useEffect(() => {
    if (offline) showList(document, list, local);
  }, [offline, list, local]);

  useEffect(() => {
    if (offline) return;
    // The static page already lists every circular newest first: nothing
    // to ask the API until the visitor changes something.
    if (isDefault) {
      showList(document, list, list.items.map((_, i) => i));
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(async () => {
      setLoading(true);
      try {
        const found = await getList<Circular>(circularsURL(source, limit, state), ctl.signal);
        const index = new Map(list.items.map((it, i) => [it.fields.slug as string, i]));
        showList(
          document,
          list,
          found.map((c) => index.get(c.slug)).filter((i): i is number => i !== undefined),
        );
      } catch (err) {
        if (ctl.signal.aborted) return;
        console.error("circulars: the API did not answer; filtering in the browser", err);
        setOffline(true);
      } finally {
        if (!ctl.signal.aborted) setLoading(false);
      }
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [state, offline, isDefault, list, source, limit]);

  // While a request runs the old results are hidden behind skeletons;
  // afterwards showList has set what shows.
  useEffect(() => {
    if (!loading) return;
    if (list.container) setHidden(list.container, true);
    setHiddenAll(document, sel(dataEmpty, "body-circulars"), true);
  }, [loading, list]);

  return (
    <div>
      <Toolbar label={`Search ${source} circulars`}>
        <SearchBox id="body-circular-search" label={`Search ${source} circulars`} placeholder="Search circulars..." value={state.q} onChange={(q) => set({ q })} />
        <SelectBox id="body-circular-sort" label="Sort by" value={state.sort} options={sorts} onChange={(sort) => set({ sort })} />
        <SelectBox
          id="body-circular-filter"
          label="Impact level"
          value={state.filter}
          options={options("All Impact Levels", impactLevels, (l) => `${l[0].toUpperCase()}${l.slice(1)} Impact`)}
          onChange={(filter) => set({ filter })}
        />
        <Button onClick={() => set(defaults)} disabled={isDefault}>
          Reset
        </Button>
      </Toolbar>
      {offline && (
        <p role="status" className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          Live sorting is unavailable right now; showing {name} circulars newest first, filtered on this page.
        </p>
      )}
      {loading && (
        <div className="mt-3 grid gap-3" aria-busy="true" aria-label="Loading circulars">
          {[0, 1, 2].map((i) => (
            <div key={i} {...{ [dataSkeleton]: "" }} className="h-32 animate-pulse rounded-lg border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-800" />
          ))}
        </div>
      )}
    </div>
  );
}
