import { expect, test } from "@playwright/test";
import { axeViolations as axe, screenshot } from "./helpers";

// Master Directions with their versions (generator/directions.go): static
// pages that read the same with JavaScript off and on.

for (const javaScriptEnabled of [false, true]) {
  test.describe(`Master Directions, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    // axe runs in the page: with JavaScript off it cannot, and the same
    // HTML is checked with it on
    const axeViolations = async (page: Parameters<typeof axe>[0]) => (javaScriptEnabled ? axe(page) : []);

    test("the list, a direction's text and timeline, a version's redline, light and dark", async ({ page }, info) => {
      await page.goto("/master-directions");
      await expect(page.getByRole("heading", { level: 1, name: "Master Directions" })).toBeVisible();
      await expect(page.locator("[data-direction]")).toHaveCount(5);
      await expect(page.locator('[data-direction="kyc-2016"] [data-direction-status]')).toHaveText(/Replaced/);
      await page.locator('[data-direction="ppi-2021"]').getByRole("link").click();
      await expect(page).toHaveURL(/\/master-directions\/ppi-2021\/?$/);

      // today's text, its contents and "up to date as of"
      await expect(page.locator("[data-up-to-date]")).toContainText("Up to date with the amendments known to RegPulse as of");
      await expect(page.locator('[data-toc] a[href="#p-10-3"]')).toBeVisible();
      await expect(page.locator('[data-provision="6"]')).toContainText("Commercial Banks");
      await expect(page.locator('[data-provision="6"]')).toContainText("Digest, not the official wording");
      // the timeline: a version known by its date alone says so
      await expect(page.locator('[data-version="2021-11-12"] [data-changes-unknown]')).toBeVisible();
      await screenshot(page, info, `direction-${javaScriptEnabled ? "js" : "nojs"}`);
      expect(await axeViolations(page)).toEqual([]);

      // the version of 28 November 2025 against the one before
      await page.locator('[data-version="2025-11-28"]').getByRole("link", { name: "Compare with the version before" }).click();
      await expect(page).toHaveURL(/\/compare\/2024-12-27\/2025-11-28\/?$/);
      const change = page.locator('[data-change="changed"][data-provision="6"]');
      await expect(change).toContainText("Compliance with Know Your Customer (KYC) norms");
      // what a screen reader reads: each insertion and deletion announced
      const ins = change.locator('[data-redline="insert"]').first();
      const del = change.locator('[data-redline="delete"]').first();
      expect(await ins.textContent()).toMatch(/^\[inserted: .+\]$/);
      expect(await del.textContent()).toMatch(/^\[deleted: .+\]$/);
      // told apart without colour: underline and strike-through
      expect(await ins.evaluate((e) => getComputedStyle(e).textDecorationLine)).toContain("underline");
      expect(await del.evaluate((e) => getComputedStyle(e).textDecorationLine)).toContain("line-through");
      await expect(page.locator("[data-compare-summary]")).toContainText("3 changed, 0 inserted and 0 deleted");
      await screenshot(page, info, `direction-compare-${javaScriptEnabled ? "js" : "nojs"}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, info, `direction-compare-dark-${javaScriptEnabled ? "js" : "nojs"}`);

      // an earlier text says it has been amended since
      await page.goto("/master-directions/ppi-2021/as-of/2023-02-10");
      await expect(page.locator('[data-as-of-banner="historical"]')).toContainText("it has been amended since");
      await expect(page.locator('[data-provision="10.3"]')).toBeVisible();
      await expect(page.locator('[data-provision="11.6.3"]')).toHaveCount(0);
      expect(await axeViolations(page)).toEqual([]);
    });
  });
}

test("any two dates through the island, and the text on any date", async ({ page }, info) => {
  await page.goto("/master-directions/ppi-2021");
  // mounted when it nears the viewport (load: visible)
  await page.locator('[data-island="DirectionDates"]').scrollIntoViewIfNeeded();
  const island = page.locator("[data-direction-dates]");
  await island.getByLabel("From").fill("2024-01-01");
  await island.getByLabel("To").fill("2025-12-31");
  await island.getByRole("button", { name: "Compare" }).click();
  await expect(page.locator("[data-direction-answer-summary]")).toContainText("3 changed, 2 inserted and 0 deleted");
  await expect(page.locator("[data-direction-answer-summary]")).toContainText("not recorded: 23 February 2024");
  await expect(page.locator('[data-direction-answer] [data-redline="insert"]').first()).toHaveText(/^\[inserted: .+\]$/);
  await screenshot(page, info, "direction-dates");
  expect(await axe(page)).toEqual([]);
  await island.getByLabel("Date of the text").fill("2023-06-01");
  await island.getByRole("button", { name: "Show the text" }).click();
  await expect(page.locator("[data-direction-answer-summary]")).toHaveText("The text in force on 1 June 2023: 9 provisions.");
  await expect(page.locator('[data-direction-answer] [data-provision="10.3"]')).toBeVisible();
});

test("a circular names the directions it issued or replaced; the consolidation lists what it replaced", async ({ page }) => {
  await page.goto("/circulars/rbi-2025-11-28-master-directions-consolidation");
  const replaced = page.locator('[data-circular-directions] [data-direction-role="replaced"]');
  await expect(replaced).toHaveCount(2);
  await expect(replaced.first()).toContainText("no longer in force");
  await page.goto("/circulars/rbi-2021-08-27-prepaid-payment-instruments-directions");
  await page.locator('[data-direction-role="issued"]').getByRole("link").click();
  await expect(page).toHaveURL(/\/master-directions\/ppi-2021\/?$/);
});

test("the API: the text on any date and a comparison of any two", async ({ request }) => {
  const text = await request.get("/api/master-directions/ppi-2021/text?date=2024-01-01");
  expect(text.status()).toBe(200);
  const t = await text.json();
  expect(t.provisions.map((p: { id: string }) => p.id)).toContain("10.3");
  expect(t.provisions.map((p: { id: string }) => p.id)).not.toContain("11.6.3");
  const cmp = await request.get("/api/master-directions/ppi-2021/compare?from=2024-01-01&to=2025-12-31");
  expect(cmp.status()).toBe(200);
  const c = await cmp.json();
  expect(c.added).toBe(2);
  expect(c.unknown.map((u: { date: string }) => u.date)).toEqual(["2024-02-23"]);
  const bad = await request.get("/api/master-directions/ppi-2021/compare?from=someday");
  expect(bad.status()).toBe(400);
  expect((await bad.json()).fields.from).toContain("not a date");
});
