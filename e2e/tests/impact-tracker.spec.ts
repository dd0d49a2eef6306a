import { expect, test, type Locator, type Page } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

const names = { PSP: "Payment Service Providers", Issuer: "Card Issuers", Aggregator: "Payment Aggregators" } as const;
type Type = keyof typeof names;
const types = Object.keys(names) as Type[];

const cards = (page: Page) => page.locator("[data-list=entities] > article:visible");
const card = (page: Page, type: Type) => page.locator(`[data-entity="${type}"]`);
const heading = (page: Page) => page.locator("[data-heading=entities]");
const countBadge = (page: Page) => page.locator('[data-count="entities"]');

// Score bands: 90 and above good (green), 80-89 warning (yellow), below poor (red).
const bandOf = (score: number) => (score >= 90 ? "good" : score >= 80 ? "warning" : "poor");

type Shown = { score: string; bar: string | null; band: string | null; counts: string[] };
async function shown(c: Locator): Promise<Shown> {
  return {
    score: (await c.locator("[data-score]").textContent())!.trim(),
    bar: await c.locator("progress").getAttribute("value"),
    band: await c.locator("[data-band]").getAttribute("data-band"),
    counts: await c.locator("[data-impact-count]").allTextContents(),
  };
}

// The colour the page's CSS paints the bar's filled part with: the
// background of the ::-webkit-progress-value rules that match the bar
// (computed styles do not reach into that pseudo-element).
async function barColour(c: Locator): Promise<string[]> {
  return c.locator("progress").evaluate((el) => {
    const pseudo = "::-webkit-progress-value";
    const out: string[] = [];
    const walk = (rules: CSSRuleList) => {
      for (const r of rules) {
        if (r instanceof CSSStyleRule && r.selectorText.endsWith(pseudo) && r.style.backgroundColor) {
          if (el.matches(r.selectorText.slice(0, -pseudo.length))) out.push(r.style.backgroundColor);
        }
        if ("cssRules" in r) walk((r as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of document.styleSheets) walk(sheet.cssRules);
    return out;
  });
}

// The hue (degrees) of an element's computed text colour, lab() or oklch().
async function textHue(l: Locator): Promise<number> {
  const color = await l.evaluate((el) => getComputedStyle(el).color);
  const lab = /^lab\((\S+) (\S+) (\S+)\)$/.exec(color);
  if (lab) return (Math.atan2(Number(lab[3]), Number(lab[2])) * 180) / Math.PI;
  const oklch = /^oklch\(\S+ \S+ (\S+)\)$/.exec(color);
  expect(oklch, `colour ${color}`).not.toBeNull();
  return Number(oklch![1]);
}

type ApiRecord = {
  entityType: string;
  name: string;
  complianceScore: number;
  band: string;
  highImpactCount: number;
  mediumImpactCount: number;
  lowImpactCount: number;
};

test.describe("/impact-tracker", () => {
  test("three entity cards and the two sections, light and dark", async ({ page }, info) => {
    await page.goto("/impact-tracker");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Impact Tracker Dashboard");
    await page.waitForSelector("[data-island-mounted]");
    await expect(page.getByPlaceholder("Search entity types or circular IDs...")).toBeVisible();
    await expect(page.getByRole("button", { name: "Clear" })).toBeDisabled();
    await expect(heading(page)).toHaveText("All Entity Types");
    await expect(countBadge(page)).toHaveText("3");
    await expect(cards(page)).toHaveCount(3);
    for (const [i, type] of types.entries()) {
      const c = cards(page).nth(i);
      await expect(c).toHaveAttribute("data-entity", type);
      await expect(c.getByRole("heading", { level: 3 })).toHaveText(names[type]);
      const s = await shown(c);
      expect(s.score).toMatch(/^\d{1,3}%$/);
      const score = parseInt(s.score, 10);
      expect(s.bar).toBe(String(score));
      expect(s.band).toBe(bandOf(score));
      await expect(c.getByRole("progressbar", { name: `Compliance score of ${names[type]}` })).toBeVisible();
      expect(s.counts).toHaveLength(3);
      for (const n of s.counts) expect(n).toMatch(/^\d+$/);
      await expect(c.locator("dt")).toHaveText(["High", "Medium", "Low"]);
    }

    // each section shows its circulars or, when none is active, its empty text
    for (const [title, list, empty] of [
      ["High Impact Circulars", "high-circulars", "No high impact circulars currently active"],
      ["Medium Impact Monitoring", "medium-circulars", "No medium impact circulars currently active"],
    ]) {
      await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
      const items = await page.locator(`[data-list="${list}"] > li`).count();
      await expect(page.locator(`[data-count="${list}"]`)).toHaveText(String(items));
      await expect(page.getByText(empty)).toBeVisible({ visible: items === 0 });
    }

    await screenshot(page, info, "impact-tracker");
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/dark/);
    await screenshot(page, info, "impact-tracker-dark");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("the static page agrees with the API, band and name included", async ({ browser, request }) => {
    const api = (await (await request.get("/api/impact-tracking")).json()) as ApiRecord[];
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/impact-tracker");
    await expect(page.locator("[data-list=entities] > article")).toHaveCount(3);
    for (const type of types) {
      const r = api.find((x) => x.entityType === type)!;
      expect(r.band).toBe(bandOf(r.complianceScore));
      expect(r.name).toBe(names[type]);
      expect(await shown(card(page, type))).toEqual({
        score: `${r.complianceScore}%`,
        bar: String(r.complianceScore),
        band: r.band,
        counts: [r.highImpactCount, r.mediumImpactCount, r.lowImpactCount].map(String),
      });
    }
    await ctx.close();
  });

  test("each band has its colour: green, yellow, red", async ({ page }, info) => {
    await page.goto("/impact-tracker");
    await page.waitForSelector("[data-island-mounted]");
    // The page's bands are whatever today's circulars give; set one of each
    // as the generator would write it, to check what the CSS paints.
    for (const [type, score, band] of [
      ["PSP", 95, "good"],
      ["Issuer", 85, "warning"],
      ["Aggregator", 42, "poor"],
    ] as const) {
      await card(page, type).evaluate(
        (el, [score, band]) => {
          el.querySelector<HTMLElement>("[data-band]")!.dataset.band = band;
          el.querySelector("[data-score]")!.textContent = `${score}%`;
          el.querySelector<HTMLProgressElement>("progress")!.value = score;
        },
        [score, band] as const,
      );
    }
    for (const [type, colour, hue] of [
      ["PSP", "green", [120, 165]],
      ["Issuer", "yellow", [60, 100]],
      ["Aggregator", "red", [15, 50]],
    ] as const) {
      const c = card(page, type);
      expect(await barColour(c)).toEqual([`var(--color-${colour}-${colour === "yellow" ? 500 : 600})`]);
      const h = await textHue(c.locator("[data-score]"));
      expect(h, `${type} score colour hue`).toBeGreaterThanOrEqual(hue[0]);
      expect(h, `${type} score colour hue`).toBeLessThanOrEqual(hue[1]);
    }
    await screenshot(page, info, "impact-tracker-bands");
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(page)).toEqual([]);
  });

  test("the page shows the build's values and never asks the API for them", async ({ page, browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const staticPage = await ctx.newPage();
    await staticPage.goto("/impact-tracker");
    const want = await Promise.all(types.map((t) => shown(card(staticPage, t))));
    await ctx.close();

    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    let asked = false;
    await page.route("**/api/impact-tracking", (route) => {
      asked = true;
      return route.continue();
    });
    await page.goto("/impact-tracker");
    await page.waitForSelector("[data-island-mounted]");
    await page.getByRole("searchbox", { name: "Search entity types or circular IDs" }).fill("card");
    await page.getByRole("button", { name: "Clear" }).click();
    expect(await Promise.all(types.map((t) => shown(card(page, t))))).toEqual(want);
    expect(asked).toBe(false);
    expect(errors).toEqual([]);
  });

  test("search, heading and count, Clear, empty texts and the URL", async ({ page }) => {
    await page.goto("/impact-tracker");
    await page.waitForSelector("[data-island-mounted]");
    const search = page.getByRole("searchbox", { name: "Search entity types or circular IDs" });

    await search.fill("card");
    await expect(heading(page)).toHaveText('Search Results for "card"');
    await expect(countBadge(page)).toHaveText("1");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText("Card Issuers");
    await expect(page).toHaveURL(/\?q=card$/);
    await page.reload();
    await expect(search).toHaveValue("card");
    await expect(cards(page)).toHaveCount(1);

    await search.fill("PSP");
    await expect(heading(page)).toHaveText('Search Results for "PSP"');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toHaveAttribute("data-entity", "PSP");
    await search.fill("payment");
    await expect(cards(page)).toHaveCount(2); // Payment Service Providers, Payment Aggregators
    await expect(countBadge(page)).toHaveText("2");

    await search.fill("xyzzy-no-such-thing");
    await expect(cards(page)).toHaveCount(0);
    await expect(countBadge(page)).toHaveText("0");
    await expect(page.getByText("No entity types found")).toBeVisible();
    await expect(page.getByText("No high impact circulars currently active")).toBeVisible();
    await expect(page.getByText("No medium impact circulars currently active")).toBeVisible();

    await page.getByRole("button", { name: "Clear" }).click();
    await expect(search).toHaveValue("");
    await expect(heading(page)).toHaveText("All Entity Types");
    await expect(cards(page)).toHaveCount(3);
    await expect(page).toHaveURL(/\/impact-tracker$/);
  });
});

// The entity cards' codes (PSP, Issuer, Aggregator) stay on one line at
// 1280 and 390 px: the name beside them wraps instead ("PS P" was seen).
test.describe("impact cards at 1280 and 390 px", () => {
  for (const width of [1280, 390]) {
    test(`${width} px: each code on one line`, async ({ page }, info) => {
      test.skip(info.project.name === "mobile" && width === 1280, "one project is enough per width");
      test.skip(info.project.name === "desktop" && width === 390, "one project is enough per width");
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/impact-tracker");
      const codes = page.locator("[data-list=entities] [data-entity-code]");
      await expect(codes).toHaveCount(3);
      for (const code of await codes.all()) {
        const { height } = (await code.boundingBox())!;
        const line = await code.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight));
        const pad = await code.evaluate((e) => parseFloat(getComputedStyle(e).paddingTop) + parseFloat(getComputedStyle(e).paddingBottom));
        expect(height).toBeLessThanOrEqual(line + pad + 1);
      }
      await page.locator("[data-list=entities]").screenshot({ path: `screenshots/${info.project.name}/impact-cards-${width}.png` });
    });
  }
});
