// /global-fintech: search by company name or founder and a category filter
// over the Indian and Global founder groups, with Clear Filters. A group
// with no match is hidden; 'No founders found' shows when both are empty.
import { useCallback } from "react";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import { useGroups } from "../lib/groups";
import type { Fields } from "../lib/match";
import strings from "../../../internal/i18n/strings/founders.json";
import { translator } from "../lib/i18n";
import { useQueryState } from "../lib/query-state";

const t = translator(strings);

const defaults = { q: "", category: "all" };
const keys = ["name", "founder"];

// categoryNames are the categories' names that differ from their values
// (a Hindi page's); the others show as their values.
export default function FoundersFilter(props: { categories: string[]; categoryNames?: Record<string, string> }) {
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
    <Toolbar label={t("founders.filterLabel")}>
      <SearchBox id="founder-search" label={t("founders.searchLabel")} placeholder={t("founders.searchPlaceholder")} value={state.q} onChange={(q) => set({ q })} />
      <SelectBox id="founder-category" label={t("founders.category")} value={state.category} options={options(t("founders.allCategories"), props.categories, (c) => props.categoryNames?.[c] ?? c)} onChange={(category) => set({ category })} />
      <Button onClick={() => set(defaults)} disabled={!filtered}>
        {t("founders.clearFilters")}
      </Button>
    </Toolbar>
  );
}
