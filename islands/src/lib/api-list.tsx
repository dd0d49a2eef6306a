// A paged list the islands page through the API: one page of GET
// /api/circulars (TanStack Query, the total from X-Total-Count), drawn
// into the page's data-api-list slot with its own pager while the
// pre-rendered page (data-static-page) is hidden. The static pages stay
// the list without JavaScript; an island shows this list only for a view
// the static page does not hold.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import listStrings from "../../../internal/i18n/strings/list.json";
import pagerStrings from "../../../internal/i18n/strings/pager.json";
import { answered, api, type Circular, type Schemas } from "./api";
import { CircularCard, type CardLabels } from "./circular-card";
import { dataApiList, dataCount, dataSkeleton, dataEmpty, dataListRange, dataStaticPage, sel, setHidden, setHiddenAll } from "./contract";
import { pageButtons } from "./paging";
import { translator } from "./i18n";
import { formatCount } from "./numbers";

export type CircularFilters = {
  source?: Schemas["Source"];
  category?: Schemas["CircularCategory"];
  search?: string;
  sort?: Schemas["CircularSort"];
  filter?: Schemas["ImpactLevel"];
};

export type CircularPage = { circulars: Circular[]; total: number };

// circularsPage asks for page (1-based) of the filters' circulars.
export async function circularsPage(filters: CircularFilters, page: number, size: number, signal?: AbortSignal): Promise<CircularPage> {
  const offset = (page - 1) * size;
  const { data, response } = await answered(api.GET("/circulars", { params: { query: { ...filters, limit: size, offset: offset || undefined } }, signal }));
  return { circulars: data, total: Number(response.headers.get("X-Total-Count") ?? data.length) };
}

// useCircularsPage is circularsPage through TanStack Query; the last
// page stays shown while the next loads.
export function useCircularsPage(filters: CircularFilters, page: number, size: number, enabled: boolean) {
  return useQuery({
    queryKey: ["/circulars", "page", filters, page, size],
    queryFn: ({ signal }) => circularsPage(filters, page, size, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}

// showStatic shows or hides the pre-rendered page of list name.
export function showStatic(name: string, shown: boolean) {
  for (const el of document.querySelectorAll<HTMLElement>(sel(dataStaticPage, name))) setHidden(el, !shown);
}

const tList = translator(listStrings);
const tPager = translator(pagerStrings);

// The nouns the lists count, in the page's language (list-range.html's).
const nouns: Record<string, string> = { circulars: "list.circulars", consultations: "list.consultations", articles: "list.articles" };

// rangeText is the "Showing 31–60 of 290 circulars" line of a page.
export function rangeText(page: number, size: number, total: number, noun: string): string {
  const Noun = noun in nouns ? tList(nouns[noun]) : noun;
  if (total === 0) return tList("list.noneFound", { Noun });
  const first = (page - 1) * size + 1;
  return tList("list.showing", { First: formatCount(first), Last: formatCount(Math.min(first + size - 1, total)), Total: formatCount(total), Noun });
}

// setListHeader writes the count badges, the range line and the empty
// block of list name for an answer of total entries.
export function setListHeader(name: string, page: number, size: number, total: number, noun: string) {
  for (const el of document.querySelectorAll<HTMLElement>(sel(dataCount, name))) el.textContent = formatCount(total);
  for (const el of document.querySelectorAll<HTMLElement>(sel(dataListRange))) el.textContent = rangeText(page, size, total, noun);
  setHiddenAll(document, sel(dataEmpty, name), total > 0);
}

const pageLink =
  "inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border px-3 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50";
const idle = "border-slate-300 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800";
const current = "border-brand-600 bg-brand-600 text-white";

// Pager is the API list's pager: Previous, page numbers, Next, as links to
// href(n) (so a page can be opened in a new tab) that onPage follows in place.
export function Pager(props: { page: number; pages: number; label?: string; href: (n: number) => string; onPage: (n: number) => void }) {
  const { page, pages, label = tPager("pager.pages"), href, onPage } = props;
  if (pages <= 1) return null;
  const go = (n: number) => (e: React.MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    onPage(n);
  };
  return (
    <nav className="mt-6 flex flex-wrap items-center gap-2" aria-label={label}>
      {page > 1 && (
        <a href={href(page - 1)} rel="prev" className={`${pageLink} ${idle}`} onClick={go(page - 1)}>
          {tPager("pager.previous")}
        </a>
      )}
      {pageButtons(page, pages).map((n) =>
        n === page ? (
          <span key={n} aria-current="page" className={`${pageLink} ${current}`}>
            {n}
          </span>
        ) : (
          <a key={n} href={href(n)} aria-label={tPager("pager.page", { N: n })} className={`${pageLink} ${idle}`} onClick={go(n)}>
            {n}
          </a>
        ),
      )}
      {page < pages && (
        <a href={href(page + 1)} rel="next" className={`${pageLink} ${idle}`} onClick={go(page + 1)}>
          {tPager("pager.next")}
        </a>
      )}
    </nav>
  );
}

// useSlot is the element the list of name is drawn into.
export function useSlot(name: string): HTMLElement | null {
  const [slot] = useState(() => document.querySelector<HTMLElement>(sel(dataApiList, name)));
  return slot;
}

// ApiCirculars draws one page of circulars, with its pager, into the
// slot of list name, and hides the static page while it is shown.
export function ApiCirculars(props: {
  name: string;
  label?: string; // the pager's name
  answer: CircularPage | undefined;
  loading: boolean;
  page: number;
  size: number;
  labels: CardLabels;
  href: (n: number) => string;
  onPage: (n: number) => void;
  children?: ReactNode;
}) {
  const { name, answer, loading, page, size, labels, href, onPage } = props;
  const slot = useSlot(name);
  // Hidden while shown; on leaving, the static page and its header as
  // the generator wrote them.
  useEffect(() => {
    const header = Array.from(document.querySelectorAll<HTMLElement>(`${sel(dataCount, name)}, ${sel(dataListRange)}`));
    const texts = header.map((el) => el.textContent);
    const empty = Array.from(document.querySelectorAll<HTMLElement>(sel(dataEmpty, name)));
    const emptyHidden = empty.map((el) => el.hidden);
    showStatic(name, false);
    return () => {
      showStatic(name, true);
      header.forEach((el, i) => (el.textContent = texts[i]));
      empty.forEach((el, i) => setHidden(el, emptyHidden[i]));
    };
  }, [name]);
  useEffect(() => {
    if (answer) setListHeader(name, page, size, answer.total, "circulars");
  }, [name, answer, page, size]);
  if (!slot) return null;
  return createPortal(
    <div aria-busy={loading}>
      {props.children}
      {!answer && loading && (
        <div className="grid gap-3" role="status" aria-label="Loading circulars">
          {[0, 1, 2].map((i) => (
            <div key={i} {...{ [dataSkeleton]: "" }} className="h-32 animate-pulse rounded-lg border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-800" />
          ))}
        </div>
      )}
      {answer && (
        <>
          <div className={`grid gap-3 ${loading ? "opacity-60" : ""}`}>
            {answer.circulars.map((c) => (
              <CircularCard key={c.id} c={c} labels={labels} />
            ))}
          </div>
          <Pager page={page} pages={Math.max(1, Math.ceil(answer.total / size))} label={props.label} href={href} onPage={onPage} />
        </>
      )}
    </div>,
    slot,
  );
}
