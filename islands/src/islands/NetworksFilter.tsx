// /payment-networks: search over name, description and guidelines; the
// quick-reference links set the search. ?filter=name (the sidebar's network
// links) pre-fills the search and names the page after the network until
// the visitor searches for something else. The cards are the generator's.
import { useEffect, useMemo, useState } from "react";
import { dataQuickSearch, sel } from "../lib/contract";
import { SearchBox, Toolbar } from "../lib/controls";
import strings from "../../../internal/i18n/strings/networks.json";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import { translator } from "../lib/i18n";
import { queryString, useQueryState } from "../lib/query-state";

const t = translator(strings);

const defaults = { q: "", filter: "" };
const keys = ["name", "description", "guidelines"];

// filterLabel spells a filter (a lowercase network name) the way
// the network spells its name: "american express" is "American Express",
// "upi" is "UPI" (of "UPI (NPCI)"). Other text gets capital initials.
export function filterLabel(filter: string, names: string[]): string {
  const f = filter.trim().toLowerCase();
  for (const name of names) {
    if (name.toLowerCase() === f) return name;
    const short = name.replace(/\s*\(.*\)$/, "");
    if (short.toLowerCase() === f) return short;
  }
  return f.replace(/(^|\s)\S/g, (c) => c.toUpperCase());
}

// titleFor is the page's heading: "{Filter} Payment Network"
// while a filter is set, the page's own title otherwise.
export function titleFor(filter: string, names: string[], pageTitle: string): string {
  return filter.trim() ? t("networks.filterTitle", { Name: filterLabel(filter, names) }) : pageTitle;
}

// prefill returns the query string with the filter copied into the search
// (q), or null when there is nothing to add: the URL then says what the
// page shows, and a reload shows it again.
export function prefill(search: string, names: string[]): string | null {
  const params = new URLSearchParams(search);
  const filter = params.get("filter")?.trim();
  if (!filter || params.has("q")) return null;
  return queryString(search, { q: filterLabel(filter, names) }, { q: "" });
}

// nameFirst puts the entries whose name contains the query before those
// that only mention it, each group in list order, so ?filter=visa shows
// Visa first and then the networks whose rules mention Visa.
export function nameFirst(order: number[], names: string[], query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return order;
  const named = order.filter((i) => names[i]?.toLowerCase().includes(q));
  return [...named, ...order.filter((i) => !named.includes(i))];
}

export default function NetworksFilter(props: { title: string; names: string[] }) {
  // Runs before useQueryState reads the URL.
  useState(() => {
    const qs = prefill(window.location.search, props.names);
    if (qs !== null) window.history.replaceState(window.history.state, "", window.location.pathname + qs + window.location.hash);
  });
  const [state, set] = useQueryState(defaults);
  const list = useStaticList("networks");
  const matches = useMatches(list, keys, state.q);
  const cardNames = useMemo(() => list.items.map((it) => String(it.fields.name ?? "")), [list]);
  useShowList(
    list,
    useMemo(() => nameFirst(matches, cardNames, state.q), [matches, cardNames, state.q]),
  );

  // A new search is no longer the filtered network's page.
  const search = (q: string) => set({ q, filter: "" });

  const title = titleFor(state.filter, props.names, props.title);
  useEffect(() => {
    const h1 = document.querySelector("main h1");
    if (h1) h1.textContent = title;
    const suffix = document.title.slice(document.title.lastIndexOf(" · "));
    document.title = suffix.startsWith(" · ") ? title + suffix : title;
  }, [title]);

  // Quick-reference links set the search instead of reloading the page
  // (a modified click still opens the link, e.g. in a new tab).
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.(`a${sel(dataQuickSearch)}`);
      if (!link) return;
      e.preventDefault();
      set({ q: link.getAttribute(dataQuickSearch) ?? "", filter: "" });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [set]);

  // Mark the quick-reference item that is the current search.
  useEffect(() => {
    const q = state.q.trim().toLowerCase();
    for (const a of document.querySelectorAll<HTMLElement>(`a${sel(dataQuickSearch)}`)) {
      if (q !== "" && a.getAttribute(dataQuickSearch)?.toLowerCase() === q) a.setAttribute("aria-current", "true");
      else a.removeAttribute("aria-current");
    }
  }, [state.q]);

  return (
    <Toolbar label={t("networks.searchLabel")}>
      <SearchBox
        id="network-search"
        label={t("networks.searchLabel")}
        placeholder={t("networks.searchPlaceholder")}
        value={state.q}
        onChange={search}
      />
    </Toolbar>
  );
}
