import { expect, test, type Page } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// The paged lists (generator/lists.go): pre-rendered pages with plain
// links without JavaScript; with it, the islands page and filter through
// the API with the URL in step.

const cards = (page: Page, list: string) => page.locator(`[data-static-page="${list}"]:visible [data-circular], [data-api-list="${list}"] [data-circular]`);
const slugs = async (page: Page, list: string) => cards(page, list).evaluateAll((els) => els.map((e) => e.getAttribute("data-circular")));
const staticPager = (page: Page) => page.locator("[data-static-pager]");

test.describe("paged lists without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, list } of [
    { path: "/circulars", list: "circulars" },
    { path: "/search", list: "search-circulars" },
    { path: "/payment-body/rbi", list: "body-circulars" },
  ]) {
    test(`${path}: Next, Previous and page links, rel and canonical`, async ({ page }) => {
      await page.goto(path);
      const first = await slugs(page, list);
      expect(first.length).toBe(30);
      await expect(page.locator('link[rel="next"]')).toHaveAttribute("href", new RegExp(`${path}/page/2$`));
      await staticPager(page).getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}/page/2$`));
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${path}/page/2$`));
      await expect(page.locator('link[rel="prev"]')).toHaveAttribute("href", new RegExp(`${path}$`));
      await expect(staticPager(page).locator('[aria-current="page"]')).toHaveText("2");
      const second = await slugs(page, list);
      expect(second.length).toBeGreaterThan(0);
      expect(second.filter((s) => first.includes(s))).toEqual([]);
      // (each list read again until the page it went to has loaded: a
      // page still arriving shows part of its list)
      await staticPager(page).getByRole("link", { name: "Previous" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect.poll(() => slugs(page, list)).toEqual(first);
      await staticPager(page).getByRole("link", { name: "Page 2" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}/page/2$`));
      await expect.poll(() => slugs(page, list)).toEqual(second);
    });
  }

  test("/news: the full list's pages", async ({ page }) => {
    await page.goto("/news");
    const items = page.locator("[data-static-page=news] article");
    await expect(items).toHaveCount(30);
    await staticPager(page).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/news\/page\/2$/);
    // (counted again until page 2 has loaded: the URL changes first)
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    await expect(page.locator("[data-news-top]")).toHaveCount(0);
  });

  test("/impact-tracker: each list whole on its own pages", async ({ page }) => {
    await page.goto("/impact-tracker");
    const high = await page.locator('[data-list="high-circulars"] li h3 a').allTextContents();
    expect(high.length).toBeGreaterThan(0);
    await page.goto("/impact-tracker/high");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("High Impact Circulars");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/impact-tracker\/high$/);
    // today's list fits one page: the same circulars, in the same order
    expect(await page.locator('[data-list="high-circulars"] li h3 a').allTextContents()).toEqual(high);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Impact Tracker Dashboard" }).click();
    await expect(page).toHaveURL(/\/impact-tracker$/);
  });

  test("/circulars: the regulator and category links lead to their paged lists", async ({ page }) => {
    await page.goto("/circulars");
    await page.getByRole("navigation", { name: "Filter circulars" }).getByRole("link", { name: "RBI" }).click();
    await expect(page).toHaveURL(/\/circulars\/rbi$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("RBI Circulars");
    const sources = await cards(page, "circulars").evaluateAll((els) => els.map((e) => e.querySelector("[data-source]")?.textContent));
    expect(new Set(sources)).toEqual(new Set(["RBI"]));
    await page.getByRole("navigation", { name: "Filter circulars" }).getByRole("link", { name: "UPI" }).click();
    await expect(page).toHaveURL(/\/circulars\/category\/upi$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("UPI Circulars");
  });
});

test.describe("paged lists with JavaScript", () => {
  test("/circulars: filters and pages through the API; Back and Forward", async ({ page }, info) => {
    await page.goto("/circulars");
    await expect(page.locator("[data-island=CircularList][data-island-mounted]")).toBeAttached();
    const filters = page.getByRole("navigation", { name: "Filter circulars" });
    const asked: string[] = [];
    page.on("request", (r) => r.url().includes("/api/circulars?") && asked.push(new URL(r.url()).search));

    await filters.getByRole("link", { name: "RBI" }).click();
    await expect(page).toHaveURL(/\/circulars\/rbi$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("RBI Circulars");
    await expect(cards(page, "circulars").first()).toBeVisible();
    const rbi = await slugs(page, "circulars");
    expect(rbi.every((s) => s!.startsWith("rbi-"))).toBe(true);

    // both filters: a view no static page holds
    await filters.getByRole("link", { name: "Payment Systems" }).click();
    await expect(page).toHaveURL(/\/circulars\?source=RBI&category=Payment\+Systems$/);
    await expect.poll(() => slugs(page, "circulars")).not.toEqual(rbi);
    const both = await slugs(page, "circulars");
    expect(both.length).toBeGreaterThan(0);
    expect(asked.some((q) => q.includes("source=RBI") && q.includes("category=Payment+Systems"))).toBe(true);
    await screenshot(page, info, "circulars-filtered");

    await page.goBack();
    await expect(page).toHaveURL(/\/circulars\/rbi$/);
    await expect.poll(() => slugs(page, "circulars")).toEqual(rbi);
    await page.goBack();
    await expect(page).toHaveURL(/\/circulars$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Circulars");
    await page.goForward();
    await expect(page).toHaveURL(/\/circulars\/rbi$/);
    await expect.poll(() => slugs(page, "circulars")).toEqual(rbi);

    // the API list's pager: page 2 of RBI, at its own address
    await page.locator("[data-api-list=circulars]").getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/circulars\/rbi\/page\/2$/);
    await expect.poll(async () => (await slugs(page, "circulars")).some((s) => rbi.includes(s))).toBe(false);
    // a reload is the pre-rendered page of the same view, its cards as
    // the API's were drawn (previews included: Go's, from the answer; and
    // the "Superseded by" notes, naming the replacing circulars)
    const apiPage = await slugs(page, "circulars");
    const previews = (p: Page) => p.locator("[data-circular] [data-preview]").filter({ visible: true }).allTextContents();
    const notes = (p: Page) =>
      p.locator("[data-circular] [data-superseded]").filter({ visible: true })
        .evaluateAll((els) => els.map((e) => [e.textContent?.replace(/\s+/g, " ").trim(), ...[...e.querySelectorAll("a")].map((a) => a.getAttribute("href"))]));
    const apiPreviews = await previews(page);
    const apiNotes = await notes(page);
    expect(apiPreviews.length).toBe(apiPage.length);
    expect(apiNotes.length).toBeGreaterThan(0);
    await page.reload();
    expect(await slugs(page, "circulars")).toEqual(apiPage);
    expect(await previews(page)).toEqual(apiPreviews);
    expect(await notes(page)).toEqual(apiNotes);
  });

  test("/search: a regulator without a query pages through the API; Back restores", async ({ page }) => {
    await page.goto("/search");
    const all = await slugs(page, "search-circulars");
    await page.getByRole("combobox", { name: "Source" }).selectOption("NPCI");
    await expect(page).toHaveURL(/\/search\?source=NPCI$/);
    await expect.poll(async () => (await slugs(page, "search-circulars")).every((s) => s!.startsWith("npci-"))).toBe(true);
    await page.goBack();
    await expect(page).toHaveURL(/\/search$/);
    await expect.poll(() => slugs(page, "search-circulars")).toEqual(all);
  });

  test("/payment-body/rbi: a search pages through the API", async ({ page }) => {
    await page.goto("/payment-body/rbi");
    await expect(page.locator("[data-island=BodyCirculars][data-island-mounted]")).toBeAttached();
    await page.getByRole("combobox", { name: "Sort by" }).selectOption("impact");
    await expect(page).toHaveURL(/sort=impact/);
    await expect(page.locator("[data-api-list=body-circulars] [data-circular]").first()).toBeVisible();
    await expect(page.locator("[data-static-page=body-circulars]")).toBeHidden();
    const levels = await page.locator("[data-api-list=body-circulars] [data-circular]").evaluateAll((els) => els.map((e) => e.textContent!.match(/(high|medium|low) Impact/)![1]));
    const rank = { high: 0, medium: 1, low: 2 } as const;
    expect(levels).toEqual([...levels].sort((a, b) => rank[a as keyof typeof rank] - rank[b as keyof typeof rank]));
  });

  test("/news: a category asks the API, and page 2 keeps its list", async ({ page }) => {
    await page.goto("/news/page/2");
    await expect(page.locator("[data-island=NewsFilter][data-island-mounted]")).toBeAttached();
    await expect(page.locator("[data-static-page=news] article").first()).toBeVisible();
    await page.goto("/news");
    await page.getByRole("combobox", { name: "Category" }).selectOption("CBDC");
    await expect(page.locator("[data-api-list=news] article").first()).toBeVisible();
    const cats = await page.locator("[data-api-list=news] article").evaluateAll((els) => els.map((e) => e.querySelector("span")!.textContent));
    expect(new Set(cats)).toEqual(new Set(["CBDC"]));
  });

  test("/search without the API: the compact index, and a clear message", async ({ page }) => {
    await page.route("**/api/**", (route) => route.fulfill({ status: 503, body: "down" }));
    await page.goto("/search?q=tokenisation");
    await expect(page.getByText("The search service is unavailable", { exact: false })).toBeVisible();
    await expect(page.getByRole("region", { name: "Offline results" }).locator("[data-circular]").first()).toBeVisible();
    const titles = await page.getByRole("region", { name: "Offline results" }).locator("[data-circular] a").allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.every((t) => /tokeni[sz]ation/i.test(t))).toBe(true);
    // past its size the site has no index: the page says so
    await page.route("**/search-index.json", (route) => route.fulfill({ status: 404, body: "" }));
    await page.goto("/search?q=tokenisation");
    await expect(page.getByText("too large to search in your browser", { exact: false })).toBeVisible();
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`a paged page passes axe, ${scheme}`, async ({ page }, info) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/circulars/page/2");
      await expect(page.locator("[data-island=CircularList][data-island-mounted]")).toBeAttached();
      await screenshot(page, info, `circulars-page-2-${scheme}`);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
