import { expect, test } from "@playwright/test";
import { axeViolations, isMobile, screenshot } from "./helpers";

const THEME_KEY = "regpulse-theme";

test.describe("shell", () => {
  test("header, sidebar on desktop and bottom bar on mobile", async ({ page }, info) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "RegPulse home" })).toBeVisible();
    await expect(page.getByText("Unified Fintech Portal")).toBeVisible();
    const sidebar = page.locator("[data-sidebar]");
    const tabbar = page.locator("[data-tabbar]");
    if (isMobile(info)) {
      await expect(sidebar).toBeHidden();
      await expect(tabbar).toBeVisible();
      for (const [name, href] of [["Dashboard", "/"], ["Search", "/search"], ["Impact", "/impact-tracker"], ["News", "/news"], ["Profile", "/login"]]) {
        await expect(tabbar.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
      }
      await expect(page.locator("form[data-header-search]")).toBeHidden();
      await expect(page.getByRole("banner").getByRole("link", { name: "Search" })).toHaveAttribute("href", "/search");
    } else {
      await expect(sidebar).toBeVisible();
      await expect(tabbar).toBeHidden();
      await expect(page.locator("form[data-header-search]")).toBeVisible();
    }
    await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
    // Nothing sticks out sideways: no horizontal scrolling at any width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    await screenshot(page, info, "home");
  });

  test("sidebar has every section and link", async ({ page }, info) => {
    test.skip(isMobile(info), "the sidebar is hidden on mobile");
    await page.goto("/news");
    const nav = page.locator("[data-sidebar]");
    const sections = await nav.locator("h2").allTextContents();
    expect(sections.map((s) => s.trim())).toEqual([
      "Main", "Payment Bodies (India)", "Payment Networks", "Knowledge Hub", "Major Global Fintech Events", "Support",
    ]);
    const expected: [string, string][] = [
      ["Dashboard", "/dashboard"], ["Search", "/search"], ["Latest News", "/news"], ["Fintech Leaders", "/fintech-leaders"], ["Newsletter", "/newsletter"],
      ["RBI", "/payment-body/rbi"], ["NPCI", "/payment-body/npci"], ["SEBI", "/payment-body/sebi"], ["IRDAI", "/payment-body/irdai"],
      ["PFRDA", "/search?source=PFRDA"], ["PRB", "/search?source=PRB"],
      ["American Express", "/payment-networks?filter=american%20express"], ["Diners Club", "/payment-networks?filter=diners%20club"],
      ["Mastercard", "/payment-networks?filter=mastercard"], ["RuPay", "/payment-networks?filter=rupay"], ["Visa", "/payment-networks?filter=visa"],
      ["Fintech News", "/news"], ["Global Fintech", "/global-fintech"], ["PII Regulations", "/pii-regulations"], ["AI Summarizer", "/summarizer"], ["Learning Videos", "/learning-videos"],
      ["Others", "/fintech-events"],
    ];
    for (const [name, href] of expected) {
      await expect(nav.getByRole("link", { name, exact: true }).first()).toHaveAttribute("href", href);
    }
    await expect(nav.getByRole("link", { name: "Impact Tracker", exact: true })).toHaveCount(2);
    await expect(nav.getByRole("link", { name: "Latest News" })).toHaveAttribute("aria-current", "page");
    const events = ["Finovate", "Global Fintech Fest", "Hong Kong Fintech Week", "Money20/20", "SIBOS", "Singapore Fintech Festival", "World Fintech Festival"];
    for (const name of events) {
      const link = nav.getByRole("link", { name: new RegExp(`^${name.replace("/", "\\/")} \\(opens in a new tab\\)$`) });
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", /noopener/);
      await expect(link).toHaveAttribute("href", /^https:\/\//);
    }
    await expect(nav.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", /^mailto:.+@.+/);
  });

  test("theme persists across reload and System follows the OS", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/news");
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/dark/);
    await expect(page.locator('[data-theme-choice="system"]')).toHaveAttribute("aria-pressed", "true");

    // System follows an emulated change of the OS preference.
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveClass(/dark/);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).not.toHaveClass(/dark/);

    await page.locator('[data-theme-choice="dark"]').click();
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate((k) => localStorage.getItem(k), THEME_KEY)).toBe("dark");
    await page.reload();
    await expect(html).toHaveClass(/dark/);
    await expect(page.locator('[data-theme-choice="dark"]')).toHaveAttribute("aria-pressed", "true");

    // An explicit Light ignores a dark OS.
    await page.locator('[data-theme-choice="light"]').click();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect(html).not.toHaveClass(/dark/);
  });

  test("no flash: the stored theme is applied before first paint", async ({ page }) => {
    await page.addInitScript((k) => localStorage.setItem(k, "dark"), THEME_KEY);
    // Record the class at the first DOMContentLoaded-independent moment: the
    // first rAF after the document starts rendering.
    await page.addInitScript(() => {
      document.addEventListener("readystatechange", () => {
        (window as unknown as { firstState: string }).firstState ??= document.documentElement.className;
      }, { once: true });
    });
    await page.goto("/news");
    expect(await page.evaluate(() => (window as unknown as { firstState: string }).firstState)).toContain("dark");
  });

  test("header search goes to /search only for non-empty text", async ({ page }, info) => {
    test.skip(isMobile(info), "the header search box is desktop only");
    await page.goto("/news");
    const box = page.getByRole("searchbox", { name: "Search circulars" });
    await box.fill("   ");
    await box.press("Enter");
    await page.waitForTimeout(300);
    await expect(page).toHaveURL(/\/news$/);
    await box.fill("  card tokenisation ");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=card%20tokenisation$/);
  });

  test("an unknown path shows the 404 page with status 404", async ({ page }, info) => {
    const res = await page.goto("/no/such/page");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404 Page Not Found");
    await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
    await expect(page).toHaveTitle(/404 Page Not Found/);
    await screenshot(page, info, "404");
  });

  test("every route answers 200", async ({ request }) => {
    for (const path of ["/", "/dashboard", "/login", "/signup", "/search", "/news", "/impact-tracker", "/global-fintech",
      "/pii-regulations", "/payment-networks", "/payment-networks/visa", "/newsletter", "/sibos-events", "/fintech-events",
      "/learning-videos", "/fintech-leaders", "/payment-body/rbi", "/payment-body/npci", "/payment-body/sebi", "/payment-body/irdai"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
    }
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`axe finds no violations on the home page (${scheme})`, async ({ page }) => {
      await page.addInitScript(([k, v]) => localStorage.setItem(k, v), [THEME_KEY, scheme]);
      await page.goto("/");
      await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /dark/ : /^(?!.*dark)/);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

test("a page without islands loads no React and little JavaScript", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => { if (r.resourceType() === "script") scripts.push(r.url()); });
  await page.goto("/learning-videos");
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBe(1);
  expect(scripts[0]).toMatch(/\/assets\/shell-[\w-]+\.js$/);
});

// F8 focuses the notifications region (SPEC: toasts) before any toast has
// loaded it, on a page without islands too.
test("F8 focuses the notifications region before the first toast", async ({ page }) => {
  for (const path of ["/learning-videos", "/news"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expect(page.locator("[data-toaster]")).toHaveCount(0);
    await page.keyboard.press("F8");
    const region = page.getByRole("region", { name: "Notifications (F8)" });
    await expect(region).toHaveCount(1);
    await expect.poll(() => region.evaluate((r) => r.contains(document.activeElement))).toBe(true);
  }
});

// Long words (circular numbers, URLs) wrap inside their cards: no page is
// wider than a 390 px screen.
test("no page scrolls sideways at 390 px", async ({ page }, info) => {
  test.skip(!isMobile(info), "a phone-width check");
  for (const path of ["/", "/search", "/news", "/impact-tracker", "/circulars", "/sibos-events", "/fintech-events", "/payment-body/rbi",
    "/pii-regulations", "/payment-networks", "/fintech-leaders", "/global-fintech", "/newsletter", "/summarizer", "/login", "/signup",
    "/circulars/rbi-2026-04-21-e-mandate-framework-2026"]) {
    await page.goto(path);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0], `${path} is ${widths[0]} px wide`).toBeLessThanOrEqual(widths[1]);
  }
});
