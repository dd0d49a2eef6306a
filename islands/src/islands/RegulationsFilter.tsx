// /pii-regulations: search over name, description and country, country and
// status filters, Clear Filters. The cards are the generator's.
import { useCallback } from "react";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import type { Fields } from "../lib/match";
import { useQueryState } from "../lib/query-state";

const defaults = { q: "", country: "all", status: "all" };
const keys = ["name", "description", "country"];

export default function RegulationsFilter(props: { countries: string[]; statuses: string[] }) {
  const [state, set] = useQueryState(defaults);
  const list = useStaticList("regulations");
  const filter = useCallback(
    (f: Fields) => (state.country === "all" || f.country === state.country) && (state.status === "all" || f.status === state.status),
    [state.country, state.status],
  );
  useShowList(list, useMatches(list, keys, state.q, filter));
  const filtered = state.q !== "" || state.country !== "all" || state.status !== "all";
  return (
    <Toolbar label="Filter regulations">
      <SearchBox id="regulation-search" label="Search regulations" placeholder="Search regulations..." value={state.q} onChange={(q) => set({ q })} />
      <SelectBox id="regulation-country" label="Country" value={state.country} options={options("All Countries", props.countries)} onChange={(country) => set({ country })} />
      <SelectBox
        id="regulation-status"
        label="Status"
        value={state.status}
        options={options("All Statuses", props.statuses, (s) => s[0].toUpperCase() + s.slice(1))}
        onChange={(status) => set({ status })}
      />
      <Button onClick={() => set(defaults)} disabled={!filtered}>
        Clear Filters
      </Button>
    </Toolbar>
  );
}
