// /search when the API does not answer: the compact index the generator
// writes (generator/fallbackindex.go: slug, number, title, regulator,
// category and date of each circular, under 1 MB gzipped) is loaded once
// and matched here, titles and numbers only. Past that size the site has
// no index, and the page says so and points to the lists.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import searchStrings from "../../../internal/i18n/strings/search.json";
import { cardDate } from "./circular-card";
import { fuzzyMinLength, search, type Fields } from "./match";
import { Pager } from "./api-list";
import { fetchBuilt } from "./query";
import { useFuse } from "./use-fuse";
import { pagePath, translator } from "./i18n";

const tSearch = translator(searchStrings);

type Index = { fields: string[]; sources: string[]; categories: string[]; rows: (string | number)[][] };
export type Entry = { slug: string; circularNumber: string; title: string; source: string; category: string; publishedDate: string };

// entries turns the index's rows into entries.
export function entries(x: Index): Entry[] {
  return x.rows.map(([slug, circularNumber, title, source, category, publishedDate]) => ({
    slug: String(slug),
    circularNumber: String(circularNumber),
    title: String(title),
    source: x.sources[Number(source)] ?? "",
    category: x.categories[Number(category)] ?? "",
    publishedDate: String(publishedDate),
  }));
}

// matchEntries are the entries of the filters that match q (all of them
// for an empty q), in the index's order (newest first).
export function matchEntries(all: Entry[], q: string, source: string, category: string, FuseCtor?: Parameters<typeof search>[3]): Entry[] {
  const kept = all.filter((e) => (source === "all" || e.source === source) && (category === "all" || e.category === category));
  return search(kept as unknown as Fields[], ["circularNumber", "title"], q, FuseCtor).map((i) => kept[i]);
}

const note = "text-sm text-slate-700 dark:text-slate-300";

export function FallbackResults(props: { index: string; q: string; source: string; category: string; page: number; size: number; onPage: (n: number) => void }) {
  const { index, q, source, category, page, size, onPage } = props;
  const loaded = useQuery({
    queryKey: ["fallback-index", index],
    queryFn: async ({ signal }) => entries(await fetchBuilt<Index>(index, signal)),
    enabled: index !== "",
  });
  const Fuse = useFuse(q.length >= fuzzyMinLength);
  const found = useMemo(() => (loaded.data ? matchEntries(loaded.data, q, source, category, Fuse) : []), [loaded.data, q, source, category, Fuse]);
  if (index === "" || loaded.error) {
    const unavailable = tSearch("search.unavailableLarge", { Link: "\u0000" }).split("\u0000");
    return (
      <p role="status" className={note}>
        {unavailable[0]}
        <a href={pagePath("/circulars")} className="font-medium text-brand-700 underline dark:text-blue-300">
          {tSearch("search.byRegulatorCategory")}
        </a>
        {unavailable[1]}
      </p>
    );
  }
  const pages = Math.max(1, Math.ceil(found.length / size));
  const p = Math.min(page, pages);
  return (
    <section aria-label={tSearch("search.offline")} className="space-y-3">
      <p role="status" className={note}>
        {tSearch("search.unavailableMatches", { Query: q ? ` “${q}”` : "", N: found.length })}
      </p>
      <ul className="grid gap-2">
        {found.slice((p - 1) * size, p * size).map((e) => (
          <li key={e.slug} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" data-circular={e.slug}>
            <a href={pagePath(`/circulars/${e.slug}`)} className="font-semibold text-brand-700 hover:underline dark:text-blue-300">
              {e.circularNumber ? `${e.circularNumber} - ` : ""}
              {e.title}
            </a>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {e.source} · <time dateTime={e.publishedDate}>{cardDate(e.publishedDate)}</time> · {e.category}
            </p>
          </li>
        ))}
      </ul>
      <Pager page={p} pages={pages} label={tSearch("search.resultsPages")} href={(n) => {
          const u = new URLSearchParams(location.search);
          u.set("page", String(n));
          return `?${u.toString()}`;
        }} onPage={onPage} />
    </section>
  );
}
