// /pii-regulations: search over name, description and country, country and
// status filters, Clear Filters. The cards are the generator's.
import { useCallback } from "react";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import type { Fields } from "../lib/match";
import strings from "../../../internal/i18n/strings/privacy.json";
import { translator } from "../lib/i18n";
import { useQueryState } from "../lib/query-state";

const t = translator(strings);

const defaults = { q: "", country: "all", status: "all" };
const keys = ["name", "description", "country"];

// statusLabel is a status as the cards' badges and the overview name it.
function statusLabel(s: string): string {
  switch (s) {
    case "active":
      return t("privacy.statActive");
    case "draft":
      return t("privacy.statDraft");
    case "proposed":
      return t("privacy.statProposed");
  }
  return s[0].toUpperCase() + s.slice(1);
}

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
    <Toolbar label={t("privacy.filterLabel")}>
      <SearchBox id="regulation-search" label={t("privacy.searchLabel")} placeholder={t("privacy.searchPlaceholder")} value={state.q} onChange={(q) => set({ q })} />
      <SelectBox id="regulation-country" label={t("privacy.country")} value={state.country} options={options(t("privacy.allCountries"), props.countries)} onChange={(country) => set({ country })} />
      <SelectBox
        id="regulation-status"
        label={t("privacy.status")}
        value={state.status}
        options={options(t("privacy.allStatuses"), props.statuses, statusLabel)}
        onChange={(status) => set({ status })}
      />
      <Button onClick={() => set(defaults)} disabled={!filtered}>
        {t("privacy.clearFilters")}
      </Button>
    </Toolbar>
  );
}
