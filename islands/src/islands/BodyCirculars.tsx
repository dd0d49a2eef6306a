// /payment-body/{body}: search (pre-filled with the body's code), sort and
// impact filter over the body's circulars. The API (GET /api/circulars)
// decides which circulars match and in what order; the island shows those
// of the page's static cards. Where no API answers (a static host without
// it), the search and impact filter run in the browser and the date order
// stays.
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { apiURL, listAll, type CircularSort, type Schemas } from "../lib/api";
import { dataEmpty, dataSkeleton, sel, setHidden, setHiddenAll } from "../lib/contract";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useDebounced, useMatches, useStaticList } from "../lib/directory";
import type { Fields } from "../lib/match";
import { withQuery } from "../lib/providers";
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
// beyond the first are followed (listAll).
type Props = { source: Schemas["Source"]; name: string; impactLevels: string[]; limit: number };
type State = { q: string; sort: string; filter: string };

// circularsQuery is the GET /api/circulars query of a state.
function circularsQuery(source: Schemas["Source"], limit: number, state: State) {
  return {
    source,
    limit,
    sort: state.sort as CircularSort,
    search: state.q.trim() || undefined,
    filter: state.filter !== "all" ? (state.filter as Schemas["ImpactLevel"]) : undefined,
  };
}

export function circularsURL(source: Schemas["Source"], limit: number, state: State): string {
  return apiURL("/circulars", { query: circularsQuery(source, limit, state) });
}

function BodyCirculars({ source, name, impactLevels, limit }: Props) {
  const defaults: State = { q: source, sort: "date", filter: "all" };
  const [state, set] = useQueryState(defaults);
  const list = useStaticList("body-circulars");
  const [offline, setOffline] = useState(false);
  const isDefault = state.q === defaults.q && state.sort === "date" && state.filter === "all";
  // What is asked of the API: the state, with the search once typing
  // pauses (the selects ask at once).
  const q = useDebounced(state.q, debounceMs);
  const asked = { ...state, q };
  const settled = q === state.q;

  // In-browser fallback when the API is unreachable.
  const filter = useCallback((f: Fields) => state.filter === "all" || f.impactLevel === state.filter, [state.filter]);
  const local = useMatches(list, keys, state.q, filter);

  // The static page already lists every circular newest first: nothing
  // to ask the API until the visitor changes something.
  const found = useQuery({
    queryKey: ["/circulars", "all", circularsQuery(source, limit, asked)],
    queryFn: ({ signal }) => listAll("/circulars", circularsQuery(source, limit, asked), signal),
    enabled: !offline && !isDefault && settled,
  });
  const loading = found.isFetching;

  useEffect(() => {
    if (offline) showList(document, list, local);
  }, [offline, list, local]);

  useEffect(() => {
    if (offline || loading) return;
    if (isDefault) {
      showList(document, list, list.items.map((_, i) => i));
      return;
    }
    if (!found.data) return;
    const index = new Map(list.items.map((it, i) => [it.fields.slug as string, i]));
    showList(
      document,
      list,
      found.data.map((c) => index.get(c.slug)).filter((i): i is number => i !== undefined),
    );
  }, [found.data, offline, loading, isDefault, list]);

  useEffect(() => {
    if (!found.error) return;
    console.error("circulars: the API did not answer; filtering in the browser", found.error);
    setOffline(true);
  }, [found.error]);

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

export default withQuery(BodyCirculars);
