// A dashboard list (Recent Circulars or Latest Fintech News): Load More
// (+step, gone once more than hideAbove show) and, for the circulars, the
// All / RBI / NPCI / SEBI buttons, which reset the count and keep the
// choice in the URL (?source=). The page draws only the first screen (the
// newest pageSize, as of the build); any other view (more, or a source) is
// asked of the API (GET /api/circulars or /api/news, limit = the count)
// and drawn in the list's data-api-list slot while the static cards hide.
// The Quick Access downloads follow the source.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import dashboardStrings from "../../../internal/i18n/strings/dashboard.json";
import listStrings from "../../../internal/i18n/strings/list.json";
import { answered, api, type Schemas } from "../lib/api";
import type { CardLabels } from "../lib/circular-card";
import { dataApiList, dataExport, dataList, dataLoadMore, sel, setHidden } from "../lib/contract";
import { canLoadMore, exportHref, type ListRules } from "../lib/dashboard-list";

// the cards' code loads with the first answer to draw (lib/dashboard-cards.tsx)
const DashboardCards = lazy(() => import("../lib/dashboard-cards"));
import { withQuery } from "../lib/providers";
import { useQueryState } from "../lib/query-state";
import { formatCount } from "../lib/numbers";
import { translator } from "../lib/i18n";

const t = translator(dashboardStrings);
const tList = translator(listStrings);
const nouns: Record<string, string> = { circulars: "dashboard.nounCirculars", news: "dashboard.nounNews" };

type Props = ListRules & {
  list: string;
  noun: "circulars" | "news"; // which list, and the button's and status's word
  total: number; // how many the list holds as of the build (the first screen's Load More)
  sources?: string[]; // the filter buttons besides All; none: no filter
  labels?: CardLabels; // the circular cards' labels
};

type Answer = { circulars?: Schemas["Circular"][]; news?: Schemas["NewsItem"][]; total: number };

// fetchList asks for the first count entries of the list (of source).
async function fetchList(noun: Props["noun"], source: string, count: number, signal: AbortSignal): Promise<Answer> {
  if (noun === "news") {
    const { data, response } = await answered(api.GET("/news", { params: { query: { limit: count } }, signal }));
    return { news: data, total: Number(response.headers.get("X-Total-Count") ?? data.length) };
  }
  const { data, response } = await answered(api.GET("/circulars", { params: { query: { source: (source || undefined) as Schemas["Source"] | undefined, limit: count } }, signal }));
  return { circulars: data, total: Number(response.headers.get("X-Total-Count") ?? data.length) };
}

const pressed = "border-brand-700 bg-brand-700 text-white";
const unpressed = "border-slate-300 bg-white text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

function DashboardList({ list, noun, total: builtTotal, sources, labels, pageSize, step, hideAbove }: Props) {
  const rules = { pageSize, step, hideAbove };
  // The Load More slot holds a link for readers without JavaScript; the
  // button replaces it.
  const [slot] = useState(() => {
    const el = document.querySelector<HTMLElement>(sel(dataLoadMore, list));
    el?.replaceChildren();
    return el;
  });
  const [apiSlot] = useState(() => document.querySelector<HTMLElement>(sel(dataApiList, list)));
  const [staticList] = useState(() => document.querySelector<HTMLElement>(sel(dataList, list)));
  const [query, setQuery] = useQueryState({ source: "" });
  const source = sources && sources.includes(query.source) ? query.source : "";
  const [count, setCount] = useState(pageSize);
  const isStatic = source === "" && count === pageSize;
  const answer = useQuery({
    queryKey: [noun, "dashboard", source, count],
    queryFn: ({ signal }) => fetchList(noun, source, count, signal),
    enabled: !isStatic,
    placeholderData: keepPreviousData,
  });
  const fromApi = !isStatic && answer.data !== undefined;
  const total = fromApi ? answer.data!.total : builtTotal;
  const shown = Math.min(count, total);

  useEffect(() => {
    if (staticList) setHidden(staticList, fromApi);
  }, [staticList, fromApi]);

  // Until the first answer for another view is in (a shared ?source= link),
  // the first screen stays, marked busy: it is not yet what the buttons say.
  const waiting = !isStatic && !fromApi && !answer.error;
  useEffect(() => {
    if (staticList) staticList.setAttribute("aria-busy", String(waiting));
  }, [staticList, waiting]);

  useEffect(() => {
    if (!answer.error) return;
    console.error(`dashboard ${noun}: the API did not answer`, answer.error);
  }, [answer.error, noun]);

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

  const Noun = noun in nouns ? t(nouns[noun]) : noun;
  const more = canLoadMore(shown, total, rules) && !answer.error && (
    <button
      type="button"
      aria-label={t("dashboard.loadMoreLabel", { Noun })}
      onClick={() => setCount((n) => n + step)}
      className="inline-flex min-h-11 items-center justify-center rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      {t("dashboard.loadMore")}
    </button>
  );

  return (
    <>
      {sources && (
        <div role="group" aria-label={t("dashboard.filterBySource")} className="flex flex-wrap gap-1">
          {["", ...sources].map((s) => (
            <button
              key={s || "All"}
              type="button"
              aria-pressed={s === source}
              onClick={() => choose(s)}
              className={`min-h-11 min-w-11 rounded-md border px-3 text-sm font-medium ${s === source ? pressed : unpressed}`}
            >
              {s || tList("list.all")}
            </button>
          ))}
        </div>
      )}
      {apiSlot &&
        fromApi &&
        createPortal(
          <Suspense fallback={null}>
            <DashboardCards circulars={answer.data!.circulars} news={answer.data!.news} labels={labels} busy={answer.isFetching} />
          </Suspense>,
          apiSlot,
        )}
      {slot &&
        createPortal(
          <>
            {more}
            <p className="sr-only" role="status">
              {t("dashboard.showingOf", { Shown: formatCount(shown), Total: formatCount(total), Noun })}
            </p>
          </>,
          slot,
        )}
    </>
  );
}

export default withQuery(DashboardList);
