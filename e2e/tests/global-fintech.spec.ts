import { expect, test, type Page } from "@playwright/test";
import { axeViolations, expectEvery, screenshot } from "./helpers";

// Real content: 18 Indian and 14 Global companies, none with a LinkedIn
// or X profile yet.
const INDIAN = 18;
const GLOBAL = 14;
const indian = (page: Page) => page.locator("[data-list=founders-indian] > article:visible");
const global = (page: Page) => page.locator("[data-list=founders-global] > article:visible");
const search = (page: Page) => page.getByRole("searchbox", { name: "Search founders" });
const category = (page: Page) => page.getByRole("combobox", { name: "Category" });
const stat = (page: Page, term: string) => page.locator("dl > div").filter({ has: page.getByRole("term").filter({ hasText: term }) }).getByRole("definition");

test.describe("/global-fintech", () => {
  test("its texts, groups, cards and statistics", async ({ page }, info) => {
    await page.goto("/global-fintech");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fintech Leaders & Founders");
    await expect(page.getByRole("heading", { level: 2, name: /Indian Founders/ })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: /Global Founders/ })).toBeVisible();
    await expect(indian(page)).toHaveCount(INDIAN);
    await expect(global(page)).toHaveCount(GLOBAL);
    await expect(page.locator("[data-count=founders-indian]")).toHaveText(String(INDIAN));
    await expect(page.locator("[data-count=founders-global]")).toHaveText(String(GLOBAL));

    await expect(stat(page, "Indian founders")).toHaveText(String(INDIAN));
    await expect(stat(page, "Global founders")).toHaveText(String(GLOBAL));
    await expect(stat(page, "Categories")).toHaveText("6");
    await expect(stat(page, "With LinkedIn profile")).toHaveText("0");

    const razorpay = page.locator("#founder-razorpay");
    await expect(razorpay.getByRole("heading", { level: 3 })).toHaveText("Razorpay");
    await expect(razorpay).toContainText("Founded: 2014");
    await expect(razorpay).toContainText("Founder: Harshil Mathur, Shashank Kumar");
    await expect(razorpay).toContainText("Payment Processing");
    await expect(razorpay.locator("span[aria-hidden=true]").first()).toHaveText("R");
    await expect(razorpay.getByRole("link")).toHaveCount(0); // LinkedIn and X only when present
    // Global cards show the country; missing facts say so
    await expect(page.locator("#founder-klarna")).toContainText("Founded: 2005 · Sweden");
    await expect(page.locator("#founder-acko")).toContainText("Founded: Not verified");
    await expect(page.locator("#founder-acko")).toContainText("Founder: Not verified");
    await expect(page.getByText("No founders found")).toBeHidden();

    await expect(category(page).locator("option")).toHaveText(["All Categories", "Payment Processing", "Digital Banking", "BNPL", "Lending", "Wealth Management", "Insurance"]);
    await page.waitForSelector("[data-island-mounted]");
    await screenshot(page, info, "global-fintech");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("search by company or founder, category filter, Clear Filters, empty state and the URL", async ({ page }) => {
    await page.goto("/global-fintech");
    await search(page).fill("collison");
    await expect(global(page)).toHaveCount(1);
    await expect(global(page)).toContainText("Stripe");
    await expect(page.locator("#indian-founders")).toBeHidden();
    await expect(page.locator("[data-count=founders-global]")).toHaveText("1");
    await expect(page).toHaveURL(/\?q=collison$/);

    await search(page).fill("pay");
    await expectEvery(page.locator("[data-list] > article:visible h3"), (text) => text.toLowerCase().includes("pay"));

    await search(page).fill("");
    await category(page).selectOption("Insurance");
    await expect(indian(page)).toHaveCount(3);
    await expect(global(page)).toHaveCount(1);
    await expect(page.locator("[data-count=founders-indian]")).toHaveText("3");
    await expect(page).toHaveURL(/\?category=Insurance$/);

    // the filtered view survives a reload
    await page.reload();
    await expect(category(page)).toHaveValue("Insurance");
    await expect(indian(page)).toHaveCount(3);

    await search(page).fill("klarna");
    await expect(page.getByText("No founders found")).toBeVisible();
    await expect(page.locator("#indian-founders")).toBeHidden();
    await expect(page.locator("#global-founders")).toBeHidden();

    await page.getByRole("button", { name: "Clear Filters" }).click();
    await expect(indian(page)).toHaveCount(INDIAN);
    await expect(global(page)).toHaveCount(GLOBAL);
    await expect(page.getByText("No founders found")).toBeHidden();
    await expect(page).toHaveURL(/\/global-fintech$/);
    await expect(page.getByRole("button", { name: "Clear Filters" })).toBeDisabled();
  });

  test("passes axe in dark mode", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("regpulse-theme", "dark"));
    await page.goto("/global-fintech");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.waitForSelector("[data-island-mounted]");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("works without JavaScript", async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/global-fintech");
    await expect(page.locator("[data-list] > article:visible")).toHaveCount(INDIAN + GLOBAL);
    await expect(page.getByText("No founders found")).toBeHidden();
    await ctx.close();
  });
});
