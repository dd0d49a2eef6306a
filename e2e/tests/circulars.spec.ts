import { expect, test } from "@playwright/test";
import { axeViolations, holdRequests, screenshot } from "./helpers";

test.describe("circulars", () => {
  test("list, card links and the circular page", async ({ page }, info) => {
    await page.goto("/circulars");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Circulars");
    // a 2020 circular is a few pages in: Next until it shows
    const card = page.locator('[data-circular="rbi-2020-03-17-payment-aggregators-gateways-guidelines"]');
    // each click waits for the next page's document: counting while the old one is still shown skips a page
    while ((await card.count()) === 0) {
      const before = page.url();
      await page.locator("[data-static-pager]").getByRole("link", { name: "Next" }).click();
      await page.waitForURL((url) => url.toString() !== before, { waitUntil: "domcontentloaded" });
    }
    await expect(page).toHaveURL(/\/circulars\/page\/\d+$/);
    await expect(card).toContainText("DPSS.CO.PD.No.1810/02.14.008/2019-20");
    await expect(card).toContainText("17 Mar 2020");
    await expect(card).toContainText("high Impact");
    await screenshot(page, info, "circulars");

    await card.getByRole("link", { name: /^Details/ }).click();
    await expect(page).toHaveURL(/\/circulars\/rbi-2020-03-17-payment-aggregators-gateways-guidelines$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Guidelines on Regulation of Payment Aggregators and Payment Gateways");
    await expect(page.getByText("17 March 2020")).toBeVisible();
    await expect(page.locator('[data-entity="Aggregator"]')).toContainText("high Impact");
    await expect(page.locator("[data-source-links] a").first()).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("heading", { name: "Related circulars" })).toBeVisible();
    await expect(page.locator('link[rel="alternate"][href="/feeds/rbi.atom"]')).toHaveCount(1);
    await screenshot(page, info, "circular-page");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("document types, supersession and compliance dates, light and dark", async ({ page }, info) => {
    // the 2019 e-mandate circular is replaced by the 2026 framework
    await page.goto("/circulars/rbi-2019-08-21-e-mandate-cards-recurring");
    // the page's own note (its related cards may carry theirs)
    const note = page.locator("[data-superseded]").first();
    await expect(note).toContainText("Superseded by");
    await note.getByRole("link").click();
    await expect(page).toHaveURL(/\/circulars\/rbi-2026-04-21-e-mandate-framework-2026$/);
    await expect(page.locator("[data-doctype]").first()).toHaveText("Directions");
    const replaces = page.getByRole("heading", { name: "Replaces" });
    await expect(replaces).toBeVisible();
    await expect(page.locator("[data-replaces] li")).toHaveCount(4);

    // a draft says it obliges no one, and gives its comment deadline
    // (closed by now), which /consultations lists
    await page.goto("/circulars/rbi-2026-04-22-ppi-master-direction-draft");
    await expect(page.locator("[data-doctype]").first()).toHaveText("Draft for comments");
    await expect(page.locator("[data-draft-note]")).toContainText("obliges no one");
    await expect(page.locator("[data-comments-due]")).toContainText("Comments due");
    await expect(page.locator("[data-comments-due] time")).toHaveAttribute("datetime", "2026-05-22");
    // the compliance dates and the obligations both link the calendar
    await expect(page.getByRole("link", { name: "the compliance calendar" }).first()).toHaveAttribute("href", "/feeds/compliance.ics");
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
    await expect(page.locator("[data-source-links] a").first()).toHaveAttribute("href", "https://www.rbi.org.in/scripts/NotificationUser.aspx?Id=13714&Mode=0");
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

  test("sources: the regulator's page first, every other link labelled, in the page, the feed and the CSV", async ({ page, request }, info) => {
    // The card tokenisation circular: its official page (from
    // official-urls.json) first, the manupatra report labelled, the job
    // site it used to cite gone; its follow-up through card issuers among
    // its related circulars.
    await page.goto("/circulars/rbi-2019-01-08-card-tokenisation");
    const links = page.locator("[data-source-links] a");
    await expect(links.first()).toHaveText(/^View on rbi\.org\.in/);
    await expect(links.first()).toHaveAttribute("href", "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=11449");
    await expect(links.first()).toHaveAttribute("data-source-kind", "official");
    await expect(links.first()).toHaveAttribute("target", "_blank");
    await expect(links.nth(1)).toHaveText(/^Reported by roundup\.manupatra\.in/);
    await expect(page.locator('a[href*="ifsccodeof.in"]')).toHaveCount(0);
    await expect(page.locator("[data-no-official]")).toHaveCount(0);
    await expect(page.locator('section[aria-labelledby="related-heading"] [data-circular="rbi-2023-12-20-coft-through-card-issuers"]')).toHaveCount(1);
    // the official link comes before the text
    const linksBox = await page.locator("[data-source-links]").boundingBox();
    const textBox = await page.locator('section[aria-label="Content"]').boundingBox();
    expect(linksBox!.y).toBeLessThan(textBox!.y);
    await screenshot(page, info, "circular-sources-official");

    // A circular with no official page: its weak links are kept, each
    // labelled an unofficial copy with its host, and the page says so.
    await page.goto("/circulars/npci-2024-08-27-upi-lite-auto-topup");
    const copies = page.locator('[data-source-links] a[data-source-kind="unofficial"]');
    await expect(copies).toHaveCount(1); // its restaurant-site mirror was removed (issue 43)
    for (const text of await copies.allTextContents()) expect(text.replace(/\s+/g, " ").trim()).toMatch(/^Unofficial copy on [a-z0-9.-]+\.[a-z]+ \(/);
    await expect(page.locator("[data-source-links] a").first()).toHaveText(/^\s*Unofficial copy on thespuzz\.com/);
    await expect(page.locator("[data-no-official]")).toContainText("We have not found the NPCI's own page");
    await screenshot(page, info, "circular-sources-unofficial");
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/dark/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, info, "circular-sources-unofficial-dark");

    // No circular page links a weak source without its label: every link
    // of the sources says what it is.
    for (const slug of ["rbi-2020-01-10-e-mandate-framework-circular", "pfrda-2025-12-12-nps-exits-withdrawals-amendment", "irdai-2022-09-02-cyber-guidelines-intermediaries"]) {
      await page.goto(`/circulars/${slug}`);
      for (const a of await page.locator("[data-source-links] a").all()) {
        const kind = await a.getAttribute("data-source-kind");
        const label = { official: /^View on /, report: /^Reported by /, unofficial: /^\s*Unofficial copy on / }[kind as "official" | "report" | "unofficial"];
        await expect(a).toHaveText(label);
      }
    }
    // the e-mandate circular no longer cites the copy of another circular
    await page.goto("/circulars/rbi-2020-01-10-e-mandate-framework-circular");
    await expect(page.locator('a[href*="paperai.life"]')).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Processing of e-mandate in Unified Payments Interface (UPI) for recurring transactions");

    // Cards: "View Official Document" only where there is one (two of
    // the first page's: /circulars is paged, newest first).
    await page.goto("/circulars");
    // (and, when the build's store knew ingest's reads, each regulator's last one)
    await expect(page.locator("[data-up-to-date]")).toContainText(/^Up to date as of \d{1,2} [A-Z][a-z]+ \d{4}; newest circular dated \d{1,2} [A-Z][a-z]+ \d{4}\.( Last read from the regulators?: .+\.)?$/);
    await expect(page.locator('[data-circular="rbi-2026-09-22-fema-export-import-amendment"]').getByRole("link", { name: /^View Official Document/ })).toHaveCount(1);
    await expect(page.locator('[data-circular="rbi-2026-06-24-fraud-customer-protection-amendment-directions"]').getByRole("link", { name: /^View Official Document/ })).toHaveCount(0);

    // The Atom feed: the official page an alternate, reports related, titled with their labels.
    const atom = await (await request.get("/feeds/rbi.atom")).text();
    expect(atom).toContain('<link rel="alternate" href="https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=12573" title="View on rbi.org.in"></link>');
    expect(atom).toMatch(/<link rel="related" href="https:\/\/updates\.manupatra\.com\/[^"]+" title="Reported by updates\.manupatra\.com"><\/link>/);
    expect(atom).toContain("Sources: &lt;a href=");

    // The CSV: every row's links with their labels.
    const csv = await (await request.get("/api/circulars.csv?source=rbi")).text();
    expect(csv.split("\r\n")[0].split(",").slice(-2)).toEqual(["officialUrlConfidence", "links"]);
    // the row's last two cells (texts hold line breaks: not split by lines)
    expect(csv).toContain(",high,View on rbi.org.in <https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=11449>; Reported by roundup.manupatra.in <http://roundup.manupatra.in/asp/displayart.aspx?itemid=44718>\r\n");

    // The API: the same labels, and how current the list is.
    const res = await request.get("/api/circulars?limit=1&source=npci");
    expect(res.headers()["x-newest-circular"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.headers()["x-catalog-updated"]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const one = await (await request.get("/api/circulars?limit=100&source=npci")).json();
    const topup = one.find((c: { slug: string }) => c.slug === "npci-2024-08-27-upi-lite-auto-topup");
    expect(topup.links[0]).toEqual({ url: expect.stringContaining("thespuzz.com"), kind: "unofficial", host: "thespuzz.com", label: "Unofficial copy on thespuzz.com" });
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
