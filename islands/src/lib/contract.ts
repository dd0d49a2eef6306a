// The data-* contract between the templates, which write these attributes
// into the static pages, and the islands and the shell, which read them (a
// few they write themselves). Each name is spelt here once: islands use
// these constants and sel(), never the strings; the shell, which must not
// share a chunk with the islands, writes its three literals typed as
// `typeof` these constants, so tsc checks them. The tests run on pages the
// generator built from generator/testdata/content (src/test/fixture.ts), so
// a template that drops or renames an attribute fails them.
//
// Who writes each one (templates/…):
//   data-island, data-props     _partials/island.html
//   data-list                   _partials/data-list.html
//   data-fields                 _partials/data-fields.html
//   data-count                  _partials/count-badge.html
//   data-empty                  _partials/empty-state.html
//   data-group                  _partials/data-group.html (global-fintech.html,
//                               fintech-leaders.html)
//   data-pager                  fintech-leaders.html
//   data-heading                impact-tracker.html
//   data-news-top, data-news-results, data-news-heading      news.html
//   data-age                    _partials/news-card.html
//   data-quick-search           payment-networks.html
//   data-body-lookup            payment-body-missing.html
//   data-search-title, data-search-news, data-search-results-heading,
//   data-search-results, data-search="pending" on <html>     search.html
//   data-header-search, data-theme-choice                    _partials/header.html
//   data-load                   _partials/island.html
//   data-load-more, data-export, data-stat                   dashboard.html
//   data-static-page, data-api-list  _partials/paged-circulars.html, news.html
//   data-list-range             _partials/list-range.html
//   data-auth-slot, data-user-menu-src (read by shell/auth.ts and
//   shell/user-menu.tsx), data-profile-link (_partials/tabbar.html): the
//   header's Login or user menu and the tab bar's Profile link
//   data-newsletter-footer, data-newsletter-src (read by
//   shell/newsletter-footer.ts and newsletter-footer-island.tsx)
//                               _partials/footer.html
// Written by the code itself: data-island-mounted (runtime/mount.ts),
// data-skeleton (BodyCirculars), data-theme on <html> (shell/theme.ts),
// data-auth="pending" on <html> (the head's inline script; shell/auth.ts),
// data-toaster (lib/toast.tsx).
//
// Templates also write attributes that no island reads, for CSS and the
// browser tests (e2e/): data-band, data-score, data-score-bar,
// data-impact-count, data-entity, data-circular, data-region, data-video,
// data-sidebar, data-tabbar, data-source, data-ad-slot, data-ad-size, data-stat-card, data-sponsored, data-ad-title, data-auth-slot, data-profile-link,
// data-theme-switcher, data-preview (a card's preview), and for the generator's Go tests data-ai-summary
// (_partials/ai-summary.html).

type DataAttribute = `data-${string}`;

// Islands (runtime/mount.ts): the placeholder, its props as JSON, and the
// mark the loader leaves once the island is mounted.
export const dataIsland = "data-island";
export const dataProps = "data-props";
export const dataIslandMounted = "data-island-mounted";

// Static lists (lib/static-list.ts, lib/groups.ts): <div data-list="NAME">
// holds the cards, each with data-fields='{…}'; data-count="NAME" badges
// and a data-empty="NAME" block follow the list; data-group="NAME" wraps a
// list of a grouped page; data-pager="NAME" is the slot of its pager.
export const dataList = "data-list";
export const dataFields = "data-fields";
export const dataCount = "data-count";
export const dataEmpty = "data-empty";
export const dataGroup = "data-group";
export const dataPager = "data-pager";
// A heading an island rewrites (data-heading="entities").
export const dataHeading = "data-heading";
// Loading skeletons an island renders while it waits for the API.
export const dataSkeleton = "data-skeleton";

// /news (lib/news.ts, lib/relative-age.ts): the Top 5 blocks, the results
// list and its heading; data-age="YYYY-MM-DD" gets the relative age.
export const dataNewsTop = "data-news-top";
export const dataNewsResults = "data-news-results";
export const dataNewsHeading = "data-news-heading";
export const dataAge = "data-age";

// /payment-networks: quick-reference links, data-quick-search="TEXT".
export const dataQuickSearch = "data-quick-search";

// The shell: the header's search form, the theme buttons
// (data-theme-choice="light|dark|system"), the theme on <html>, and the
// known body codes on the /payment-body 404 page (space-separated).
export const dataHeaderSearch = "data-header-search";
export const dataThemeChoice = "data-theme-choice";
export const dataTheme = "data-theme";
export const dataBodyLookup = "data-body-lookup";
// /search: the h1 ('{source} Documents'), the recent news section shown
// for a chosen source, and the results' heading.
export const dataSearchTitle = "data-search-title";
export const dataSearchNews = "data-search-news";
export const dataSearchResultsHeading = "data-search-results-heading";
// /search with a query: the results section (data-search-results) and the
// news (data-search-news) are not shown while <html data-search="pending">, set by the page's inline script
// before first paint and cleared by the island once the results are in.
export const dataSearchResults = "data-search-results";
export const dataSearch = "data-search";
// The footer's newsletter form, mounted by the shell on first use.
export const dataNewsletterFooter = "data-newsletter-footer";
// A circular card's slot for its Summarize and Impact buttons, holding
// the circular's id (_partials/circular-card.html); CardActions fills it.
export const dataCardActions = "data-card-actions";

// Paged lists (generator/lists.go; _partials/paged-circulars.html,
// news.html): data-static-page="NAME" wraps the page's pre-rendered cards
// and their pager, which an island hides while it shows the API's answer
// in data-api-list="NAME"; data-list-range is the "Showing 1–30 of N" line
// (_partials/list-range.html).
export const dataStaticPage = "data-static-page";
export const dataApiList = "data-api-list";
export const dataListRange = "data-list-range";
export const dataNewsletterSrc = "data-newsletter-src";

// When an island mounts (_partials/island.html, runtime/mount.ts):
// data-load="visible" when it nears the viewport, "idle" when the
// browser is idle; absent, at once.
export const dataLoad = "data-load";
// The dashboard (dashboard.html): the slot under a list where its Load
// More button goes (data-load-more="LIST"), the bulk download links
// (data-export="csv|json", whose filter the list's island keeps in step)
// and each stat figure (data-stat="newCirculars"…, refreshed from the API).
export const dataLoadMore = "data-load-more";
export const dataExport = "data-export";
export const dataStat = "data-stat";
// Under a figure, the note shown while it is 0 (data-stat-zero="KEY"):
// when the last one came, the date in data-stat-last-date, read from the
// stats' field named by data-stat-last.
export const dataStatZero = "data-stat-zero";
export const dataStatLast = "data-stat-last";
export const dataStatLastDate = "data-stat-last-date";

// sel is the CSS selector of the elements that have the attribute or, given
// a value, have it with that value.
export function sel(attribute: DataAttribute, value?: string): string {
  return value === undefined ? `[${attribute}]` : `[${attribute}="${value}"]`;
}

// Showing and hiding is the hidden attribute, always: templates write it
// on what starts hidden (empty states, empty groups) and code sets it. Never
// a "hidden" class: Tailwind's preflight makes [hidden] display:none
// !important, so it wins over a card's own display class (flex, grid),
// while a class would fight that class.
export function setHidden(el: HTMLElement, hidden: boolean): void {
  el.hidden = hidden;
}

// setHiddenAll sets hidden on every element under root that matches the
// selector.
export function setHiddenAll(root: ParentNode, selector: string, hidden: boolean): void {
  for (const el of root.querySelectorAll<HTMLElement>(selector)) setHidden(el, hidden);
}
