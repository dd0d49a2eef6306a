import { expect, test, type Page } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// Search over the Master Directions' provisions in force today (the real
// content, the server's clock): a question a provision answers cites the
// direction and paragraph, linked to the provision on the direction's
// page; the provisions found are listed apart from the circulars; a
// replaced direction's provisions are not in force and not listed.

const box = (page: Page) => page.getByRole("searchbox", { name: "Search text" });

async function search(page: Page, q: string) {
  await page.goto("/search");
  await page.waitForSelector("[data-island=Search][data-island-mounted]");
  await box(page).fill(q);
  await box(page).press("Enter");
  await expect(page.getByRole("heading", { name: /Results for/ })).toBeVisible();
}

test.describe("/search over the Master Directions", () => {
  test("a question a provision in force answers cites it, and its link opens the provision", async ({ page }, info) => {
    await search(page, "what details are collected before issuing a small PPI");
    const answer = page.getByRole("region", { name: "Direct Answer" });
    await expect(answer).toContainText("Extracted from a Master Direction in force (no AI)");
    await expect(answer).toContainText("Commercial Banks KYC Directions, 2025"); // the text in force, not the one it replaced
    const cite = answer.getByRole("link", { name: "MD-PPIs, 2021, para 9.1(i)(b): Small PPIs that can be reloaded: minimum details" });
    await expect(cite).toHaveAttribute("href", "/master-directions/ppi-2021/#p-9-1-i-b");
    await expect(answer.getByRole("heading", { name: "Related circulars" })).toBeVisible();

    const found = page.getByRole("region", { name: "Master Directions in force" });
    await expect(found.locator("[data-provision]").first()).toHaveAttribute("data-provision", "ppi-2021 9.1(i)(b)");
    await expect(found.locator("mark").first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, info, "search-provision-answer");

    await cite.click();
    await expect(page).toHaveURL(/\/master-directions\/ppi-2021\/#p-9-1-i-b$/);
    const provision = page.locator("#p-9-1-i-b");
    await expect(provision).toHaveAttribute("data-provision", "9.1(i)(b)");
    await expect(provision).toBeInViewport();
    await expect(provision).toContainText("Commercial Banks KYC Directions, 2025");
  });

  test("a replaced direction's provisions are not listed; a circular's answer keeps its sources", async ({ page }) => {
    // The card directions were replaced on 28 November 2025: their
    // credit limit paragraph is no longer in force.
    await search(page, "credit limit without consent");
    await expect(page.getByRole("region", { name: "Direct Answer" })).toBeVisible();
    await expect(page.locator("[data-provision^='credit-debit-card-2022 ']")).toHaveCount(0);

    await search(page, "RBI/2021-22/96");
    const answer = page.getByRole("region", { name: "Direct Answer" });
    await expect(answer).toContainText("Extracted from the circulars");
    await expect(answer.getByRole("heading", { name: "Sources" })).toBeVisible();
  });
});
