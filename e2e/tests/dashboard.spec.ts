import { devices, expect, test, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { axeViolations, holdRequests, isMobile, screenshot } from "./helpers";

// The dashboard (/ and /dashboard): stat cards, Recent Circulars (Load
// More, the source buttons, Summarize and Impact), Quick Access and its
// bulk downloads, news, ads and the sponsored banner, the newsletter form
// and the summarizer; with JavaScript off too.

// the cards on screen: the static first screen's, or those drawn from the API
const shownCards = (page: Page) => page.locator('[data-list="dashboard-circulars"]:visible [data-circular], [data-api-list="dashboard-circulars"] [data-circular]');
const shownNews = (page: Page) => page.locator('[data-list="dashboard-news"]:visible > div, [data-api-list="dashboard-news"] article');
const loadMore = (page: Page, noun: string) => page.getByRole("button", { name: `Load More ${noun}` });
const banner = (page: Page) => page.locator('[data-island="SponsoredBanner"]');
const sources = (page: Page) => page.getByRole("group", { name: "Filter circulars by source" });

// mountAll scrolls the page through so every island below the fold
// mounts (they load when visible or idle), and waits for them.
async function mountAll(page: Page) {
  const islands = page.locator("[data-island]");
  const n = await islands.count();
  for (let i = 0; i < n; i++) {
    await islands.nth(i).scrollIntoViewIfNeeded();
    await expect(islands.nth(i)).toHaveAttribute("data-island-mounted", "");
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

// pausedClock fakes the page's clock and stops it, so only runFor moves
// it. A running fake clock also counts the real seconds a busy machine
// takes between two steps, and the banner then seemed to turn before its
// 10 s in some runs.
async function pausedClock(page: Page) {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
}

// pageHidden makes the tab hidden or shown again as the browser tells a
// page (a headless browser never hides one).
async function pageHidden(page: Page, hidden: boolean) {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

// signUpByAPI makes an account, which counts as signed in now.
let accounts = 0;
async function signUpByAPI(page: Page, name: string) {
  const id = `${name}${Date.now().toString(36)}${accounts++}`;
  const res = await page.request.post("/api/auth/signup", {
    data: { firstName: "Asha", lastName: "Rao", username: `dash_${id}`, email: `dash.${id}@example.com`, password: "secret-pass-1" },
  });
  expect(res.status()).toBe(201);
}

// The ads as the page's banner island has them, in order.
async function adTitles(page: Page): Promise<string[]> {
  const props = JSON.parse((await banner(page).getAttribute("data-props")) ?? "{}") as { ads: { title: string }[] };
  return props.ads.map((a) => a.title);
}

// expectActiveUsers waits for the Active Users figure to read least or
// more (other tests sign in meanwhile).
async function expectActiveUsers(page: Page, least: number) {
  const figure = page.locator('[data-stat="activeUsers"]');
  await expect(figure).toBeVisible();
  await expect.poll(async () => Number(await figure.textContent())).toBeGreaterThanOrEqual(least);
}

async function newPage(browser: Browser, device: BrowserContextOptions) {
  const context = await browser.newContext({ ...device, baseURL: test.info().project.use.baseURL });
  return context.newPage();
}

// The dashboard's JavaScript with every island mounted, gzip: 110 KB,
// the budget before the Hindi site, which put both languages' strings in
// every island (116 KB then). The islands are now built once per
// language (islands/scripts/build.mjs) and each page ships its own
// language's strings only: 105.6 KB on /, 107.1 KB on /hi/ (issue 49);
// the margin is Hindi's longer texts' room to grow.
const budgetKB = 110;

test.describe("dashboard", () => {
  test("/ and /dashboard: four stat cards with links, figures and meanings", async ({ page, request }, info) => {
    const stats = await (await request.get("/api/dashboard/stats")).json();
    for (const path of ["/", "/dashboard"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
      for (const [key, label, href, meaning] of [
        ["newCirculars", "New Circulars", "/search", "Circulars published in the last 30 days"],
        ["impactAlerts", "Impact Alerts", "/impact-tracker", "High-impact circulars published in the last 30 days"],
        ["latestNews", "Latest News", "/news", "News items published in the last 30 days"],
        ["activeUsers", "Active Users", "/global-fintech", "Users who signed in in the last 30 days"],
      ]) {
        const card = page.locator(`[data-stat-card="${key}"]`);
        await expect(card).toHaveAttribute("href", href);
        await expect(card).toContainText(label);
        await expect(card).toContainText(meaning);
        // StatsRefresh writes the API's figure (the build's until then).
        // Active users only grow during a run (other tests sign users up
        // beside this one): at least the figure read before.
        if (key === "activeUsers") {
          await expect(async () => expect(Number(await card.locator(`[data-stat="${key}"]`).textContent())).toBeGreaterThanOrEqual(stats[key])).toPass();
        } else {
          await expect(card.locator(`[data-stat="${key}"]`)).toHaveText(String(stats[key]));
        }
      }
    }
    // Under the cards: the circulars awaiting verification, of any date.
    const awaiting = page.locator("[data-awaiting-verification]");
    expect(stats.awaitingVerification).toBeGreaterThan(1);
    await expect(awaiting).toContainText(`${stats.awaitingVerification} circulars awaiting verification`);
    await expect(awaiting).toContainText("not yet checked against the regulator's own text");
    await page.locator('[data-stat-card="impactAlerts"]').click();
    await expect(page).toHaveURL(/\/impact-tracker$/);
    await page.goto("/");
    await screenshot(page, info, "dashboard-top");
  });

  // Active Users is who signed in in the last 30 days (the API's figure;
  // the build's until StatsRefresh writes it). Issue 43: on a phone it
  // read 0 until a reload. Someone has signed in, so the figure is at
  // least 1: on a fresh visit of the test's device (the mobile project is
  // a 390x844 touch phone; it also opens a Pixel 7), and for a new user
  // landing on the dashboard from sign-up, with no reload.
  test("Active Users: a fresh visit and a new user's first landing show who signed in, on a phone too", async ({ page, browser }, info) => {
    await signUpByAPI(page, info.project.name[0]);
    const { defaultBrowserType: _, ...pixel7 } = devices["Pixel 7"];
    const visits: [string, BrowserContextOptions | null][] = [["fresh", null]];
    if (isMobile(info)) visits.push(["pixel7", pixel7]);
    for (const [name, device] of visits) {
      const shown = device ? await newPage(browser, device) : page;
      await shown.goto("/");
      await expectActiveUsers(shown, 1);
      await screenshot(shown, info, `dashboard-active-users-${name}`);
      if (device) await shown.context().close();
    }

    // a new user signs up here and lands on the dashboard
    const id = `${info.project.name[0]}${Date.now().toString(36)}`;
    const before = (await (await page.request.get("/api/dashboard/stats")).json()).activeUsers as number;
    await page.goto("/signup");
    await page.getByLabel("First name").fill("Asha");
    await page.getByLabel("Last name").fill("Rao");
    await page.getByLabel("Username").fill(`dash_new_${id}`);
    await page.getByLabel("Email").fill(`dash.new.${id}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill("secret-pass-1");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL("/");
    await expectActiveUsers(page, before + 1);
  });

  test("Recent Circulars: 5, Load More to 20, then the button is gone", async ({ page }) => {
    await page.goto("/");
    await expect(shownCards(page)).toHaveCount(5);
    for (const n of [10, 15, 20]) {
      await loadMore(page, "circulars").click();
      await expect(shownCards(page)).toHaveCount(n);
    }
    await expect(loadMore(page, "circulars")).toHaveCount(0);
    // every shown card is the circular card: source badge, actions
    const first = shownCards(page).first();
    await expect(first.locator("[data-source]")).toBeVisible();
    await expect(first.getByRole("button", { name: "Summarize" })).toBeVisible();
    await expect(first.getByRole("button", { name: "Impact" })).toBeVisible();
  });

  test("Latest Fintech News: 5, Load More to 20, then the button is gone", async ({ page }) => {
    await page.goto("/");
    await expect(shownNews(page)).toHaveCount(5);
    await page.locator('[data-load-more="dashboard-news"]').scrollIntoViewIfNeeded();
    for (const n of [10, 15, 20]) {
      await loadMore(page, "news").click();
      await expect(shownNews(page)).toHaveCount(n);
    }
    await expect(loadMore(page, "news")).toHaveCount(0);
  });

  test("the source buttons filter, reset the count to 5 and go into the URL", async ({ page }, info) => {
    await page.goto("/");
    await expect(sources(page).getByRole("button", { name: "All" })).toHaveAttribute("aria-pressed", "true");
    await loadMore(page, "circulars").click();
    await expect(shownCards(page)).toHaveCount(10);
    for (const source of ["RBI", "NPCI", "SEBI"]) {
      await sources(page).getByRole("button", { name: source, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`\\?source=${source}$`));
      await expect(sources(page).getByRole("button", { name: source, exact: true })).toHaveAttribute("aria-pressed", "true");
      await expect(shownCards(page)).toHaveCount(5);
      // the last source's cards stay until the answer is in
      await expect.poll(async () => [...new Set((await shownCards(page).locator("[data-source]").allTextContents()).map((b) => b.trim()))]).toEqual([source]);
      await expect(page.locator('[data-export="csv"]')).toHaveAttribute("href", `/api/circulars.csv?source=${source}`);
    }
    await screenshot(page, info, "dashboard-sebi");
    await sources(page).getByRole("button", { name: "All" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('[data-export="json"]')).toHaveAttribute("href", "/api/circulars.json");
    // a shared link opens filtered
    await page.goto("/?source=NPCI");
    await expect(sources(page).getByRole("button", { name: "NPCI" })).toHaveAttribute("aria-pressed", "true");
    // the first screen stays, busy, until the API's answer replaces it
    await expect.poll(async () => [...new Set((await shownCards(page).locator("[data-source]").allTextContents()).map((b) => b.trim()))]).toEqual(["NPCI"]);
    await expect(page.locator('[data-list="dashboard-circulars"]')).toHaveAttribute("aria-busy", "false");
  });

  test("Summarize and Impact send PSP and show their toasts", async ({ page }) => {
    await page.goto("/");
    const card = shownCards(page).first();
    const summarize = card.getByRole("button", { name: "Summarize" });
    const impact = card.getByRole("button", { name: "Impact" });
    const { release, requests } = await holdRequests(page, "**/api/circulars/*/impact");
    await impact.click();
    await expect(summarize).toBeDisabled();
    await expect(impact).toBeDisabled();
    release();
    await expect(page.getByText("Impact Analysis Complete", { exact: true })).toBeVisible();
    await expect(page.getByText(/^Impact level: (high|medium|low)\. See detailed analysis\.$/)).toBeVisible();
    expect(requests.map((r) => r.postDataJSON())).toEqual([{ entityType: "PSP" }]);

    await summarize.click();
    await expect(page.getByText("Summary Generated", { exact: true })).toBeVisible();
    await expect(page.getByText("AI summary has been generated for the circular.", { exact: true })).toBeVisible();

    await page.route("**/api/circulars/*/impact", (route) => route.fulfill({ status: 500, body: "{}" }));
    await shownCards(page).nth(1).getByRole("button", { name: "Impact" }).click();
    await expect(page.getByText("Failed to analyze impact. Please try again.", { exact: true })).toBeVisible();
    await page.route("**/api/circulars/*/summarize", (route) => route.fulfill({ status: 500, body: "{}" }));
    await shownCards(page).nth(2).getByRole("button", { name: "Summarize" }).click();
    await expect(page.getByText("Failed to generate summary. Please try again.", { exact: true })).toBeVisible();
  });

  test("Quick Access: search, alerts, and the bulk download of the filter as CSV and JSON", async ({ page }) => {
    await page.goto("/?source=RBI");
    const quick = page.getByRole("region", { name: "Quick Access" });
    await expect(quick.getByRole("link", { name: "Advanced Search" })).toHaveAttribute("href", "/search");
    await expect(quick.getByRole("link", { name: "Set Alerts" })).toHaveAttribute("href", "/profile#alerts");
    await expect(page.locator('[data-export="csv"]')).toHaveAttribute("href", "/api/circulars.csv?source=RBI");

    const [csvDownload] = await Promise.all([page.waitForEvent("download"), quick.getByRole("link", { name: "CSV" }).click()]);
    expect(csvDownload.suggestedFilename()).toBe("regpulse-circulars-rbi.csv");
    const csv = await readFile((await csvDownload.path())!, "utf8");
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("id,circularNumber,title,source,category,documentType,impactLevel,publishedDate,officialUrl,summary,content,verification,officialUrlConfidence,links");
    const rows = (await (await page.request.get("/api/circulars.json?source=RBI")).json()) as { id: string; source: string }[];
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.every((r) => r.source === "RBI")).toBe(true);
    for (const r of rows) expect(csv).toContain(`${r.id},`);

    const [jsonDownload] = await Promise.all([page.waitForEvent("download"), quick.getByRole("link", { name: "JSON" }).click()]);
    expect(jsonDownload.suggestedFilename()).toBe("regpulse-circulars-rbi.json");
    const downloaded = JSON.parse(await readFile((await jsonDownload.path())!, "utf8")) as { id: string }[];
    expect(downloaded.map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  test("impact tracker, leaders card and ad slots of every size", async ({ page }, info) => {
    await page.goto("/");
    for (const name of ["Payment Service Providers", "Card Issuers", "Payment Aggregators"]) {
      await expect(page.getByRole("heading", { level: 3, name })).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Global Fintech Leaders" })).toBeVisible();
    for (const size of ["small", "medium", "large"]) {
      await expect(page.locator(`[data-ad-size="${size}"]`).first()).toBeVisible();
    }
    await expect(page.locator('[data-ad-slot="header-strip"]')).toContainText("Fintech Solutions");
    await expect(page.locator('[data-ad-slot="header-strip"]').getByRole("link")).toContainText("Learn More");
    await expect(page.locator('[data-ad-size="large"]')).toContainText("Premium Partnership Opportunities");
    await expect(page.locator('[data-ad-size="large"]').getByRole("link")).toContainText("Learn About Partnership");
    await mountAll(page);
    await screenshot(page, info, "dashboard-full");
  });

  test.describe("sponsored banner", () => {
    test("rotates every 10 s through six ads and wraps; pauses on hover, focus and its button", async ({ page }, info) => {
      await pausedClock(page);
      await page.goto("/");
      const titles = await adTitles(page);
      expect(titles).toHaveLength(6);
      await banner(page).scrollIntoViewIfNeeded();
      await expect(banner(page)).toHaveAttribute("data-island-mounted", "");
      const title = banner(page).locator("[data-ad-title]");
      await page.mouse.move(0, 0);
      await expect(title).toHaveText(titles[0]);
      await expect(banner(page).getByRole("region", { name: "Sponsored advertisement" })).toBeVisible();
      for (let i = 1; i <= 6; i++) {
        await page.clock.runFor(10_000);
        await expect(title).toHaveText(titles[i % 6]);
      }
      await page.clock.runFor(9_000);
      await expect(title).toHaveText(titles[0]);

      // hovered: no rotation
      await title.hover();
      await page.clock.runFor(30_000);
      await expect(title).toHaveText(titles[0]);
      await page.mouse.move(0, 0);
      await page.clock.runFor(10_000);
      await expect(title).toHaveText(titles[1]);

      // focused: no rotation
      await banner(page).getByRole("link").focus();
      await page.clock.runFor(30_000);
      await expect(title).toHaveText(titles[1]);
      await banner(page).getByRole("link").blur();

      // its Pause button
      const pause = banner(page).getByRole("button", { name: "Pause sponsored rotation" });
      await pause.click();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.mouse.move(0, 0);
      await page.clock.runFor(30_000);
      await expect(title).toHaveText(titles[1]);
      await banner(page).getByRole("button", { name: "Play sponsored rotation" }).click();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.mouse.move(0, 0);
      await page.clock.runFor(10_000);
      await expect(title).toHaveText(titles[2]);
      await screenshot(page, info, "dashboard-banner");
    });

    // The 10 s are seconds on screen: the clock ran on while the banner
    // was scrolled away or the tab hidden, and the ad then turned early.
    test("turns only after 10 s on screen: not while scrolled away or the tab is hidden", async ({ page }, info) => {
      await pausedClock(page);
      await page.goto("/");
      const titles = await adTitles(page);
      const section = banner(page).locator("[data-sponsored]");
      const title = banner(page).locator("[data-ad-title]");
      await banner(page).scrollIntoViewIfNeeded();
      await page.mouse.move(0, 0);
      await expect(section).toHaveAttribute("data-rotating", "true");
      await expect(title).toHaveText(titles[0]);
      await page.clock.runFor(6_000);

      // scrolled away before its 10 s
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(section).not.toBeInViewport();
      await expect(section).toHaveAttribute("data-rotating", "false");
      await page.clock.runFor(30_000);
      await expect(title).toHaveText(titles[0]);
      await banner(page).scrollIntoViewIfNeeded();
      await expect(section).toHaveAttribute("data-rotating", "true");
      await page.clock.runFor(9_999);
      await expect(title).toHaveText(titles[0]);
      await page.clock.runFor(1);
      await expect(title).toHaveText(titles[1]);

      // the tab hidden (another tab, a phone's home screen) before its 10 s
      await page.clock.runFor(6_000);
      await pageHidden(page, true);
      await expect(section).toHaveAttribute("data-rotating", "false");
      await page.clock.runFor(30_000);
      await expect(title).toHaveText(titles[1]);
      await pageHidden(page, false);
      await expect(section).toHaveAttribute("data-rotating", "true");
      await page.clock.runFor(9_999);
      await expect(title).toHaveText(titles[1]);
      await page.clock.runFor(1);
      await expect(title).toHaveText(titles[2]);
      await screenshot(page, info, "dashboard-banner-shown");
    });

    test("does not rotate under prefers-reduced-motion", async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      await pausedClock(page);
      await page.goto("/");
      const titles = await adTitles(page);
      await banner(page).scrollIntoViewIfNeeded();
      await expect(banner(page)).toHaveAttribute("data-island-mounted", "");
      await page.mouse.move(0, 0);
      await page.clock.runFor(60_000);
      await expect(banner(page).locator("[data-ad-title]")).toHaveText(titles[0]);
    });

    test("Dismiss hides it for the rest of the visit", async ({ page, context }) => {
      await page.goto("/");
      await banner(page).scrollIntoViewIfNeeded();
      await banner(page).getByRole("button", { name: "Dismiss sponsored banner" }).click();
      await expect(banner(page)).toBeHidden();
      await page.reload();
      // (scrolled to while it still shows the static card, so it mounts)
      await page.evaluate(() => document.querySelector('[data-island="SponsoredBanner"]')?.scrollIntoView());
      await expect(banner(page)).toHaveAttribute("data-island-mounted", "");
      await expect(banner(page)).toBeHidden();
      // a new visit shows it again
      const other = await context.browser()!.newPage();
      await other.goto(page.url());
      await banner(other).scrollIntoViewIfNeeded();
      await expect(banner(other).locator("[data-ad-title]")).toBeVisible();
      await other.close();
    });
  });

  test("the compact newsletter form subscribes with source dashboard", async ({ page }, info) => {
    await page.goto("/");
    const island = page.locator('[data-island="NewsletterSignup"]');
    await island.scrollIntoViewIfNeeded();
    await expect(island).toHaveAttribute("data-island-mounted", "");
    let sent: { source?: string } = {};
    page.on("request", (r) => {
      if (r.url().endsWith("/api/newsletter/subscribe")) sent = r.postDataJSON();
    });
    const email = `dash.${info.project.name}.${Date.now().toString(36)}@example.com`;
    await island.getByRole("textbox", { name: /e-?mail/i }).fill(email);
    await island.getByRole("button", { name: /Subscribe/ }).click();
    await expect(page.getByText("Successfully Subscribed!").first()).toBeVisible();
    expect(sent.source).toBe("dashboard");
  });

  test("the AI Document Summarizer summarises pasted text", async ({ page }) => {
    await page.route("**/api/ai/summarize", (r) =>
      r.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ summary: "Aggregators report fraud within six hours.", provider: "local", model: "lexrank", generatedAt: "2026-11-24T00:00:00Z" }) }));
    await page.goto("/");
    const island = page.locator('[data-island="Summarizer"]');
    await island.scrollIntoViewIfNeeded();
    await expect(island).toHaveAttribute("data-island-mounted", "");
    await island.getByRole("textbox", { name: "Document Text Content" }).fill("Payment aggregators must report fraud within six hours.");
    await island.getByRole("button", { name: "Generate Summary" }).click();
    await expect(island.getByText("Summary:")).toBeVisible();
    await expect(island.getByText("Aggregators report fraud within six hours.")).toBeVisible();
  });

  test("axe: no violations in light and dark with every island mounted", async ({ page }) => {
    test.slow();
    await page.goto("/");
    await mountAll(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/dark/);
    expect(await axeViolations(page)).toEqual([]);
  });

  // in each language: each page loads its language's islands (budgetKB)
  for (const home of ["/", "/hi/"]) {
    test(`${home}: no layout shift as the islands mount (CLS < 0.05), and JavaScript within ${budgetKB} KB gzip`, async ({ page }) => {
      await page.addInitScript(() => {
        (window as unknown as { __cls: number }).__cls = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto(home);
      await expect(page.locator('[data-island="DashboardList"]').first()).toHaveAttribute("data-island-mounted", "");
      await expect(page.locator('[data-island="CardActions"]')).toHaveAttribute("data-island-mounted", "");
      await page.waitForLoadState("networkidle");
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
      expect(cls).toBeLessThan(0.05);

      // every island of the page loaded: the scripts' compressed sizes
      await mountAll(page);
      await page.waitForLoadState("networkidle");
      const bytes = await page.evaluate(() =>
        (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
          .filter((e) => e.initiatorType === "script" || e.name.endsWith(".js"))
          .reduce((n, e) => n + e.encodedBodySize, 0));
      expect(bytes).toBeGreaterThan(10_000);
      expect(bytes).toBeLessThanOrEqual(budgetKB * 1024);
    });
  }
});

test.describe("dashboard without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the first screen is in the HTML: figures, 5 circulars, 5 news, the first ad", async ({ page }, info) => {
    await page.goto("/");
    for (const key of ["newCirculars", "impactAlerts", "latestNews", "activeUsers", "awaitingVerification"]) {
      await expect(page.locator(`[data-stat="${key}"]`)).toHaveText(/^\d+$/);
    }
    await expect(shownCards(page)).toHaveCount(5);
    await expect(shownNews(page)).toHaveCount(5);
    await expect(page.locator("[data-sponsored] [data-ad-title]")).toBeVisible();
    await expect(page.locator('[data-export="csv"]')).toHaveAttribute("href", "/api/circulars.csv");
    await expect(page.getByRole("link", { name: "All circulars" })).toHaveAttribute("href", "/search");
    await screenshot(page, info, isMobile(info) ? "dashboard-nojs-phone" : "dashboard-nojs");
  });
});
