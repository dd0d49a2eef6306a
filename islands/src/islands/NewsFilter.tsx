// /news: search over title, excerpt and category, a category filter and
// Clear Filters, in the URL with the page. Unfiltered, the first page
// shows its two "Top 5" blocks and the pre-rendered pages (/news/page/2…)
// are the list; filtered, one page of GET /api/news at a time replaces
// the list ("Search Results (N articles)"). Where no API answers, the
// filter runs over this page's cards. Also fills in each card's relative age.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";
import strings from "../../../internal/i18n/strings/news.json";
import { answered, api, type Schemas } from "../lib/api";
import { Pager, showStatic, useSlot } from "../lib/api-list";
import { dataEmpty, sel, setHiddenAll } from "../lib/contract";
import { Button, options, SearchBox, SelectBox, Toolbar } from "../lib/controls";
import { useDebounced, useMatches, useShowList, useStaticList } from "../lib/directory";
import type { Fields } from "../lib/match";
import { isFiltered, showNewsView } from "../lib/news";
import { NewsCard } from "../lib/news-card";
import { withQuery } from "../lib/providers";
import { useQueryState } from "../lib/query-state";
import { fillAges } from "../lib/relative-age";
import { translator } from "../lib/i18n";

const t = translator(strings);

const defaults = { q: "", category: "all", page: "1" };
const keys = ["title", "excerpt", "category"];
// debounceMs keeps typing from sending a request per key.
const debounceMs = 250;

// categoryNames are the categories' names that differ from their values
// (a Hindi page's); the others show as their values.
type Props = { categories: string[]; pageSize: number; page: number; categoryNames?: Record<string, string> };

// newsPage asks for page n of the filter's news.
async function newsPage(q: string, category: string, n: number, size: number, signal: AbortSignal) {
  const { data, response } = await answered(
    api.GET("/news", {
      params: {
        query: {
          search: q.trim() || undefined,
          category: category !== "all" ? (category as Schemas["NewsCategory"]) : undefined,
          limit: size,
          offset: (n - 1) * size || undefined,
        },
      },
      signal,
    }),
  );
  return { news: data, total: Number(response.headers.get("X-Total-Count") ?? data.length) };
}

function NewsFilter({ categories: cats, pageSize, page: staticPage, categoryNames }: Props) {
  const [state, set] = useQueryState(defaults);
  const list = useStaticList("news");
  const [offline, setOffline] = useState(false);
  const filtered = isFiltered(state);
  const q = useDebounced(state.q, debounceMs);
  const page = Math.max(1, Number.parseInt(state.page, 10) || 1);
  const answer = useQuery({
    queryKey: ["/news", "page", q, state.category, page, pageSize],
    queryFn: ({ signal }) => newsPage(q, state.category, page, pageSize, signal),
    enabled: filtered && !offline && q === state.q, // once typing pauses
    placeholderData: keepPreviousData,
  });
  const slot = useSlot("news");

  // Without the API: this page's cards, filtered here.
  const filter = useCallback((f: Fields) => state.category === "all" || f.category === state.category, [state.category]);
  const matches = useMatches(list, keys, offline ? state.q : "", offline ? filter : undefined);
  useShowList(list, matches);

  useEffect(() => {
    if (!answer.error) return;
    console.error("news: the API did not answer; filtering this page", answer.error);
    setOffline(true);
  }, [answer.error]);

  const api = filtered && !offline;
  // Searching: typing has not paused, or this filter's answer is not in
  // (what shows is none, or the last filter's); the heading says so
  // rather than a count.
  const pending = api && (q !== state.q || answer.data === undefined || answer.isPlaceholderData);
  // The top blocks only on the unfiltered first page; the list always on
  // the others.
  const total = offline ? matches.length : pending ? undefined : (answer.data?.total ?? 0);
  useEffect(() => showNewsView(document, filtered || staticPage > 1, total, filtered), [filtered, staticPage, total]);
  useEffect(() => {
    if (!api) return;
    showStatic("news", false);
    return () => showStatic("news", true);
  }, [api]);
  useEffect(() => {
    // No "No news articles found" before the answer either.
    if (api) setHiddenAll(document, sel(dataEmpty, "news"), pending || (answer.data?.total ?? 0) > 0);
    if (!filtered) setHiddenAll(document, sel(dataEmpty, "news"), true);
  }, [api, filtered, pending, answer.data]);
  useEffect(() => fillAges(document, new Date()), [answer.data]);
  const categories = useMemo(() => options(t("news.allCategories"), cats, (c) => categoryNames?.[c] ?? c), [cats, categoryNames]);
  return (
    <>
      <Toolbar label={t("news.filterNews")}>
        <SearchBox id="news-search" label={t("news.searchNews")} placeholder={t("news.searchPlaceholder")} value={state.q} onChange={(q) => set({ q, page: "1" })} />
        <SelectBox id="news-category" label={t("news.category")} value={state.category} options={categories} onChange={(category) => set({ category, page: "1" })} />
        <Button onClick={() => set(defaults)} disabled={!filtered}>
          {t("news.clearFilters")}
        </Button>
      </Toolbar>
      {api &&
        slot &&
        answer.data &&
        createPortal(
          <div aria-busy={answer.isFetching || q !== state.q}>
            <div className="grid gap-4 lg:grid-cols-2">
              {answer.data.news.map((n) => (
                <NewsCard key={n.id} n={n} categoryNames={categoryNames} />
              ))}
            </div>
            <Pager
              page={page}
              pages={Math.max(1, Math.ceil(answer.data.total / pageSize))}
              href={(n) => {
                const u = new URLSearchParams(location.search);
                u.set("page", String(n));
                return `?${u.toString()}`;
              }}
              onPage={(n) => set({ page: String(n) })}
            />
          </div>,
          slot,
        )}
    </>
  );
}

export default withQuery(NewsFilter);
