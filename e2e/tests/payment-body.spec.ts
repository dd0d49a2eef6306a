import { expect, test, type Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import { axeViolations, expectEvery, screenshot } from "./helpers";

// newestInForce is the newest circular of content/ from source that no
// other file supersedes and that is not withdrawn (ties: by slug), as
// the build's "Recent updates" must list it first.
function newestInForce(source: string): { slug: string; date: string } {
  const dir = new URL("../../content/circulars/", import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => ({ slug: f.slice(0, -3), text: readFileSync(new URL(f, dir), "utf8") }));
  const front = (text: string) => text.split("\n---")[0];
  const replaced = new Set(files.flatMap(({ text }) => [...(/^supersedes:\n((?:- .*\n)+)/m.exec(front(text))?.[1] ?? "").matchAll(/- (\S+)/g)].map((m) => m[1])));
  const candidates = files
    .filter(({ slug, text }) => {
      const f = front(text);
      return new RegExp(`^source: "?${source}"?$`, "m").test(f) && !/^withdrawn:/m.test(f) && !/^published: false/m.test(f) && !replaced.has(slug);
    })
    .map(({ slug, text }) => ({ slug, date: /^publishedDate: "?(\d{4}-\d{2}-\d{2})/m.exec(front(text))![1] }))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  return candidates[0];
}

// the circulars on screen: the pre-rendered page's, or those drawn from the API's answer
const cards = (page: Page) => page.locator("[data-static-page=body-circulars]:visible [data-list=body-circulars] > [data-fields]:visible, [data-api-list=body-circulars] [data-circular]");

test.describe("/payment-body/{body}", () => {
  test("the RBI profile, its circulars, related news and quick actions", async ({ page }, info) => {
    await page.goto("/payment-body/rbi");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reserve Bank of India");
    await expect(page.getByText("Sanjay Malhotra, Governor")).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: /^1935$/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Key functions" })).toBeVisible();
    await expect(page.getByRole("searchbox", { name: "Search RBI circulars" })).toHaveValue("RBI");
    const total = Number(await page.locator('[data-count="body-circulars"]').textContent());
    expect(total).toBeGreaterThan(30);
    await expect(cards(page)).toHaveCount(30); // the first page (generator.ListPageSize)
    await expect(page.locator("[data-list-range]")).toHaveText(`Showing 1–30 of ${total} circulars`);
    const news = page.getByRole("region", { name: "Related news" }).getByRole("listitem");
    expect(await news.count()).toBeGreaterThan(0);
    expect(await news.count()).toBeLessThanOrEqual(5);
    await expect(page.getByRole("link", { name: "View All News" })).toHaveAttribute("href", "/news");
    const actions = page.getByRole("region", { name: "Quick actions" });
    await expect(actions.getByRole("link", { name: "Search RBI circulars" })).toHaveAttribute("href", "/search?source=RBI");
    await expect(actions.getByRole("link", { name: "Open the Impact Tracker" })).toHaveAttribute("href", "/impact-tracker");
    await expect(actions.getByRole("link", { name: /Visit the RBI website/ })).toHaveAttribute("href", "https://www.rbi.org.in");
    await page.waitForSelector("[data-island-mounted]");
    await screenshot(page, info, "payment-body-rbi");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("Recent updates are derived: RBI's newest circular in content/ first", async ({ page }) => {
    const newest = newestInForce("RBI");
    await page.goto("/payment-body/rbi");
    const updates = page.getByRole("region", { name: "Recent updates" });
    await expect(updates).toContainText(/Newest circulars from RBI in RegPulse, leaving out those replaced or withdrawn as of/);
    const items = updates.getByRole("listitem");
    await expect(items).toHaveCount(5);
    await expect(items.first().getByRole("link")).toHaveAttribute("href", `/circulars/${newest.slug}`);
    await expect(items.first().locator("time")).toHaveAttribute("datetime", newest.date);
    await expect(updates.getByRole("link", { name: "All RBI circulars" })).toHaveAttribute("href", "/circulars/rbi");
  });

  test("search, sort and impact filter go through the API", async ({ page }) => {
    await page.goto("/payment-body/rbi");
    const search = page.getByRole("searchbox", { name: "Search RBI circulars" });
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/circulars")) asked.push(r.url());
    });

    await search.fill("tokenisation");
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    await expect(cards(page).first()).toContainText(/tokeni[sz]ation/i);
    const found = await cards(page).count();
    expect(found).toBeGreaterThan(0);
    expect(asked.at(-1)).toContain("source=RBI");
    expect(asked.at(-1)).toContain("search=tokenisation");
    await expect(page).toHaveURL(/q=tokenisation/);

    await search.fill("RBI");
    await page.getByRole("combobox", { name: "Impact level" }).selectOption("high");
    await expect(page).toHaveURL(/filter=high/);
    await expect.poll(() => asked.at(-1)).toContain("filter=high");
    await expect(cards(page).first()).toContainText("high Impact");
    await expectEvery(cards(page), (text) => text.includes("high Impact"));

    await page.getByRole("combobox", { name: "Impact level" }).selectOption("all");
    await page.getByRole("combobox", { name: "Sort by" }).selectOption("impact");
    await expect.poll(() => asked.at(-1)).toContain("sort=impact");
    await expect(cards(page).first()).toContainText("high Impact");
    const levels = (await cards(page).allTextContents()).map((t) => ["high", "medium", "low"].findIndex((l) => t.includes(`${l} Impact`)));
    expect(levels).toEqual([...levels].sort((a, b) => a - b));

    // reload keeps the view
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Sort by" })).toHaveValue("impact");

    await search.fill("no circular says this");
    await expect(page.getByText("No circulars found from Reserve Bank of India matching your search criteria.")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
  });

  test("loading skeletons while the API answers", async ({ page }) => {
    await page.route("**/api/circulars?*", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto("/payment-body/npci");
    await page.getByRole("combobox", { name: "Sort by" }).selectOption("impact");
    await expect(page.locator("[data-skeleton]")).toHaveCount(3);
    await expect(page.locator("[data-skeleton]")).toHaveCount(0);
    await expect(cards(page).first()).toBeVisible();
  });

  test("without the API the search runs in the browser", async ({ page }) => {
    await page.route("**/api/circulars?*", (route) => route.fulfill({ status: 404, contentType: "text/html", body: "<h1>Not found</h1>" }));
    await page.goto("/payment-body/npci");
    await page.getByRole("searchbox", { name: "Search NPCI circulars" }).fill("UPI Lite");
    await expect(page.getByText(/Live sorting is unavailable/)).toBeVisible();
    await expect(cards(page).first()).toContainText(/UPI Lite/i);
  });

  test("the body code is matched whatever its case", async ({ page, request }) => {
    for (const path of ["/payment-body/Rbi", "/payment-body/RBI", "/payment-body/sEbI"]) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/payment-body/${path.split("/")[2].toLowerCase()}$`));
      await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Payment Body Not Found");
    }
    // the server answers with a redirect, so it works without JavaScript too
    const res = await request.get("/payment-body/Npci", { maxRedirects: 0 });
    expect(res.status()).toBe(301);
    expect(res.headers().location).toBe("/payment-body/npci");
  });

  test("an unknown body: 'Payment Body Not Found' with status 404", async ({ page }, info) => {
    const res = await page.goto("/payment-body/xyz");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment Body Not Found");
    await expect(page.getByText("The requested payment body information could not be found.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/dashboard");
    await screenshot(page, info, "payment-body-not-found");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("the static host's not-found page sends a mis-cased code on", async ({ page }) => {
    // What a static host without the server's redirect serves for
    // /payment-body/Irdai: the not-found page, at that URL.
    const notFound = await (await page.request.get("/payment-body/404.html")).text();
    await page.route("**/payment-body/Irdai", (route) => route.fulfill({ status: 404, contentType: "text/html", body: notFound }));
    await page.goto("/payment-body/Irdai");
    await expect(page).toHaveURL(/\/payment-body\/irdai$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Insurance Regulatory and Development Authority of India");
  });

  test("dark mode passes axe", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/payment-body/npci");
    await page.waitForSelector("[data-island-mounted]");
    expect(await axeViolations(page)).toEqual([]);
  });
});
