// A news card drawn from GET /api/news's answer, for /news's filtered
// results: the markup and classes of templates/_partials/news-card.html
// (a card of the results list: with its region). The relative age
// (data-age) is filled in by lib/relative-age.ts like a static card's.
import navStrings from "../../../internal/i18n/strings/nav.json";
import newsStrings from "../../../internal/i18n/strings/news.json";
import regionStrings from "../../../internal/i18n/strings/region.json";
import type { Schemas } from "./api";
import { translator } from "./i18n";
import { itemLang } from "./lang";
import { formatLongDate } from "./numbers";

const regions: Record<string, string> = {
  India: "bg-orange-100 text-orange-900 dark:bg-orange-900/60 dark:text-orange-100",
  Global: "bg-sky-100 text-sky-900 dark:bg-sky-900/60 dark:text-sky-100",
};

const tNews = translator(newsStrings);
const tNav = translator(navStrings);
const tRegion = translator(regionStrings);

// longDate is a date written out (2 January 2006).
export const longDate = formatLongDate;

// categoryNames are the categories' names that differ from their values
// in the page's language (the generator's, from the page's props).
export function NewsCard({ n, categoryNames }: { n: Schemas["NewsItem"]; categoryNames?: Record<string, string> }) {
  const lang = itemLang(n.lang);
  return (
    <article className="flex min-w-0 flex-col wrap-anywhere rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900" data-news={n.slug}>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="inline-flex items-center rounded-full bg-brand-100 px-2 py-0.5 font-semibold text-brand-800 dark:bg-slate-700 dark:text-slate-100">{categoryNames?.[n.category] ?? n.category}</span>
        <span className={`inline-flex items-center rounded-full px-2 py-0.5 font-semibold ${regions[n.region] ?? ""}`} data-region="">
          {tRegion(`region.${n.region.toLowerCase()}`)}
        </span>
        <span className="ml-auto text-slate-600 dark:text-slate-300" data-age={n.publishedDate} />
      </div>
      <h3 className="mt-2 font-semibold leading-snug" lang={lang}>
        {n.title}
      </h3>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" lang={lang}>
        {n.excerpt}
      </p>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-x-4 gap-y-1 pt-3 text-sm text-slate-600 dark:text-slate-300">
        <p>
          <span className="font-medium text-slate-800 dark:text-slate-100">{n.source}</span> <span aria-hidden="true">·</span>{" "}
          <time dateTime={n.publishedDate}>{longDate(n.publishedDate)}</time>
        </p>
        <a href={n.sourceUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline dark:text-blue-300">
          {tNews("news.readMore")}
          <span className="sr-only">
            : {n.title} {tNav("nav.opensInNewTab")}
          </span>
        </a>
      </div>
    </article>
  );
}
