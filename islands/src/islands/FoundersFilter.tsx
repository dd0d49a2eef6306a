// /global-fintech: search by company name or founder and a category filter
// over the Indian and Global founder groups, with Clear Filters. A group
// with no match is hidden; 'No founders found' shows when both are empty.
import { useCallback } from "react";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import { useGroups } from "../lib/groups";
import type { Fields } from "../lib/match";
import { useQueryState } from "../lib/query-state";

const defaults = { q: "", category: "all" };
const keys = ["name", "founder"];

export default function FoundersFilter(props: { categories: string[] }) {
  const [state, set] = useQueryState(defaults);
  const indian = useStaticList("founders-indian");
  const global = useStaticList("founders-global");
  const filter = useCallback((f: Fields) => state.category === "all" || f.category === state.category, [state.category]);
  const im = useMatches(indian, keys, state.q, filter);
  const gm = useMatches(global, keys, state.q, filter);
  useShowList(indian, im);
  useShowList(global, gm);
  useGroups({ "founders-indian": im.length, "founders-global": gm.length }, "founders");
  const filtered = state.q !== "" || state.category !== "all";
  return (
    <Toolbar label="Filter founders">
      <SearchBox id="founder-search" label="Search founders" placeholder="Search by company name or founder..." value={state.q} onChange={(q) => set({ q })} />
      <SelectBox id="founder-category" label="Category" value={state.category} options={options("All Categories", props.categories)} onChange={(category) => set({ category })} />
      <Button onClick={() => set(defaults)} disabled={!filtered}>
        Clear Filters
      </Button>
    </Toolbar>
  );
}
