import { expect, test } from "@playwright/test";
import { axeViolations, expectEvery, screenshot } from "./helpers";

const cards = (page: import("@playwright/test").Page) => page.locator("[data-list=regulations] > article:visible");

test.describe("/pii-regulations", () => {
  test("every regulation, its texts and the overview", async ({ page }, info) => {
    await page.goto("/pii-regulations");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Global PII & Privacy Regulations");
    await expect(cards(page)).toHaveCount(9);
    const gdpr = cards(page).filter({ hasText: "GDPR" });
    await expect(gdpr).toContainText("Effective: 25 May 2018");
    await expect(gdpr.getByRole("link", { name: /Official Text/ })).toHaveAttribute("href", /eur-lex\.europa\.eu/);
    // a regulation without an official link gets a web search for it
    const cppa = cards(page).filter({ hasText: "Bill C-27" });
    await expect(cppa).toContainText("Effective: Not specified");
    await expect(cppa.getByRole("link", { name: /Official Text/ })).toHaveAttribute("href", /google\.com\/search\?q=.*official\+text/);
    // first three key provisions, then "+N more" that opens the rest
    const more = gdpr.locator("summary");
    if ((await more.count()) > 0) {
      await expect(more).toHaveText(/^\+\d+ more$/);
    }
    await expect(page.getByRole("definition").first()).toHaveText(/\d+/);
    await page.waitForSelector("[data-island-mounted]");
    await screenshot(page, info, "pii-regulations");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("search, filters, Clear Filters, empty state and the URL", async ({ page }) => {
    await page.goto("/pii-regulations");
    const search = page.getByRole("searchbox", { name: "Search regulations" });
    await search.fill("india");
    // the two Indian laws, and the GDPR, whose description mentions India
    await expect(cards(page)).toHaveCount(3);
    await expectEvery(cards(page), (text) => text.toLowerCase().includes("india"));
    await expect(page).toHaveURL(/\?q=india$/);

    await search.fill("");
    await page.getByRole("combobox", { name: "Country" }).selectOption("Canada");
    await expect(cards(page)).toHaveCount(2);
    await page.getByRole("combobox", { name: "Status" }).selectOption("proposed");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText("Bill C-27");

    // the filtered view survives a reload
    await expect(page).toHaveURL(/status=proposed/);
    await page.reload();
    await expect(cards(page)).toHaveCount(1);
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("proposed");

    await search.fill("no such law");
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByText("No regulations found")).toBeVisible();

    await page.getByRole("button", { name: "Clear Filters" }).click();
    await expect(cards(page)).toHaveCount(9);
    await expect(page).toHaveURL(/\/pii-regulations$/);
  });

  test("a typo still finds the law, after the exact matches", async ({ page }) => {
    await page.goto("/pii-regulations?q=protction");
    await expect(cards(page).first()).toContainText(/Data Protection/);
  });

  test("View Details scrolls to its card", async ({ page }) => {
    await page.goto("/pii-regulations");
    const link = cards(page).last().getByRole("link", { name: /View Details/ });
    const href = await link.getAttribute("href");
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.locator(href!)).toBeInViewport();
  });

  test("dark mode passes axe", async ({ page }, info) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/pii-regulations?country=India");
    await page.waitForSelector("[data-island-mounted]");
    await expect(cards(page)).toHaveCount(2);
    await screenshot(page, info, "pii-regulations-dark");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("works without JavaScript", async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/pii-regulations");
    await expect(page.locator("[data-list=regulations] > article")).toHaveCount(9);
    await expect(page.getByText("No regulations found")).toBeHidden();
    await ctx.close();
  });
});
