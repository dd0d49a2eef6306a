import { expect, test, type Page } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// content/news holds 56 items, 41 from India and 15 global.
const total = 56;
// the list's cards on screen: drawn from the API's answer for a filter,
// else the pre-rendered page's
const results = (page: Page) => page.locator("[data-api-list=news] article, [data-static-page=news]:visible [data-list=news] > article:visible");
// settled waits until the API's answer to the latest filter is drawn.
const settled = (page: Page) => expect(page.locator("[data-api-list=news] > [aria-busy=false]")).toBeAttached();
const block = (page: Page, name: string) => page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name }) });
const age = /^\d+ (hours?|days?) ago$/;

test.describe("/news", () => {
  test("unfiltered: the two Top 5 blocks, card contents, light and dark", async ({ page }, info) => {
    await page.goto("/news");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fintech News & Updates");
    await page.waitForSelector("[data-island-mounted]");
    const india = block(page, "Top 5 India Fintech News");
    const global = block(page, "Top 5 Global Fintech News");
    await expect(india.locator("article")).toHaveCount(5);
    await expect(global.locator("article")).toHaveCount(5);
    // the flat list is only for filtering once JavaScript runs
    await expect(page.locator("[data-news-results]")).toBeHidden();
    await expect(page.getByRole("button", { name: "Clear Filters" })).toBeDisabled();
    await expect(page.getByRole("combobox", { name: "Category" })).toHaveValue("all");
    const options = await page.getByRole("combobox", { name: "Category" }).locator("option").allTextContents();
    expect(options).toEqual(["All Categories", "Payment Systems", "CBDC", "Sandbox", "Digital Banking", "Regulations"]);

    // newest first; each card complete
    const first = india.locator("article").first();
    await expect(first).toContainText("New RBI services-trade reporting rules leave international card payments in a grey area");
    await expect(first).toContainText("Regulations");
    await expect(first).toContainText("The Economic Times");
    await expect(first).toContainText("1 October 2026");
    const readMore = first.getByRole("link", { name: /^Read More/ });
    await expect(readMore).toHaveAttribute("target", "_blank");
    await expect(readMore).toHaveAttribute("href", /^https:\/\/economictimes\.indiatimes\.com\//);
    for (const text of await page.locator("article:visible [data-age]").allTextContents()) expect(text).toMatch(age);
    // the top blocks carry no region badge; global cards are global news
    await expect(india.locator("[data-region]")).toHaveCount(0);

    await screenshot(page, info, "news");
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/dark/);
    await screenshot(page, info, "news-dark");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("while a search is in flight it says so, and never 0 articles", async ({ page }) => {
    // hold the API's answers until the page has been looked at
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/news?*", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/news");
    await page.waitForSelector("[data-island-mounted]");
    const heading = page.locator("[data-news-heading]");
    await expect(heading).toHaveAttribute("aria-live", "polite");
    await page.getByRole("searchbox", { name: "Search news" }).fill("upi");
    await expect(heading).toBeVisible();
    await expect(heading).toHaveText("Searching…");
    await expect(page.getByText("No news articles found")).toBeHidden();
    release();
    await settled(page);
    await expect(heading).toHaveText(/^Search Results \((\d+) articles\)$/);
  });

  test("search, category, Clear Filters, empty state and the URL", async ({ page }, info) => {
    await page.goto("/news");
    await page.waitForSelector("[data-island-mounted]");
    const search = page.getByRole("searchbox", { name: "Search news" });
    const heading = page.locator("[data-news-heading]");

    await search.fill("upi");
    await expect(page).toHaveURL(/\?q=upi$/);
    await expect(page.locator("[data-news-top]")).toBeHidden();
    await settled(page);
    const n = await results(page).count();
    expect(n).toBeGreaterThan(1);
    expect(n).toBeLessThan(total);
    await expect(heading).toHaveText(`Search Results (${n} articles)`);
    await expect(results(page).first()).toContainText(/upi/i);
    for (const card of await results(page).all()) {
      await expect(card.locator("[data-region]")).toHaveText(/^(India|Global)$/);
      await expect(card.locator("[data-age]")).toHaveText(age);
    }
    await screenshot(page, info, "news-search");
    expect(await axeViolations(page)).toEqual([]);

    // the category alone filters too, across both regions
    await search.fill("");
    await page.getByRole("combobox", { name: "Category" }).selectOption("CBDC");
    await expect(page).toHaveURL(/\?category=CBDC$/);
    await settled(page);
    const cbdc = await results(page).count();
    expect(cbdc).toBeGreaterThan(0);
    await expect(heading).toHaveText(new RegExp(`^Search Results \\(${cbdc} articles?\\)$`));
    for (const card of await results(page).all()) await expect(card.locator("span").first()).toHaveText("CBDC");

    // the filtered view survives a reload
    await search.fill("rupee");
    await expect(page).toHaveURL(/q=rupee/);
    await settled(page);
    const both = await results(page).count();
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Category" })).toHaveValue("CBDC");
    await expect(search).toHaveValue("rupee");
    await expect(results(page)).toHaveCount(both);

    await search.fill("xyzzy no such news");
    await expect(results(page)).toHaveCount(0);
    await expect(heading).toHaveText("Search Results (0 articles)");
    await expect(page.getByText("No news articles found")).toBeVisible();
    await expect(page.getByText("Try adjusting your filter or check back later for updates")).toBeVisible();

    await page.getByRole("button", { name: "Clear Filters" }).click();
    await expect(page).toHaveURL(/\/news$/);
    await expect(search).toHaveValue("");
    await expect(page.locator("[data-news-top]")).toBeVisible();
    await expect(page.locator("[data-news-results]")).toBeHidden();
    await expect(page.getByText("No news articles found")).toBeHidden();
  });

  test.describe("relative age from the reader's clock", () => {
    test.use({ timezoneId: "Asia/Kolkata" });
    for (const [now, want] of [
      ["2026-10-01T05:00:00+05:30", "5 hours ago"],
      ["2026-10-01T23:59:00+05:30", "23 hours ago"],
      ["2026-10-02T00:00:00+05:30", "1 day ago"],
      ["2026-10-08T10:00:00+05:30", "7 days ago"],
    ] as const) {
      test(`${now}: ${want}`, async ({ page }) => {
        await page.clock.setFixedTime(new Date(now));
        await page.goto("/news");
        // the newest item, published 2026-10-01
        await expect(page.locator("[data-news-top] article").first().locator("[data-age]")).toHaveText(want);
      });
    }
  });

  test("works without JavaScript: both blocks, then all news", async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/news");
    await expect(page.locator("[data-news-top] article")).toHaveCount(10);
    await expect(page.getByRole("heading", { level: 2, name: `All news (${total} articles)` })).toBeVisible();
    // every item, 30 a page (generator.ListPageSize), by the pager's links
    const regions: string[] = [];
    for (;;) {
      await expect(page.getByText("No news articles found")).toBeHidden();
      regions.push(...(await page.locator("[data-list=news] [data-region]").allTextContents()));
      const next = page.locator("[data-static-pager]").getByRole("link", { name: "Next" });
      if ((await next.count()) === 0) break;
      // the next page is read once it is the page (not while the click's
      // navigation is under way, when the old one may be half gone)
      const href = (await next.getAttribute("href"))!;
      await next.click();
      await page.waitForURL((u) => u.pathname.replace(/\/$/, "") === href.replace(/\/$/, ""));
      await page.waitForLoadState("load");
    }
    expect(regions).toHaveLength(total);
    expect(regions.filter((r) => r === "India")).toHaveLength(41);
    expect(regions.filter((r) => r === "Global")).toHaveLength(15);
    await ctx.close();
  });
});
