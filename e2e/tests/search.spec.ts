import { expect, test, type Page } from "@playwright/test";
import { axeViolations, expectEvery, holdRequests, isMobile, screenshot } from "./helpers";

// the circulars on screen: the pre-rendered page's, those drawn from the
// API's answer, or the offline index's
const cards = (page: Page) =>
  page.locator("[data-static-page=search-circulars]:visible [data-circular], [data-api-list=search-circulars] [data-circular], [aria-label='Offline results'] [data-circular]");
const box = (page: Page) => page.getByRole("searchbox", { name: "Search text" });
const pager = (page: Page) => page.getByRole("navigation", { name: "Search results pages" });

async function search(page: Page, q: string) {
  await box(page).fill(q);
  await box(page).press("Enter");
}

async function mounted(page: Page) {
  await page.waitForSelector("[data-island=Search][data-island-mounted]");
}

test.describe("/search", () => {
  test("without a query: every circular, a page at a time, filtered by source and category, with the source's news", async ({ page }, info) => {
    await page.goto("/search");
    await mounted(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search Regulatory Documents");
    const total = Number(await page.locator('[data-count="search-circulars"]').first().textContent());
    expect(total).toBeGreaterThan(40);
    await expect(cards(page)).toHaveCount(30); // the first page (generator.ListPageSize)

    await page.getByRole("combobox", { name: "Source" }).selectOption("NPCI");
    await expect(page).toHaveURL(/source=NPCI/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("NPCI Documents");
    await expect(page).toHaveTitle(/NPCI Documents/);
    await expectEvery(cards(page), (text) => text.includes("NPCI"));
    const news = page.locator("[data-list=search-news] > [data-fields]:visible");
    expect(await news.count()).toBeGreaterThan(0);
    expect(await news.count()).toBeLessThanOrEqual(3);

    await page.getByRole("combobox", { name: "Category" }).selectOption("UPI");
    await expect(page).toHaveURL(/category=UPI/);
    // the filtered answer may still be on its way: wait for its cards
    await expect(cards(page).first()).toBeVisible();
    await expectEvery(cards(page), (text) => text.includes("UPI"));
    await screenshot(page, info, "search-npci-upi");

    await page.getByRole("button", { name: "Clear Filters" }).click();
    await expect(page).toHaveURL(/\/search$/);
    await expect(cards(page)).toHaveCount(30);
  });

  test("the sidebar's PFRDA link lands on PFRDA's documents", async ({ page }, info) => {
    test.skip(isMobile(info), "the sidebar is hidden on phones");
    await page.goto("/dashboard");
    await page.locator("[data-sidebar]").getByRole("link", { name: "PFRDA" }).click();
    await expect(page).toHaveURL(/\/search\?source=PFRDA$/);
    await mounted(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("PFRDA Documents");
    await expectEvery(cards(page), (text) => text.includes("PFRDA"));
  });

  test("the header's search box lands here with the query", async ({ page }, info) => {
    test.skip(isMobile(info), "the header shows a search icon on phones");
    await page.goto("/news");
    await page.getByRole("searchbox", { name: "Search circulars" }).fill("card tokenisation");
    await page.getByRole("searchbox", { name: "Search circulars" }).press("Enter");
    await expect(page).toHaveURL(/\/search\?q=card(\+|%20)tokenisation/);
    await mounted(page);
    await expect(box(page)).toHaveValue("card tokenisation");
    await expect(cards(page).first()).toContainText(/tokenisation/i);
  });

  test("a circular number finds its circular first, with a direct answer, its sources and a feed", async ({ page }, info) => {
    await page.goto("/search");
    await mounted(page);
    await search(page, "RBI/2021-22/96");
    await expect(page).toHaveURL(/q=RBI%2F2021-22%2F96/);
    await expect(page.getByRole("heading", { name: /Results for/ })).toBeVisible();
    await expect(cards(page).first()).toHaveAttribute("data-circular", "rbi-2021-09-07-card-on-file-tokenisation");
    const answer = page.getByRole("region", { name: "Direct Answer" });
    await expect(answer).toContainText(/Confidence: \d+%/);
    await expect(answer).toContainText("Extracted from the circulars");
    await expect(answer.getByRole("link").first()).toHaveAttribute("href", /^\/circulars\//);
    await expect(answer.locator("mark").first()).toBeVisible();
    const feed = page.getByRole("link", { name: "Atom feed of this search" });
    await expect(feed).toHaveAttribute("href", "/api/search/feed?q=RBI%2F2021-22%2F96");
    const res = await page.request.get((await feed.getAttribute("href"))!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/atom+xml");
    expect(await res.text()).toContain("<entry>");
    await screenshot(page, info, "search-number");
  });

  test("a plain question: the sentence stating the fact, the fact marked, its circular cited", async ({ page }, info) => {
    await page.goto("/search?q=" + encodeURIComponent("how long do card issuers have to offer a choice of card network"));
    await mounted(page);
    const answer = page.getByRole("region", { name: "Direct Answer" });
    await expect(answer).toContainText("Issuers have six months from the circular's date to comply.");
    await expect(answer).toContainText("Extracted from the circulars");
    const fact = answer.locator("mark[data-fact]");
    await expect(fact).toHaveText("six months");
    await expect(fact).toBeVisible();
    // marked for the eye, and said for screen readers
    expect(await fact.evaluate((e) => getComputedStyle(e).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
    await expect(answer).toContainText("(The time limit asked for: six months.)");
    await expect(answer.getByRole("link").first()).toHaveAttribute("href", "/circulars/rbi-2024-03-06-card-network-choice");
    // the card fits the screen, at 390 px too: nothing scrolls sideways
    const box = (await answer.boundingBox())!;
    const width = page.viewportSize()!.width;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await answer.screenshot({ path: `screenshots/${info.project.name}/search-fact.png` });
    await screenshot(page, info, "search-question");

    // a question the circulars do not answer gets no answer
    await search(page, "what is the maximum fine for a data breach under the DPDP Act");
    await expect(answer).toContainText("No passage answers this query with enough confidence");
    await expect(answer.locator("mark[data-fact]")).toHaveCount(0);
  });

  test("Back and Forward step through searches", async ({ page }) => {
    await page.goto("/search");
    await mounted(page);
    await search(page, "payment aggregators");
    await expect(cards(page).first()).toContainText(/aggregator/i);
    await search(page, "bima sugam");
    await expect(cards(page).first()).toContainText(/Bima Sugam/i);
    await page.goBack();
    await expect(page).toHaveURL(/q=payment\+aggregators/);
    await expect(box(page)).toHaveValue("payment aggregators");
    await expect(cards(page).first()).toContainText(/aggregator/i);
    await page.goForward();
    await expect(box(page)).toHaveValue("bima sugam");
    await expect(cards(page).first()).toContainText(/Bima Sugam/i);
  });

  test("UPI searches: the banner, five circulars a page, the pager, and filters back to page 1", async ({ page }, info) => {
    await page.goto("/search?q=upi");
    await mounted(page);
    await expect(page.getByRole("note")).toContainText("sorted latest first, 5 circulars per page");
    await expect(cards(page)).toHaveCount(5);
    await expect(pager(page)).toBeVisible();
    await expect(pager(page).getByRole("button", { name: "Previous" })).toBeDisabled();
    await expect(pager(page).getByRole("button", { name: "Next" })).toBeEnabled();
    const numbers = pager(page).getByRole("button", { name: /^Page \d+$/ });
    expect(await numbers.count()).toBeGreaterThan(1);
    expect(await numbers.count()).toBeLessThanOrEqual(5);
    await expect(pager(page).getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    await screenshot(page, info, "search-upi");

    await pager(page).getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(pager(page).getByRole("button", { name: "Previous" })).toBeEnabled();
    await expect(pager(page).getByRole("button", { name: "Page 2" })).toHaveAttribute("aria-current", "page");

    // facet counts in the options; choosing one resets the page
    await expect(page.getByRole("combobox", { name: "Source" }).locator("option", { hasText: /^NPCI \(\d+\)$/ })).toHaveCount(1);
    await page.getByRole("combobox", { name: "Source" }).selectOption("NPCI");
    await expect(page).toHaveURL(/source=NPCI/);
    await expect(page).not.toHaveURL(/page=/);
    await expectEvery(cards(page), (text) => text.includes("NPCI"));
  });

  test("a misspelt query says what it searched; nothing found says so", async ({ page }) => {
    await page.goto("/search?q=tokenisaton");
    await mounted(page);
    await expect(page.getByText("Showing results for")).toContainText("tokenisation");
    await expect(cards(page).first()).toContainText(/tokenisation/i);
    await search(page, "qqqqqqqq zzzzzzzz");
    await expect(page.getByText("No results found")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await expect(pager(page)).toHaveCount(0);
  });

  test("five placeholders while the API works", async ({ page }) => {
    const { release } = await holdRequests(page, "**/api/search?*");
    await page.goto("/search?q=tokenisation");
    await mounted(page);
    await expect(page.locator("[data-skeleton]")).toHaveCount(5);
    release();
    await expect(page.locator("[data-skeleton]")).toHaveCount(0);
    await expect(cards(page).first()).toBeVisible();
  });

  test("without the API (a static host) a query searches the compact index and says so", async ({ page }) => {
    await page.route("**/api/search?*", (route) => route.fulfill({ status: 404, contentType: "text/html", body: "<h1>Not found</h1>" }));
    await page.goto("/search?q=tokenisation");
    await mounted(page);
    await expect(page.getByText("The search service is unavailable")).toBeVisible();
    // the compact index arrives after the message: wait for its cards
    await expect(cards(page).first()).toBeVisible();
    await expectEvery(cards(page), (text) => text.toLowerCase().includes("tokeni"));
  });

  test("with a query, the static list waits unseen for the results, and shows if the island never mounts", async ({ page }) => {
    // the island's script never arrives
    await page.route(/\/assets\/Search-.*\.js$/, (route) => route.abort());
    // the page's own clock, moved on rather than waited for
    await page.clock.install();
    await page.goto("/search?q=tokenisation");
    await expect(page.locator("html")).toHaveAttribute("data-search", "pending");
    await expect(page.locator("[data-search-results]")).toBeHidden();
    // the page's own fallback, 10 s after it loaded
    await page.clock.fastForward(10_000);
    await expect(page.locator("[data-search-results]")).toBeVisible();
    expect(await cards(page).count()).toBe(30); // the first page
  });

  for (const theme of ["light", "dark"] as const) {
    test(`axe finds nothing in the ${theme} theme`, async ({ page }, info) => {
      // Every circular is in the page (most of them hidden): axe takes a while.
      test.setTimeout(120_000);
      await page.addInitScript((t) => localStorage.setItem("regpulse-theme", t), theme);
      await page.goto("/search?q=what+is+the+UPI+Lite+wallet+limit");
      await mounted(page);
      await expect(page.getByRole("region", { name: "Direct Answer" })).toBeVisible();
      // the asked fact is marked: its colours are checked too
      await expect(page.getByRole("region", { name: "Direct Answer" }).locator("mark[data-fact]")).toBeVisible();
      await expect(pager(page)).toBeVisible();
      await screenshot(page, info, `search-answer-${theme}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.goto("/search?source=NPCI");
      await mounted(page);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
