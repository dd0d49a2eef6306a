import { expect, test } from "@playwright/test";
import { axeViolations, holdRequests, screenshot } from "./helpers";

test.describe("circulars", () => {
  test("list, card links and the circular page", async ({ page }, info) => {
    await page.goto("/circulars");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Circulars");
    // a 2020 circular is a few pages in: Next until it shows
    const card = page.locator('[data-circular="rbi-2020-03-17-payment-aggregators-gateways-guidelines"]');
    while ((await card.count()) === 0) await page.locator("[data-static-pager]").getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/circulars\/page\/\d+$/);
    await expect(card).toContainText("DPSS.CO.PD.No.1810/02.14.008/2019-20");
    await expect(card).toContainText("Mar 17, 2020");
    await expect(card).toContainText("high Impact");
    await screenshot(page, info, "circulars");

    await card.getByRole("link", { name: /^Details/ }).click();
    await expect(page).toHaveURL(/\/circulars\/rbi-2020-03-17-payment-aggregators-gateways-guidelines$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Guidelines on Regulation of Payment Aggregators and Payment Gateways");
    await expect(page.getByText("March 17, 2020")).toBeVisible();
    await expect(page.locator('[data-entity="Aggregator"]')).toContainText("high Impact");
    await expect(page.getByRole("link", { name: /^Source/ }).first()).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("heading", { name: "Related circulars" })).toBeVisible();
    await expect(page.locator('link[rel="alternate"][href="/feeds/rbi.atom"]')).toHaveCount(1);
    await screenshot(page, info, "circular-page");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("document types, supersession and compliance dates, light and dark", async ({ page }, info) => {
    // the 2019 e-mandate circular is replaced by the 2026 framework
    await page.goto("/circulars/rbi-2019-08-21-e-mandate-cards-recurring");
    const note = page.locator("[data-superseded]");
    await expect(note).toContainText("Superseded by");
    await note.getByRole("link").click();
    await expect(page).toHaveURL(/\/circulars\/rbi-2026-04-21-e-mandate-framework-2026$/);
    await expect(page.locator("[data-doctype]").first()).toHaveText("Directions");
    const replaces = page.getByRole("heading", { name: "Replaces" });
    await expect(replaces).toBeVisible();
    await expect(page.locator("[data-replaces] li")).toHaveCount(4);

    // a draft says it obliges no one, and lists its comments date
    await page.goto("/circulars/rbi-2026-04-22-ppi-master-direction-draft");
    await expect(page.locator("[data-doctype]").first()).toHaveText("Draft for comments");
    await expect(page.locator("[data-draft-note]")).toContainText("obliges no one");
    await expect(page.locator("[data-compliance-dates] li").first()).toContainText("Comments due");
    await expect(page.getByRole("link", { name: "the compliance calendar" })).toHaveAttribute("href", "/feeds/compliance.ics");
    await screenshot(page, info, "circular-draft");
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/dark/);
    expect(await axeViolations(page)).toEqual([]);
  });

  test("verification: labels on cards and pages, the page's note, the API's filter, light and dark", async ({ page, request }, info) => {
    await page.goto("/circulars");
    const label = (slug: string) => page.locator(`[data-circular="${slug}"] [data-verification]`);
    await expect(label("rbi-2026-09-22-fema-export-import-amendment")).toHaveText("As reported: not yet checked");
    await expect(label("rbi-2026-09-22-fema-export-import-amendment")).toHaveAttribute("data-verification", "reported");
    await expect(label("sebi-2026-08-24-it-resilience-index-miis")).toHaveText("Awaiting verification");
    // a circular whose entry makes no claim has no label
    await expect(label("rbi-2020-03-17-payment-aggregators-gateways-guidelines")).toHaveCount(0);
    await screenshot(page, info, "circulars-verification");

    await page.goto("/circulars/rbi-2026-09-22-fema-export-import-amendment");
    await expect(page.locator("article [data-verification]").first()).toHaveText("As reported: not yet checked");
    const note = page.locator('[data-verification-note="reported"]');
    await expect(note).toBeVisible();
    await expect(note).toContainText("has not yet been checked against the regulator's own text");
    await expect(page.getByRole("link", { name: /^View Official Document/ }).first()).toHaveAttribute("href", "https://www.rbi.org.in/scripts/NotificationUser.aspx?Id=13714&Mode=0");
    await screenshot(page, info, "circular-reported");
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/dark/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, info, "circular-reported-dark");

    // The API filters by it, in any case, and refuses an unknown value.
    for (const v of ["reported", "pending"]) {
      const res = await request.get(`/api/circulars?verification=${v.toUpperCase()}&limit=100`);
      expect(res.status()).toBe(200);
      const rows = (await res.json()) as { slug: string; verification: string | null }[];
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.verification === v)).toBe(true);
      expect(res.headers()["x-total-count"]).toBe(String(rows.length));
    }
    const reported = (await (await request.get("/api/circulars?verification=reported&limit=100")).json()) as { slug: string }[];
    expect(reported.map((r) => r.slug)).toContain("rbi-2026-09-22-fema-export-import-amendment");
    const bad = await request.get("/api/circulars?verification=verified");
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string> }).fields.verification).toContain("unknown verification");
    const stats = await (await request.get("/api/dashboard/stats")).json();
    const pending = (await (await request.get("/api/circulars?verification=pending&limit=100")).json()) as unknown[];
    expect(stats.awaitingVerification).toBe(reported.length + pending.length);
  });

  test("every card has Summarize and Impact, with their toasts", async ({ page }, info) => {
    await page.goto("/circulars");
    const card = page.locator("[data-circular]").first();
    const summarize = card.getByRole("button", { name: "Summarize" });
    const impact = card.getByRole("button", { name: "Impact" });
    await expect(summarize).toBeEnabled();
    expect(await page.getByRole("button", { name: "Summarize" }).count()).toBe(await page.locator("[data-circular]").count());

    // both buttons wait while a call runs
    const { release } = await holdRequests(page, "**/api/circulars/*/impact");
    await impact.click();
    await expect(summarize).toBeDisabled();
    await expect(impact).toBeDisabled();
    release();
    await expect(page.getByText("Impact Analysis Complete", { exact: true })).toBeVisible();
    await expect(page.getByText(/^Impact level: (high|medium|low)\. See detailed analysis\.$/)).toBeVisible();
    await expect(card.locator("[data-impact-analysis] li").first()).toBeAttached();

    await summarize.click();
    await expect(page.getByText("Summary Generated", { exact: true })).toBeVisible();
    await expect(card.locator("[data-ai-summary]")).toContainText("AI-generated summary");
    await screenshot(page, info, "circulars-card-actions");

    // a failure says so
    await page.route("**/api/circulars/*/summarize", (route) => route.fulfill({ status: 500, body: "{}" }));
    await page.locator('[data-circular] button:text-is("Summarize")').nth(3).click();
    await expect(page.getByText("Failed to generate summary. Please try again.", { exact: true })).toBeVisible();
  });

  test("the compliance calendar is served as text/calendar", async ({ request }) => {
    const res = await request.get("/feeds/compliance.ics");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
    const body = await res.text();
    expect(body.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(body).toContain("BEGIN:VEVENT");
  });

  test("feeds are served with feed content types", async ({ request }) => {
    const atom = await request.get("/feeds/circulars.atom");
    expect(atom.status()).toBe(200);
    expect(await atom.text()).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    const json = await request.get("/feeds/npci.json");
    expect(json.status()).toBe(200);
    expect((await json.json()).version).toBe("https://jsonfeed.org/version/1.1");
    // sitemap.xml is an index of sitemaps of the pages
    const index = await (await request.get("/sitemap.xml")).text();
    expect(index).toContain("<sitemapindex");
    const first = /<loc>[^<]*?(\/sitemaps\/1\.xml)<\/loc>/.exec(index)![1];
    const sitemap = await request.get(first);
    expect(sitemap.status()).toBe(200);
    expect(await sitemap.text()).toContain("/circulars/page/2</loc>");
  });
});
