// /fintech-leaders: one search over both lists (company, person, founders,
// category), and a pager under each list that has more than one page of
// 12. The page of each list is in the URL (ip, gp); a new search starts
// both lists again at page 1. The cards and their order are the
// generator's.
import { useState } from "react";
import { createPortal } from "react-dom";
import { dataPager, sel } from "../lib/contract";
import { Pager, SearchBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import { useGroups } from "../lib/groups";
import { pageFrom } from "../lib/paging";
import strings from "../../../internal/i18n/strings/leaders.json";
import { translator } from "../lib/i18n";
import { useQueryState } from "../lib/query-state";
import { pageCount } from "../lib/static-list";

export const pageSize = 12;
const defaults = { q: "", ip: "1", gp: "1" };
const keys = ["name", "person", "founder", "category"];
const t = translator(strings);

export default function LeadersFilter() {
  const [state, set] = useQueryState(defaults);
  const indian = useStaticList("leaders-indian");
  const global = useStaticList("leaders-global");
  const im = useMatches(indian, keys, state.q);
  const gm = useMatches(global, keys, state.q);
  const ip = pageFrom(state.ip, im.length, pageSize);
  const gp = pageFrom(state.gp, gm.length, pageSize);
  useShowList(indian, im, ip, pageSize);
  useShowList(global, gm, gp, pageSize);
  useGroups({ "leaders-indian": im.length, "leaders-global": gm.length }, "leaders");
  return (
    <>
      <Toolbar label={t("leaders.searchLabel")}>
        <SearchBox
          id="leader-search"
          label={t("leaders.searchLabel")}
          placeholder={t("leaders.searchPlaceholder")}
          value={state.q}
          onChange={(q) => set({ q, ip: "1", gp: "1" })}
        />
      </Toolbar>
      <ListPager list="leaders-indian" label={t("leaders.indianPager")} page={ip} n={im.length} onPage={(p) => set({ ip: String(p) })} />
      <ListPager list="leaders-global" label={t("leaders.globalPager")} page={gp} n={gm.length} onPage={(p) => set({ gp: String(p) })} />
    </>
  );
}

// ListPager renders a list's Pager into the page's data-pager slot below
// that list, only when there is more than one page; after a page change
// it brings the list's top into view (the buttons sit at its bottom).
function ListPager(props: { list: string; label: string; page: number; n: number; onPage: (p: number) => void }) {
  const [slot] = useState(() => document.querySelector<HTMLElement>(sel(dataPager, props.list)));
  const pages = pageCount(props.n, pageSize);
  if (!slot || pages <= 1) return null;
  const go = (p: number) => {
    props.onPage(p);
    slot.closest("section")?.scrollIntoView?.({ block: "start" });
  };
  return createPortal(<Pager page={props.page} pages={pages} label={props.label} onPage={go} />, slot);
}
