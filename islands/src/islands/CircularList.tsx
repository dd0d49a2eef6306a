// /circulars and its per-regulator and per-category lists (pre-rendered,
// paged: generator/lists.go). The island draws the same regulator and
// category links as the static page (list-filter-links.html) and follows
// them in place: a view the page holds (its own filter and page) shows the
// static cards; any other (another filter, both filters together, another
// page) is one page of GET /api/circulars. The URL follows each change
// (the static page's own path when one exists, else /circulars?source=
// &category=&page=), so Back and Forward, a reload and a shared link show
// the same view. Where no API answers, the browser goes to the static page
// nearest the view.
import { useEffect, useState } from "react";
import circularsStrings from "../../../internal/i18n/strings/circulars.json";
import listStrings from "../../../internal/i18n/strings/list.json";
import { type Schemas } from "../lib/api";
import { ApiCirculars, useCircularsPage } from "../lib/api-list";
import { categoryName, type CardLabels } from "../lib/circular-card";
import { pagePath, translator } from "../lib/i18n";
import { withQuery } from "../lib/providers";

const t = translator(circularsStrings);
const tList = translator(listStrings);

export type Lists = {
  sources: Record<string, string>;
  sourceOrder: string[];
  categories: Record<string, string>;
  categoryOrder: string[];
};
type Props = {
  pageSize: number;
  source: string; // the static page's filter ("all": none)
  category: string;
  page: number;
  lists: Lists;
  labels: CardLabels;
};
export type View = { source: string; category: string; page: number };

const base = "/circulars";

// staticRoute is the route of the pre-rendered list of a view's filter, if
// there is one (no filter, or one of the two).
function staticRoute(v: View, lists: Lists): string | undefined {
  if (v.source === "all" && v.category === "all") return base;
  if (v.category === "all") return lists.sources[v.source];
  if (v.source === "all") return lists.categories[v.category];
  return undefined;
}

// viewURL is the address of a view: its static page when there is one,
// else /circulars with the filters in the query (under /hi on a Hindi page).
export function viewURL(v: View, lists: Lists): string {
  const route = staticRoute(v, lists);
  if (route) return pagePath(v.page > 1 ? `${route}/page/${v.page}` : route);
  const q = new URLSearchParams();
  if (v.source !== "all") q.set("source", v.source);
  if (v.category !== "all") q.set("category", v.category);
  if (v.page > 1) q.set("page", String(v.page));
  return pagePath(`${base}?${q.toString()}`);
}

// parseView reads the view of an address: the static list its path names,
// then the query's filters and page.
export function parseView(pathname: string, search: string, lists: Lists): View {
  const v: View = { source: "all", category: "all", page: 1 };
  let path = pathname.replace(/\/+$/, "");
  const root = pagePath("/").slice(0, -1); // a Hindi page's /hi
  if (root && (path === root || path.startsWith(root + "/"))) path = path.slice(root.length);
  const m = /^(.*)\/page\/(\d+)$/.exec(path);
  if (m) {
    path = m[1];
    v.page = Math.max(1, Number(m[2]));
  }
  for (const [s, r] of Object.entries(lists.sources)) if (r === path) v.source = s;
  for (const [c, r] of Object.entries(lists.categories)) if (r === path) v.category = c;
  const q = new URLSearchParams(search);
  if (q.get("source") && lists.sources[q.get("source")!]) v.source = q.get("source")!;
  if (q.get("category") && lists.categories[q.get("category")!]) v.category = q.get("category")!;
  if (q.get("page")) v.page = Math.max(1, Number.parseInt(q.get("page")!, 10) || 1);
  return v;
}

// viewTitle is the heading of a view.
export function viewTitle(v: View): string {
  const f = [v.source, v.category].filter((x) => x !== "all");
  return f.length ? t("circulars.viewTitle", { Filters: f.join(" · ") }) : t("circulars.allTitle");
}

const pill = "inline-flex min-h-8 items-center rounded-full border px-3 text-sm font-medium";
const on = "border-brand-600 bg-brand-600 text-white";
const off = "border-slate-300 text-slate-700 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800";

function CircularList({ pageSize, source, category, page, lists, labels }: Props) {
  const own: View = { source, category, page };
  const [view, setView] = useState<View>(() => parseView(location.pathname, location.search, lists));
  const isOwn = view.source === own.source && view.category === own.category && view.page === own.page;
  const filters = {
    source: view.source !== "all" ? (view.source as Schemas["Source"]) : undefined,
    category: view.category !== "all" ? (view.category as Schemas["CircularCategory"]) : undefined,
  };
  const answer = useCircularsPage(filters, view.page, pageSize, !isOwn);

  useEffect(() => {
    const onPop = () => setView(parseView(location.pathname, location.search, lists));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [lists]);

  // The heading and the tab's title name the view (the page's own, as
  // the generator wrote them, for its own view).
  const [own_] = useState(() => ({ h1: document.querySelector("h1")?.textContent ?? "", title: document.title }));
  useEffect(() => {
    const h1 = document.querySelector("h1");
    if (!h1) return;
    if (isOwn) {
      h1.textContent = own_.h1;
      document.title = own_.title;
      return;
    }
    const title = viewTitle(view) + (view.page > 1 ? ` ${t("circulars.pageSuffix", { N: view.page })}` : "");
    document.title = own_.title.replace(own_.h1, title);
    h1.textContent = title;
  }, [view, isOwn, own_]);

  // No API (a static host): the static page nearest the view.
  useEffect(() => {
    if (!answer.error) return;
    console.error("circulars: the API did not answer; opening the static list", answer.error);
    const near = staticRoute(view, lists) ? view : { ...view, category: "all", page: 1 };
    location.assign(viewURL(near, lists));
  }, [answer.error, view, lists]);

  const go = (next: View) => {
    history.pushState(history.state, "", viewURL(next, lists));
    setView(next);
    window.scrollTo({ top: 0 });
  };
  const follow = (next: View) => (e: React.MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    go(next);
  };

  const rows = [
    { key: "source" as const, label: tList("list.regulator"), order: lists.sourceOrder },
    { key: "category" as const, label: tList("list.category"), order: lists.categoryOrder },
  ];
  return (
    <>
      <nav aria-label={tList("list.filterCirculars")} className="space-y-2" data-list-filters="">
        {rows.map((row) => (
          <div key={row.key} className="flex flex-wrap items-center gap-2">
            <span className="text-sm font-medium text-slate-700 dark:text-slate-200">{row.label}:</span>
            {["all", ...row.order].map((value) => {
              const next = { ...view, [row.key]: value, page: 1 };
              const active = view[row.key] === value;
              return (
                <a key={value} href={viewURL(next, lists)} className={`${pill} ${active ? on : off}`} aria-current={active ? "true" : undefined} onClick={follow(next)}>
                  {value === "all" ? tList("list.all") : row.key === "category" ? categoryName(value, labels) : value}
                </a>
              );
            })}
          </div>
        ))}
      </nav>
      {!isOwn && (
        <ApiCirculars
          name="circulars"
          answer={answer.data}
          loading={answer.isFetching}
          page={view.page}
          size={pageSize}
          labels={labels}
          href={(n) => viewURL({ ...view, page: n }, lists)}
          onPage={(n) => go({ ...view, page: n })}
        />
      )}
    </>
  );
}

export default withQuery(CircularList);
