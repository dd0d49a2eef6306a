import { readFileSync } from "node:fs";
import { expect, test, type Page, type Route } from "@playwright/test";

// Islands must reserve the space they take when they mount (issue 18): for
// every route, the islands' scripts are held until the static page has
// painted, then released, and the layout shifts of the whole visit are
// summed (shifts right after input excluded, as CLS does). The budget is
// Lighthouse's "good" CLS, and a sum is stricter than CLS's worst window.
const budget = 0.05;

// Every page of the built site's sitemap, with one representative of
// pages that share a template many times over (78 circulars), plus the
// routes the sitemap leaves out: a filtered directory, a missing page, and
// searches (with a query the results section waits, unseen, for the API's
// answer, which goes above it: one that answers, a question whose answer
// marks its fact, one with a correction and a filter, one that finds
// nothing).
function routes(): string[] {
  // sitemap.xml is an index of the sitemaps (generator/sitemap.go)
  const locs = (file: string) => [...readFileSync(new URL(`../../public/${file}`, import.meta.url), "utf8").matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  // the English pages; each is measured in Hindi too, under /hi/
  const paths = locs("sitemap.xml").flatMap((sitemap) => locs(sitemap.slice(1))).filter((p) => p !== "/hi/" && !p.startsWith("/hi/"));
  // circulars' pages, and the paged lists' further pages, share templates
  const circulars = paths.filter((p) => /^\/circulars\/[^/]+$/.test(p) && !/^\/circulars\/(page|category|[a-z]+$)/.test(p));
  const further = paths.filter((p) => /\/page\/\d+$/.test(p) || /^\/circulars\/(category\/|[a-z]+$)/.test(p));
  const picked = paths.filter((p) => !circulars.includes(p) && !further.includes(p));
  picked.push("/circulars/page/2", "/circulars/rbi", "/circulars/category/upi", "/news/page/2");
  picked.push(...new Set([circulars[0], circulars[Math.floor(circulars.length / 2)], circulars.at(-1)!]));
  picked.push("/payment-networks/?filter=visa", "/no-such-page");
  picked.push("/search?q=payment+aggregator", "/search?q=how+long+do+card+issuers+have+to+offer+a+choice+of+card+network");
  picked.push("/search?q=paymnet&source=RBI", "/search?q=zzqqxx");
  return [...picked, ...picked.map(hindi)];
}

// hindi is an English path's page in Hindi (internal/i18n Language.Path).
const hindi = (path: string) => (path === "/" ? "/hi/" : "/hi" + path);

// Signed out, as here, these pages send the reader to sign in first
// (location.replace once the island knows): the visit measured is the
// login page they land on.
const signInFirst = new Set(
  ["/obligations", "/profile", "/organisation", "/organisation/register", "/work", "/organisation/board"].flatMap((p) => [p, hindi(p)]),
);

type Shift = { value: number; sources: string[] };

// Installed before any of the page's own scripts: records every layout
// shift with the elements that moved, so a failure names them.
function observeShifts() {
  const w = window as unknown as { __shifts: Shift[] };
  w.__shifts = [];
  const describe = (n: Node | null) => {
    if (!(n instanceof Element)) return String(n?.nodeName ?? "?");
    const island = n.closest("[data-island]")?.getAttribute("data-island");
    return `${n.tagName.toLowerCase()}${n.id ? "#" + n.id : ""}${n.className && typeof n.className === "string" ? "." + n.className.trim().split(/\s+/).slice(0, 3).join(".") : ""}${island ? ` (in ${island})` : ""}`;
  };
  type Entry = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node: Node | null }[] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Entry[]) {
      if (!e.hadRecentInput) w.__shifts.push({ value: e.value, sources: (e.sources ?? []).map((s) => describe(s.node)) });
    }
  }).observe({ type: "layout-shift", buffered: true });
}

// sameOriginRequests counts the page's requests to the site still running
// (the islands' API calls), not any outside (images of other sites).
function sameOriginRequests(page: Page, origin: string) {
  let running = 0;
  const mine = (url: string) => url.startsWith(origin);
  page.on("request", (r) => mine(r.url()) && running++);
  page.on("requestfinished", (r) => mine(r.url()) && running--);
  page.on("requestfailed", (r) => mine(r.url()) && running--);
  return () => running;
}

const frames = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// holdScripts delays every script of the site until release is called.
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/.*\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

for (const path of routes()) {
  test(`${path}: no layout shift when the islands mount`, async ({ page, baseURL }) => {
    await page.addInitScript(observeShifts);
    const running = sameOriginRequests(page, baseURL!);
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: "commit" });
    // the static page has painted, scripts still held
    await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    release();
    if (signInFirst.has(path)) await page.waitForURL(/\/login\?next=/);
    await page.waitForLoadState("load");
    // every island that mounts at once or when idle has mounted (those
    // marked data-load="visible" wait for a scroll that never comes here;
    // the dashboard's spec scrolls to them and measures their shifts)
    await expect(page.locator('[data-island]:not([data-load="visible"]):not([data-island-mounted])')).toHaveCount(0);
    // the islands rendered, their own requests (API calls) answered, and
    // what those brought rendered
    await frames(page);
    await expect.poll(running).toBe(0);
    await frames(page);
    const shifts = await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
    const total = shifts.reduce((sum, s) => sum + s.value, 0);
    test.info().annotations.push({ type: "cls", description: total.toFixed(4) });
    console.log(`CLS ${test.info().project.name} ${path} ${total.toFixed(4)}`);
    expect(total, `layout shifts on ${path}: ${JSON.stringify(shifts)}`).toBeLessThan(budget);
  });
}
