// /payment-body/{body}: search (pre-filled with the body's code), sort and
// impact filter over the body's circulars. The API (GET /api/circulars)
// decides which circulars match and in what order; the island shows them a
// page at a time (lib/api-list.tsx) in place of the pre-rendered page
// (/payment-body/rbi/page/2…), which is the list while nothing is changed.
// Where no API answers (a static host without it), the search and impact
// filter run in the browser over this page's cards and the date order
// stays.
import { useCallback, useEffect, useState } from "react";
import { apiURL, type CircularSort, type Schemas } from "../lib/api";
import { ApiCirculars, useCircularsPage } from "../lib/api-list";
import type { CardLabels } from "../lib/circular-card";
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
type Props = { source: Schemas["Source"]; name: string; impactLevels: string[]; limit: number; labels: CardLabels };
type State = { q: string; sort: string; filter: string; page: string };

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
  return apiURL("/circulars", circularsQuery(source, limit, state));
}

function BodyCirculars({ source, name, impactLevels, limit, labels }: Props) {
  const defaults: State = { q: source, sort: "date", filter: "all", page: "1" };
  const [state, set] = useQueryState(defaults);
  const list = useStaticList("body-circulars");
  const [offline, setOffline] = useState(false);
  const isDefault = state.q === defaults.q && state.sort === "date" && state.filter === "all" && state.page === "1";
  // What is asked of the API: the state, with the search once typing
  // pauses (the selects ask at once).
  const q = useDebounced(state.q, debounceMs);
  const asked = { ...state, q };
  const settled = q === state.q;

  // In-browser fallback when the API is unreachable.
  const filter = useCallback((f: Fields) => state.filter === "all" || f.impactLevel === state.filter, [state.filter]);
  const local = useMatches(list, keys, state.q, filter);

  // The static page already lists the circulars newest first: nothing
  // to ask the API until the visitor changes something.
  const page = Math.max(1, Number.parseInt(state.page, 10) || 1);
  const { limit: _, ...filters } = circularsQuery(source, limit, asked);
  const found = useCircularsPage(filters, page, limit, !offline && !isDefault && settled);

  useEffect(() => {
    if (offline) showList(document, list, local);
  }, [offline, list, local]);

  useEffect(() => {
    if (!found.error) return;
    console.error("circulars: the API did not answer; filtering in the browser", found.error);
    setOffline(true);
  }, [found.error]);

  return (
    <div>
      <Toolbar label={`Search ${source} circulars`}>
        <SearchBox id="body-circular-search" label={`Search ${source} circulars`} placeholder="Search circulars..." value={state.q} onChange={(q) => set({ q, page: "1" })} />
        <SelectBox id="body-circular-sort" label="Sort by" value={state.sort} options={sorts} onChange={(sort) => set({ sort, page: "1" })} />
        <SelectBox
          id="body-circular-filter"
          label="Impact level"
          value={state.filter}
          options={options("All Impact Levels", impactLevels, (l) => `${l[0].toUpperCase()}${l.slice(1)} Impact`)}
          onChange={(filter) => set({ filter, page: "1" })}
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
      {!offline && !isDefault && (
        <ApiCirculars
          name="body-circulars"
          answer={settled ? found.data : undefined}
          loading={found.isFetching || !settled}
          page={page}
          size={limit}
          labels={labels}
          href={(n) => {
            const u = new URLSearchParams(location.search);
            u.set("page", String(n));
            return `?${u.toString()}`;
          }}
          onPage={(n) => set({ page: String(n) })}
        />
      )}
    </div>
  );
}

export default withQuery(BodyCirculars);
