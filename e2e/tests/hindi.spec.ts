import { expect, test } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// The Hindi site (issue 48): every page under /hi/, in Hindi, as
// accessible as the English one, linked both ways.

// A page of each template (the layout-shift spec measures every page of
// the sitemap in both languages).
const routes = [
  "/", "/dashboard", "/login", "/signup", "/join", "/search", "/news", "/news/page/2", "/impact-tracker", "/impact-tracker/high",
  "/global-fintech", "/pii-regulations", "/payment-networks", "/payment-networks/visa", "/newsletter",
  "/newsletter/subscribed", "/newsletter/unsubscribed", "/sibos-events", "/fintech-events", "/learning-videos", "/summarizer",
  "/fintech-leaders", "/publication-log", "/consultations", "/circulars", "/circulars/page/2", "/circulars/rbi",
  "/circulars/category/upi", "/payment-body", "/payment-body/rbi", "/payment-body/npci", "/master-directions",
  "/master-directions/ppi-2021", "/master-directions/ppi-2021/as-of/2023-02-10",
];

// pages titled by their content's name (a network, a regulator, a
// direction), which stays as written in every language
const namedByContent = new Set(["/payment-networks/visa", "/payment-body/rbi", "/payment-body/npci", "/master-directions/ppi-2021"]);

const hindi = (path: string) => (path === "/" ? "/hi/" : "/hi" + path);
const devanagari = /[\u0900-\u097F]/;

test.describe("the Hindi site", () => {
  for (const path of routes) {
    test(`${hindi(path)}: Hindi, accessible, linked to ${path}`, async ({ page }) => {
      const res = await page.goto(hindi(path));
      expect(res?.status()).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", "hi");
      // the shell's navigation is Hindi
      await expect(page.getByRole("link", { name: "डैशबोर्ड" }).first()).toBeAttached();
      if (namedByContent.has(path)) expect(await page.title()).toMatch(/ · RegPulse$/);
      else expect(await page.title()).toMatch(devanagari);
      const alternates = await page.locator('link[rel="alternate"][hreflang]').evaluateAll((ls) =>
        Object.fromEntries(ls.map((l) => [l.getAttribute("hreflang"), new URL(l.getAttribute("href")!).pathname])),
      );
      expect(alternates["hi-IN"].replace(/\/$/, "")).toBe(hindi(path).replace(/\/$/, ""));
      expect(alternates["en-IN"].replace(/(.)\/$/, "$1")).toBe(path);
      await expect(page.locator("[data-island]:not([data-load]):not([data-island-mounted])")).toHaveCount(0);
      expect(await axeViolations(page), hindi(path)).toEqual([]);
    });
  }

  test("the switcher keeps the page and its query, both ways", async ({ page }, info) => {
    await page.goto("/search?q=kyc");
    await page.locator("[data-language-switch]").click();
    await expect(page).toHaveURL(/\/hi\/search\?q=kyc$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "hi");
    await screenshot(page, info, "hindi-search");
    await page.locator("[data-language-switch]").click();
    await expect(page).toHaveURL(/\/search\?q=kyc$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("an unknown path under /hi/ is the Hindi 404 page, status 404", async ({ page }, info) => {
    const res = await page.goto("/hi/no-such-page");
    expect(res?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "hi");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(devanagari);
    await screenshot(page, info, "hindi-404");
  });

  test("a Hindi search finds what its English equivalent finds", async ({ request }) => {
    const ids = async (q: string) =>
      ((await (await request.get(`/api/search?q=${encodeURIComponent(q)}`)).json()).circulars as { id: string }[]).map((r) => r.id);
    const english = await ids("KYC");
    expect(english.length).toBeGreaterThan(0);
    expect((await ids("केवाईसी")).slice(0, 3)).toEqual(english.slice(0, 3));
  });

  test("the dashboard's islands work in Hindi", async ({ page }, info) => {
    await page.goto("/hi/");
    await expect(page.locator("[data-island]:not([data-load]):not([data-island-mounted])")).toHaveCount(0);
    await screenshot(page, info, "hindi-dashboard");
  });
});
