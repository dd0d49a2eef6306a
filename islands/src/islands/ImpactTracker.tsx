// /impact-tracker: one search over the entity cards (type and name) and
// the three circular lists (number, title, id and slug), with Clear. The
// cards, their scores, bands and counts are the generator's.
//
// The page shows the first page of each list. When a list runs beyond it,
// the page names the generator's entries of every list (entries), which
// the island reads once someone searches: the search then covers the
// whole list, and the matches are drawn in the list's data-api-list slot
// while its static first page hides.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";
import strings from "../../../internal/i18n/strings/impact.json";
import type { CardLabels } from "../lib/circular-card";
import { dataApiList, dataHeading, sel, setHidden } from "../lib/contract";
import { Button, SearchBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import { ImpactCircular, impactFields, type ImpactEntries, type ImpactEntry } from "../lib/impact-circular";
import { entitiesHeading } from "../lib/impact-tracker";
import { fuzzyMinLength, search } from "../lib/match";
import { withQuery } from "../lib/providers";
import { fetchBuilt } from "../lib/query";
import { useQueryState } from "../lib/query-state";
import { showCount, showList } from "../lib/static-list";
import { useFuse } from "../lib/use-fuse";
import { formatCount } from "../lib/numbers";
import { translator } from "../lib/i18n";

const t = translator(strings);

const defaults = { q: "" };
const entityKeys = ["type", "name"];
const circularKeys = ["circularNumber", "title", "id", "slug"];
const levels = ["high", "medium", "open"];

type Props = {
  entries?: string; // every entry of the lists (generator.ImpactEntriesPath); absent while each fits on the page
  labels?: CardLabels; // the cards' labels, with entries
  pageSize?: number; // how many matches to draw at a time, with entries
};

function ImpactTracker({ entries = "", labels, pageSize = 30 }: Props) {
  const [state, set] = useQueryState(defaults);
  const entities = useStaticList("entities");
  useShowList(entities, useMatches(entities, entityKeys, state.q));
  const searching = state.q.trim() !== "";
  const all = useQuery({
    queryKey: ["impact-entries", entries],
    queryFn: ({ signal }) => fetchBuilt<ImpactEntries>(entries, signal),
    enabled: entries !== "" && searching,
  });

  useEffect(() => {
    if (all.error) console.error("impact tracker: the lists' entries did not load; the search covers the first page", all.error);
  }, [all.error]);

  useEffect(() => {
    for (const el of document.querySelectorAll<HTMLElement>(sel(dataHeading, "entities"))) el.textContent = entitiesHeading(state.q);
  }, [state.q]);

  return (
    <>
      <Toolbar label={t("impact.searchTracker")}>
        <SearchBox
          id="impact-search"
          label={t("impact.searchLabel")}
          placeholder={t("impact.searchPlaceholder")}
          value={state.q}
          onChange={(q) => set({ q })}
        />
        <Button onClick={() => set(defaults)} disabled={state.q === ""}>
          {t("impact.clear")}
        </Button>
      </Toolbar>
      {levels.map((level) => (
        <TrackerList key={level} level={level} query={state.q} all={searching && labels ? all.data?.[level] : undefined} labels={labels} pageSize={pageSize} />
      ))}
    </>
  );
}

// TrackerList searches one list: its static first page, or, once every
// entry is in (all) and the page has the list's slot, all of them.
function TrackerList({ level, query, all, labels, pageSize }: { level: string; query: string; all?: ImpactEntry[]; labels?: CardLabels; pageSize: number }) {
  const name = `${level}-circulars`;
  const list = useStaticList(name);
  const firstPage = useMatches(list, circularKeys, query);
  const [slot] = useState(() => document.querySelector<HTMLElement>(sel(dataApiList, name)));
  const whole = all !== undefined && slot !== null;
  const Fuse = useFuse(whole && query.trim().length >= fuzzyMinLength);
  const found = useMemo(
    () => (whole ? search(all.map(impactFields), circularKeys, query, Fuse).map((i) => all[i]) : []),
    [whole, all, query, Fuse],
  );
  // how many matches show: a page, and a page more at each Show more
  const [limit, setLimit] = useState({ query, n: pageSize });
  const n = limit.query === query ? limit.n : pageSize;

  useEffect(() => {
    if (!whole) {
      showList(document, list, firstPage);
      return;
    }
    if (list.container) setHidden(list.container, true);
    showCount(document, name, found.length);
  }, [whole, list, firstPage, found, name]);

  if (!whole || found.length === 0) return null;
  return createPortal(
    <>
      <ul className="grid gap-3 lg:grid-cols-2">
        {found.slice(0, n).map((c) => (
          <ImpactCircular key={c.id} c={c} labels={labels!} />
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-slate-700 dark:text-slate-300">
        <p role="status">{t("impact.showingMatches", { Shown: formatCount(Math.min(n, found.length)), Total: formatCount(found.length) })}</p>
        {found.length > n && <Button onClick={() => setLimit({ query, n: n + pageSize })}>{t("impact.showMore")}</Button>}
      </div>
    </>,
    slot,
  );
}

export default withQuery(ImpactTracker);
