// A dashboard list (Recent Circulars or Latest Fintech News): Load More
// (+step, gone once more than hideAbove show) and, for the circulars, the
// All / RBI / NPCI / SEBI buttons, which reset the count and keep the
// choice in the URL (?source=). The cards are the generator's; this island
// only hides and shows them (lib/static-list.ts) and keeps the Quick
// Access downloads on the same filter.
import { useEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";
import { dataExport, dataLoadMore, sel } from "../lib/contract";
import { canLoadMore, exportHref, matching, type ListRules } from "../lib/dashboard-list";
import { useQueryState } from "../lib/query-state";
import { readList, showList } from "../lib/static-list";

type Props = ListRules & {
  list: string;
  noun: string; // "circulars", "news": the button's and status's word
  sources?: string[]; // the filter buttons besides All; none: no filter
};

const pressed = "border-brand-700 bg-brand-700 text-white";
const unpressed = "border-slate-300 bg-white text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

export default function DashboardList({ list, noun, sources, pageSize, step, hideAbove }: Props) {
  const rules = { pageSize, step, hideAbove };
  const [staticList] = useState(() => readList(document, list));
  // The Load More slot holds a link for readers without JavaScript; the
  // button replaces it.
  const [slot] = useState(() => {
    const el = document.querySelector<HTMLElement>(sel(dataLoadMore, list));
    el?.replaceChildren();
    return el;
  });
  const [query, setQuery] = useQueryState({ source: "" });
  const source = sources && sources.includes(query.source) ? query.source : "";
  const [count, setCount] = useState(pageSize);
  const order = useMemo(() => matching(staticList.items, source), [staticList, source]);
  const shown = Math.min(count, order.length);

  // The page already shows the first pageSize of All: mounting on it
  // moves no card (moving them all would cost a style pass on the first
  // screen).
  useEffect(() => {
    const { items } = staticList;
    const inPlace = order.length === items.length && items.every((it, i) => it.el.hidden === i >= shown);
    if (!inPlace) showList(document, staticList, order.slice(0, shown));
  }, [staticList, order, shown]);

  useEffect(() => {
    if (!sources) return;
    for (const a of document.querySelectorAll<HTMLAnchorElement>(sel(dataExport))) {
      a.href = exportHref(a.getAttribute(dataExport) ?? "csv", source);
    }
  }, [sources, source]);

  const choose = (s: string) => {
    setQuery({ source: s });
    setCount(pageSize);
  };

  const more = canLoadMore(shown, order.length, rules) && (
    <button
      type="button"
      aria-label={`Load More ${noun}`}
      onClick={() => setCount((n) => n + step)}
      className="inline-flex min-h-11 items-center justify-center rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      Load More
    </button>
  );

  return (
    <>
      {sources && (
        <div role="group" aria-label="Filter circulars by source" className="flex flex-wrap gap-1">
          {["", ...sources].map((s) => (
            <button
              key={s || "All"}
              type="button"
              aria-pressed={s === source}
              onClick={() => choose(s)}
              className={`min-h-11 min-w-11 rounded-md border px-3 text-sm font-medium ${s === source ? pressed : unpressed}`}
            >
              {s || "All"}
            </button>
          ))}
        </div>
      )}
      {slot &&
        createPortal(
          <>
            {more}
            <p className="sr-only" role="status">
              {`Showing ${shown} of ${order.length} ${noun}`}
            </p>
          </>,
          slot,
        )}
    </>
  );
}
