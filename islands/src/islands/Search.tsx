// /search: q, source, category and page live in the URL (each change is a
// history entry, so Back and Forward step through searches). With a query
// the API (GET /api/search) ranks the circulars, answers, pages and counts;
// the island draws the returned circulars (lib/circular-card.tsx) in place
// of the static page, with the direct answer, the pagination and the facet
// counts as the API gives them. Without a query, a regulator or category
// is one page of GET /api/circulars; with neither, the pre-rendered pages
// (/search/page/2…) are the list. Where no API answers (a static host),
// the compact index (lib/fallback-search.tsx) is matched in the browser,
// and the page says so.
import { itemLang } from "../lib/lang";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { createPortal } from "react-dom";
import pagerStrings from "../../../internal/i18n/strings/pager.json";
import strings from "../../../internal/i18n/strings/search.json";
import { api, apiURL, dataOf, type Schemas } from "../lib/api";
import { ApiCirculars, showStatic, useCircularsPage, useSlot } from "../lib/api-list";
import { CircularCard, categoryName, type CardLabels } from "../lib/circular-card";
import { FallbackResults } from "../lib/fallback-search";
import { dataCount, dataEmpty, dataPager, dataSearch, dataSearchNews, dataSearchResultsHeading, dataSearchTitle, dataSkeleton, sel, setHidden, setHiddenAll } from "../lib/contract";
import { Button, SelectBox, type Option } from "../lib/controls";
import { useStaticList } from "../lib/directory";
import { withQuery } from "../lib/providers";
import { useQueryState } from "../lib/query-state";
import { SearchAlert } from "../lib/search-alert";
import { fillAges } from "../lib/relative-age";
import { showList } from "../lib/static-list";
import { pageButtons } from "../lib/paging";
import { formatCount } from "../lib/numbers";
import { pagePath, translator } from "../lib/i18n";

const t = translator(strings);
const tPager = translator(pagerStrings);

type Answer = Schemas["Answer"];
type Props = {
  sources: string[];
  categories: string[];
  pageSize: number; // the API's search page
  maxQueryLength: number;
  listPageSize: number; // a page of the static lists, and of a filter without a query
  fallbackIndex: string; // the compact index's URL; "" when the archive is too large for one
  labels: CardLabels;
};

type State = { q: string; source: string; category: string; page: string };
const defaults: State = { q: "", source: "all", category: "all", page: "1" };

// newsCards is how many recent news cards a chosen source shows.
const newsCards = 3;

// searchQuery is the GET /api/search query of a state ("all" and the
// first page are left out).
function searchQuery(state: State) {
  return {
    q: state.q.trim(),
    page: state.page !== "1" ? Number(state.page) : undefined,
    source: state.source !== "all" ? (state.source as Schemas["Source"]) : undefined,
    category: state.category !== "all" ? (state.category as Schemas["CircularCategory"]) : undefined,
  };
}

export function searchURL(state: State): string {
  return apiURL("/search", searchQuery(state));
}

export function feedURL(state: State): string {
  const { q, source, category } = searchQuery(state);
  return apiURL("/search/feed", { q, source, category });
}


export function pageTitle(source: string): string {
  return source !== "all" ? t("search.pageTitleSource", { Source: source }) : t("search.pageTitle");
}

const field =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const pageButton =
  "min-w-9 rounded-md border px-3 py-2 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50";

const list = "search-circulars";

function Search({ sources, categories, pageSize, maxQueryLength, listPageSize, fallbackIndex, labels }: Props) {
  const [state, set] = useQueryState<State>(defaults, "push");
  const [text, setText] = useState(state.q);
  const news = useStaticList("search-news");
  const [offline, setOffline] = useState(false);
  const q = state.q.trim();
  const query = searchQuery(state);
  const asked = useQuery({ queryKey: ["/search", query], queryFn: ({ signal }) => dataOf(api.GET("/search", { params: { query }, signal })), enabled: q !== "" && !offline });
  const loading = asked.isFetching;
  const result = q && !offline ? (asked.data ?? null) : null;
  // Without a query, a regulator or category is one page of GET
  // /api/circulars; with neither, the static page is the list.
  const filtered = !q && (state.source !== "all" || state.category !== "all");
  const { source, category } = searchQuery(state);
  const page = Math.max(1, Number.parseInt(state.page, 10) || 1);
  const browse = useCircularsPage({ source, category }, page, listPageSize, filtered && !offline);
  const slot = useSlot(list);

  // Back and Forward change the state: the box follows.
  useEffect(() => setText(state.q), [state.q]);

  // The heading and the tab's title name the source.
  useEffect(() => {
    const h1 = document.querySelector<HTMLElement>(sel(dataSearchTitle));
    const title = pageTitle(state.source);
    if (h1) {
      document.title = document.title.replace(h1.textContent ?? "", title);
      h1.textContent = title;
    }
  }, [state.source]);

  // Up to three recent news cards about the chosen source: its own news,
  // or news whose excerpt names it.
  useEffect(() => {
    const section = document.querySelector<HTMLElement>(sel(dataSearchNews));
    if (!section) return;
    const s = state.source.toLowerCase();
    const order: number[] = [];
    if (state.source !== "all") {
      news.items.forEach((it, i) => {
        const src = String(it.fields.source ?? "").toLowerCase();
        if (src === s || String(it.fields.excerpt ?? "").toLowerCase().includes(s)) order.push(i);
      });
    }
    showList(document, news, order.slice(0, newsCards));
    setHidden(section, order.length === 0);
    fillAges(section, new Date());
  }, [state.source, news]);

  // The static page hides while the API's results or the fallback's show.
  const replaced = (q !== "" && !offline) || offline;
  useEffect(() => {
    if (!replaced) return;
    showStatic(list, false);
    return () => {
      showStatic(list, true);
      setHiddenAll(document, sel(dataEmpty, list), true); // the static page lists every circular
    };
  }, [replaced]);

  useEffect(() => {
    if (!result || loading) return;
    for (const el of document.querySelectorAll<HTMLElement>(sel(dataCount, list))) {
      el.textContent = formatCount(result.pagination.totalResults);
    }
    setHiddenAll(document, sel(dataEmpty, list), result.pagination.totalResults > 0);
  }, [result, loading]);

  useEffect(() => {
    const err = asked.error ?? browse.error;
    if (!err) return;
    console.error("search: the API did not answer; searching the compact index", err);
    setOffline(true);
  }, [asked.error, browse.error]);

  // The page hid its results section until these results are in (the
  // answer goes above them, so showing the static list first would make it
  // jump): shown once there is nothing to wait for.
  const settled = !q || offline || (result !== null && !loading);
  useEffect(() => {
    if (settled) document.documentElement.removeAttribute(dataSearch);
  }, [settled]);

  useEffect(() => {
    const h = document.querySelector<HTMLElement>(sel(dataSearchResultsHeading));
    if (h) h.textContent = q ? t("search.resultsFor", { Query: q }) : state.source !== "all" ? t("search.sourceCirculars", { Source: state.source }) : t("search.allCirculars");
  }, [q, state.source]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    set({ q: text.trim(), page: "1" });
  };
  const counted = (values: string[], counts: Record<string, number> | undefined, all: string, name: (v: string) => string = (v) => v): Option[] => [
    { value: "all", label: all },
    ...values.map((v) => ({ value: v, label: counts ? `${name(v)} (${counts[v] ?? 0})` : name(v) })),
  ];
  const facets = q && result ? result.facets : undefined;
  const correction = t("search.correction", { Corrected: "\u0000", Original: result?.correction?.original ?? "" }).split("\u0000");
  const isDefault = state.q === "" && state.source === "all" && state.category === "all";
  const p = result?.pagination;
  const pagerSlot = document.querySelector<HTMLElement>(sel(dataPager, "search-circulars"));

  return (
    <div className="space-y-4">
      <form role="search" aria-label={t("search.formLabel")} onSubmit={submit} className="flex flex-col gap-2 lg:flex-row lg:items-center">
        <div className="min-w-0 flex-1">
          <label htmlFor="search-q" className="sr-only">
            {t("search.text")}
          </label>
          <input
            id="search-q"
            type="search"
            className={field}
            placeholder={t("search.placeholder")}
            value={text}
            maxLength={maxQueryLength}
            autoComplete="off"
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <SelectBox id="search-source" label={t("search.source")} value={state.source} options={counted(sources, facets?.source, t("search.allSources"))} onChange={(source) => set({ source, page: "1" })} />
        <SelectBox
          id="search-category"
          label={t("search.category")}
          value={state.category}
          options={counted(categories, facets?.category, t("search.allCategories"), (c) => categoryName(c, labels))}
          onChange={(category) => set({ category, page: "1" })}
        />
        <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          {t("search.search")}
        </button>
        <Button onClick={() => set({ ...defaults })} disabled={isDefault}>
          {t("search.clearFilters")}
        </Button>
      </form>

      {offline && (
        <FallbackResults
          index={fallbackIndex}
          q={q}
          source={state.source}
          category={state.category}
          page={page}
          size={listPageSize}
          onPage={(n) => set({ page: String(n) })}
        />
      )}
      {filtered && !offline && (
        <ApiCirculars
          name={list}
          label={t("search.resultsPages")}
          answer={browse.data}
          loading={browse.isFetching}
          page={page}
          size={listPageSize}
          labels={labels}
          href={(n) => pagePath(`/search?${new URLSearchParams({ ...(source ? { source } : {}), ...(category ? { category } : {}), ...(n > 1 ? { page: String(n) } : {}) }).toString()}`)}
          onPage={(n) => set({ page: String(n) })}
        />
      )}
      {slot &&
        result &&
        !loading &&
        createPortal(
          <div className="grid gap-3">
            {result.circulars.map((c) => (
              <CircularCard key={c.id} c={c} labels={labels} />
            ))}
          </div>,
          slot,
        )}
      {q && !offline && (
        <p className="text-sm">
          <a href={feedURL(state)} className="font-medium text-brand-700 hover:underline dark:text-blue-300">
            {t("search.atomFeed")}
          </a>
        </p>
      )}
      {!isDefault && !offline && <SearchAlert search={state} />}
      {result?.latest && q && !loading && (
        <p role="note" className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100">
          {t("search.upiNote", { N: pageSize })}
        </p>
      )}
      {result?.correction && q && !loading && (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {correction[0]}
          <strong>{result.correction.corrected}</strong>
          {correction[1]}
        </p>
      )}
      {result && q && !loading && <DirectAnswer answer={result.answer} />}
      {result && q && !loading && result.provisions.length > 0 && <Provisions provisions={result.provisions} />}
      {loading && (
        <div className="grid gap-3" role="status" aria-busy="true" aria-label={t("search.loading")}>
          {Array.from({ length: pageSize }, (_, i) => (
            <div key={i} {...{ [dataSkeleton]: "" }} className="h-32 animate-pulse rounded-lg border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-800" />
          ))}
        </div>
      )}
      {pagerSlot &&
        p &&
        q &&
        !loading &&
        p.totalPages > 1 &&
        createPortal(<Pages current={p.currentPage} total={p.totalPages} hasPrev={p.hasPrev} hasNext={p.hasNext} onPage={(n) => set({ page: String(n) })} />, pagerSlot)}
    </div>
  );
}

// Highlighted marks the spans the API says matched (UTF-16 offsets, as
// JavaScript indexes strings).
function Highlighted({ text, spans }: { text: string; spans: Schemas["Span"][] }) {
  const parts = [];
  let at = 0;
  for (const s of spans) {
    if (s.start < at || s.end > text.length) continue;
    if (s.start > at) parts.push(text.slice(at, s.start));
    parts.push(
      <mark key={s.start} className={markClass}>
        {text.slice(s.start, s.end)}
      </mark>,
    );
    at = s.end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

// markClass: the same yellow in both themes, dark text on it (contrast
// above 4.5:1 either way); inline padding only, so marking moves no line.
const markClass = "rounded bg-yellow-200 px-0.5 text-slate-900 dark:bg-yellow-300";

// factName names a kind of fact a question asks for, as a reader says it
// (date, amount, time limit, number, yes or no, who, definition).
const factName = (type: Schemas["AnswerType"]): string => t(`search.fact.${type}`);

// fallbackNote says why the model's answer is not the one shown.
function fallbackNote(answer: Answer): string | null {
  switch (answer.modelFallback) {
    case "missingFact":
      return t("search.missingFact", { Fact: answer.answerType ? factName(answer.answerType) : t("search.factGeneric") });
    case "noAnswer":
      return t("search.noAnswerFallback");
    default:
      return null;
  }
}

function DirectAnswer({ answer }: { answer: Answer }) {
  const note = fallbackNote(answer);
  const fact = answer.directAnswer !== null && factIn(answer.directAnswer, answer.fact) ? answer.fact : null;
  return (
    <section aria-labelledby="direct-answer" className="rounded-lg border border-brand-200 bg-brand-50 p-4 dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="direct-answer" className="text-lg font-semibold">
          {t("search.directAnswer")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("search.confidence")} <strong>{Math.round(answer.confidence * 100)}%</strong> ·{" "}
          {answer.method === "extractive"
            ? t(answer.provision ? "search.extractedDirection" : "search.extractedCirculars")
            : t("search.writtenBy", { Model: answer.model ?? t("search.anAiModel") })}
        </p>
      </div>
      {answer.directAnswer === null ? (
        <p className="mt-2 text-slate-900 dark:text-slate-100">{t("search.noPassage")}</p>
      ) : (
        <p className="mt-2 text-slate-900 dark:text-slate-100">
          <AnswerText text={answer.directAnswer} fact={fact} />
          {fact && answer.answerType && (
            // A mark is not announced by every screen reader: say what it marks.
            <span className="sr-only">
              {" "}
              {t("search.factAskedFor", { Fact: factName(answer.answerType), Text: fact.text })}
            </span>
          )}
        </p>
      )}
      {note && <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{note}</p>}
      {answer.directAnswer !== null && answer.provision && (
        <div className="mt-3">
          <h3 className="text-sm font-semibold">{t("search.source")}</h3>
          <p className="mt-1 text-sm">
            <ProvisionCitation p={answer.provision} />
          </p>
        </div>
      )}
      {answer.sources.length > 0 && (
        <div className="mt-3">
          {/* Under a provision's answer the circulars are further reading, not its source. */}
          <h3 className="text-sm font-semibold">{answer.directAnswer !== null && answer.provision ? t("search.relatedCirculars") : t("search.sources")}</h3>
          <ul className="mt-1 space-y-2 text-sm">
            {answer.sources.map((s) => (
              <li key={s.circularId}>
                <a href={`/circulars/${s.slug}`} lang={itemLang(s.lang)} className="font-medium text-brand-700 hover:underline dark:text-blue-300">
                  {s.title}
                </a>{" "}
                <span className="text-slate-600 dark:text-slate-400">({s.source})</span>
                <p lang={itemLang(s.lang)} className="text-slate-700 dark:text-slate-300">
                  <Highlighted text={s.relevantExcerpt} spans={s.highlights} />
                </p>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

type Provision = Schemas["ProvisionHit"];

// ProvisionCitation names a provision as a citation does, "MD-PPIs, 2021,
// para 9.1(i)(b): heading", linked to it on the direction's page, with
// the day its text took effect.
function ProvisionCitation({ p }: { p: Provision }) {
  return (
    <>
      <a href={p.url} className="font-medium text-brand-700 hover:underline dark:text-blue-300">
        {p.directionTitle}, para {p.id}
        {p.heading ? `: ${p.heading}` : ""}
      </a>{" "}
      <span className="text-slate-600 dark:text-slate-400">
        ({p.source}; in force since <time dateTime={p.inForceFrom}>{p.inForceFrom}</time>)
      </span>
    </>
  );
}

// Provisions are the Master Directions' provisions in force that match,
// apart from the circulars (their list and pages stay the circulars').
function Provisions({ provisions }: { provisions: Provision[] }) {
  return (
    <section aria-labelledby="provision-results" className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <h2 id="provision-results" className="text-lg font-semibold">
        Master Directions in force
      </h2>
      <ul className="mt-2 space-y-3 text-sm">
        {provisions.map((p) => (
          <li key={`${p.direction} ${p.id}`} data-provision={`${p.direction} ${p.id}`}>
            <ProvisionCitation p={p} />
            <p className="text-slate-700 dark:text-slate-300">
              <Highlighted text={p.text} spans={p.highlights} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

// factIn reports whether fact's span (UTF-16 offsets, as JavaScript
// indexes strings) lies within text: one outside it marks nothing.
function factIn(text: string, fact: Answer["fact"]): fact is Schemas["AnswerFact"] {
  return fact !== null && fact.start >= 0 && fact.end <= text.length && fact.start < fact.end;
}

// AnswerText is the direct answer with the asked fact marked.
function AnswerText({ text, fact }: { text: string; fact: Answer["fact"] }) {
  if (!factIn(text, fact)) return <>{text}</>;
  return (
    <>
      {text.slice(0, fact.start)}
      <mark data-fact="" className={`${markClass} font-semibold`}>
        {text.slice(fact.start, fact.end)}
      </mark>
      {text.slice(fact.end)}
    </>
  );
}

function Pages(props: { current: number; total: number; hasPrev: boolean; hasNext: boolean; onPage: (n: number) => void }) {
  const { current, total, hasPrev, hasNext, onPage } = props;
  const plain = `${pageButton} border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200`;
  const active = `${pageButton} border-brand-700 bg-brand-700 text-white`;
  return (
    <nav aria-label={t("search.resultsPages")} className="flex flex-wrap items-center gap-2">
      <button type="button" className={plain} disabled={!hasPrev} onClick={() => onPage(current - 1)}>
        {tPager("pager.previous")}
      </button>
      {pageButtons(Math.min(current, total), total).map((n) => (
        <button key={n} type="button" className={n === current ? active : plain} aria-current={n === current ? "page" : undefined} aria-label={tPager("pager.page", { N: n })} onClick={() => onPage(n)}>
          {n}
        </button>
      ))}
      <button type="button" className={plain} disabled={!hasNext} onClick={() => onPage(current + 1)}>
        {tPager("pager.next")}
      </button>
    </nav>
  );
}

export default withQuery(Search);
