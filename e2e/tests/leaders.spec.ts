import { expect, test, type Page } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// Real content: 18 Indian companies (NPCI included) and 14 Global ones, so
// both lists have two pages of 12.
const INDIAN = 18;
const GLOBAL = 14;
const indian = (page: Page) => page.locator("[data-list=leaders-indian] > article:visible");
const global = (page: Page) => page.locator("[data-list=leaders-global] > article:visible");
const pager = (page: Page, label: string) => page.getByRole("navigation", { name: `${label} pages` });
const search = (page: Page) => page.getByRole("searchbox", { name: "Search leaders" });

test.describe("/fintech-leaders", () => {
  test("its texts, the Indian order, role titles and the cards", async ({ page }, info) => {
    await page.goto("/fintech-leaders");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Top Fintech Leaders");
    await expect(search(page)).toHaveAttribute("placeholder", "Search leaders by name or company...");
    await expect(page.locator("[data-count=leaders-indian]")).toHaveText(String(INDIAN));
    await expect(page.locator("[data-count=leaders-global]")).toHaveText(String(GLOBAL));
    // 12 per list per page
    await expect(indian(page)).toHaveCount(12);
    await expect(global(page)).toHaveCount(12);

    // The payments-body chief first, then the prominent founders (no
    // sourced card-network co-founder exists), then by company name.
    const first = indian(page).first();
    await expect(first.getByRole("heading", { level: 3 })).toHaveText("Dilip Asbe");
    await expect(first).toContainText("CEO & MD");
    await expect(first).toContainText("National Payments Corporation of India (NPCI)");
    const people = await indian(page).locator("h3").allTextContents();
    expect(people.slice(0, 6)).toEqual(["Dilip Asbe", "Kunal Shah", "Vijay Shekhar Sharma", "Sameer Nigam", "Harshil Mathur", "Nithin Kamath"]);
    expect(people[6]).toBe("Acko General Insurance"); // no founder: the company, no person

    const card = (id: string) => page.locator(`#leader-${id}`);
    await expect(card("paytm")).toContainText("Founder & CEO");
    await expect(card("razorpay")).toContainText("Co-Founder & CEO");
    await expect(card("go-digit")).toContainText(/Kamesh Goyal\s*Founder\s/); // content: not the CEO
    await expect(card("bharatpe")).toContainText(/Ashneer Grover\s*Co-Founder\s/);
    await expect(card("acko")).toContainText("Founders not verified");
    await expect(card("acko")).not.toContainText(/Founder &|Co-Founder/);
    // initials avatar, category, and the '#' profile fallback shown disabled
    await expect(card("razorpay").locator("span[aria-hidden=true]").first()).toHaveText("R");
    await expect(card("npci").locator("span[aria-hidden=true]").first()).toHaveText("NP");
    await expect(card("razorpay")).toContainText("Payment Processing");
    const profile = card("razorpay").getByRole("link", { name: /Profile/ });
    await expect(profile).toHaveAttribute("href", "#");
    await expect(profile).toHaveAttribute("aria-disabled", "true");

    // Global: by company name
    const companies = await global(page).locator("h3").allTextContents();
    expect(companies[0]).toBe("Pieter van der Does"); // Adyen
    expect(companies[1]).toBe("Max Levchin"); // Affirm
    await expect(card("affirm")).toContainText(/Max Levchin\s*Founder\s/); // content: CEO only as of March 2025
    await expect(pager(page, "Indian Leaders")).toContainText("Page 1 of 2 - Indian Leaders");
    await expect(pager(page, "Global Leaders")).toContainText("Page 1 of 2 - Global Leaders");
    await screenshot(page, info, "fintech-leaders");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("Next and Previous page each list on its own, and the pages survive a reload", async ({ page }) => {
    await page.goto("/fintech-leaders");
    const ip = pager(page, "Indian Leaders");
    await expect(ip.getByRole("button", { name: "Previous" })).toBeDisabled();
    await ip.getByRole("button", { name: "Next" }).click();
    await expect(ip).toContainText("Page 2 of 2 - Indian Leaders");
    await expect(indian(page)).toHaveCount(INDIAN - 12);
    await expect(indian(page).first()).toContainText("Jupiter");
    await expect(ip.getByRole("button", { name: "Next" })).toBeDisabled();
    await expect(global(page)).toHaveCount(12); // the other list stays on its page
    await expect(page).toHaveURL(/\?ip=2$/);

    await pager(page, "Global Leaders").getByRole("button", { name: "Next" }).click();
    await expect(global(page)).toHaveCount(GLOBAL - 12);
    await expect(page).toHaveURL(/\?ip=2&gp=2$/);

    await page.reload();
    await expect(pager(page, "Indian Leaders")).toContainText("Page 2 of 2");
    await expect(pager(page, "Global Leaders")).toContainText("Page 2 of 2");
    await expect(indian(page)).toHaveCount(INDIAN - 12);

    await pager(page, "Indian Leaders").getByRole("button", { name: "Previous" }).click();
    await expect(indian(page)).toHaveCount(12);
    await expect(page).toHaveURL(/\?gp=2$/);
  });

  test("search narrows both lists, resets the pages and hides what has no match", async ({ page }) => {
    await page.goto("/fintech-leaders?ip=2&gp=2");
    // by company
    await search(page).fill("razorpay");
    await expect(indian(page)).toHaveCount(1);
    await expect(indian(page)).toContainText("Harshil Mathur");
    await expect(page.locator("#global-leaders")).toBeHidden();
    await expect(pager(page, "Indian Leaders")).toHaveCount(0);
    await expect(page).toHaveURL(/\?q=razorpay$/);
    await expect(page.locator("[data-count=leaders-indian]")).toHaveText("1");
    // by person
    await search(page).fill("kunal");
    await expect(indian(page)).toHaveCount(1);
    await expect(indian(page)).toContainText("CRED");
    // by a later co-founder
    await search(page).fill("Nikhil Kamath");
    await expect(indian(page)).toHaveCount(1);
    await expect(indian(page)).toContainText("Zerodha");
    // by category, across both lists
    await search(page).fill("Insurance");
    await expect(indian(page)).toHaveCount(3);
    await expect(global(page)).toHaveCount(1);
    await expect(global(page)).toContainText("Lemonade");
    // the search survives a reload
    await expect(page).toHaveURL(/\?q=Insurance$/);
    await page.reload();
    await expect(search(page)).toHaveValue("Insurance");
    await expect(indian(page)).toHaveCount(3);
    // nothing: one empty state
    await search(page).fill("xyzzy nobody here");
    await expect(page.getByText("No leaders found")).toBeVisible();
    await expect(page.locator("#indian-leaders")).toBeHidden();
    await expect(page.locator("#global-leaders")).toBeHidden();
    // emptying the search brings back page 1 of everything
    await search(page).fill("");
    await expect(indian(page)).toHaveCount(12);
    await expect(page.getByText("No leaders found")).toBeHidden();
    await expect(page).toHaveURL(/\/fintech-leaders$/);
  });

  test("passes axe in dark mode", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("regpulse-theme", "dark"));
    await page.goto("/fintech-leaders");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.waitForSelector("[data-island-mounted]");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("works without JavaScript: every card, no pager", async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/fintech-leaders");
    await expect(page.locator("[data-list=leaders-indian] > article")).toHaveCount(INDIAN);
    await expect(page.locator("[data-list=leaders-global] > article")).toHaveCount(GLOBAL);
    await expect(page.locator("[data-list] > article:visible")).toHaveCount(INDIAN + GLOBAL);
    await expect(page.getByRole("button", { name: "Next" })).toHaveCount(0);
    await expect(page.getByText("No leaders found")).toBeHidden();
    await ctx.close();
  });
});
