import { expect, test, type Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import { axeViolations, expectEvery, isMobile, screenshot } from "./helpers";

const cards = (page: Page) => page.locator("[data-list=networks] > article:visible");
const count = (page: Page) => page.locator("[data-count=networks]");
const search = (page: Page) => page.getByRole("searchbox", { name: "Search payment networks" });
const h1 = (page: Page) => page.getByRole("heading", { level: 1 });

// axeLightAndDark checks the page in the light theme, then switches to dark
// with the header's theme button and checks again.
async function axeLightAndDark(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
  await page.locator('[data-theme-choice="dark"]').click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await axeViolations(page)).toEqual([]);
}

test.describe("/payment-networks", () => {
  test("every network, its texts, screenshots and axe", async ({ page }, info) => {
    await page.goto("/payment-networks");
    await page.waitForSelector("[data-island-mounted]");
    await expect(h1(page)).toHaveText("Payment Networks & Card Schemes");
    await expect(page).toHaveTitle("Payment Networks & Card Schemes · RegPulse");
    await expect(cards(page)).toHaveCount(11);
    await expect(count(page)).toHaveText("11");
    for (const name of ["Visa", "Mastercard", "RuPay", "American Express", "Diners Club", "JCB", "UnionPay", "UPI (NPCI)", "IMPS (NPCI)", "NEFT (RBI)", "RTGS (RBI)"]) {
      await expect(cards(page).getByRole("heading", { name, exact: true })).toHaveCount(1);
    }

    const visa = cards(page).filter({ has: page.getByRole("heading", { name: "Visa", exact: true }) });
    await expect(visa.locator("[aria-hidden=true]").first()).toHaveText("💳");
    // first three guidelines, the rest behind "+N more" (Visa has 7)
    await expect(visa.getByRole("list", { name: "Guidelines for Visa" }).getByRole("listitem")).toHaveCount(3);
    await expect(visa.locator("summary")).toHaveText("+4 more");
    await expect(visa).toContainText("Contact: Visa Inc. (global operator)");
    // no website in the content: said so, no invented link
    await expect(visa.getByRole("link", { name: /Official Website/ })).toHaveCount(0);
    await expect(visa).toContainText("No verified website yet");
    await expect(visa.getByRole("link", { name: /Full profile.*Visa/ })).toHaveAttribute("href", "/payment-networks/visa");
    const jcb = cards(page).filter({ has: page.getByRole("heading", { name: "JCB", exact: true }) });
    await expect(jcb.getByRole("link", { name: /Official Website/ })).toHaveAttribute("href", "https://www.global.jcb/");

    for (const item of ["Visa", "Mastercard", "American Express", "RuPay", "UnionPay", "JCB", "PCI DSS", "EMV", "3D Secure"]) {
      await expect(page.locator(`[data-quick-search="${item}"]`)).toHaveText(item);
    }
    await screenshot(page, info, "payment-networks");
    await axeLightAndDark(page);
    await screenshot(page, info, "payment-networks-dark");
  });

  test("search narrows the list, keeps the count and survives a reload", async ({ page }) => {
    await page.goto("/payment-networks");
    await search(page).fill("rupay");
    await expect(page).toHaveURL(/\?q=rupay$/);
    // RuPay first (its name matches), then the networks whose text mentions it
    await expect(cards(page).first().getByRole("heading", { level: 2 })).toHaveText("RuPay");
    const n = await cards(page).count();
    expect(n).toBeLessThan(11);
    await expect(count(page)).toHaveText(String(n));
    await expectEvery(cards(page), (text) => text.toLowerCase().includes("rupay"));

    // guidelines are searched too, including those behind "+N more"
    await search(page).fill("T+5");
    await expect(cards(page).first()).toContainText("T+5");

    await search(page).fill("rtgs");
    // The browser must have the new URL before it reloads: replaceState
    // reaches it a moment after the page has it.
    await expect(page).toHaveURL(/\?q=rtgs$/);
    await page.reload();
    await expect(search(page)).toHaveValue("rtgs");
    await expect(cards(page).first().getByRole("heading", { level: 2 })).toHaveText("RTGS (RBI)");
  });

  test("a quick-reference item sets the search", async ({ page }) => {
    await page.goto("/payment-networks");
    await page.waitForSelector("[data-island-mounted]");
    await page.locator('[data-quick-search="UnionPay"]').click();
    await expect(search(page)).toHaveValue("UnionPay");
    await expect(page).toHaveURL(/\/payment-networks\?q=UnionPay$/);
    await expect(cards(page).first().getByRole("heading", { level: 2 })).toHaveText("UnionPay");
    await expect(page.locator('[data-quick-search="UnionPay"]')).toHaveAttribute("aria-current", "true");

    await page.locator('[data-quick-search="PCI DSS"]').click();
    await expect(search(page)).toHaveValue("PCI DSS");
    await expectEvery(cards(page), (text) => text.includes("PCI DSS"));
  });

  test("?filter= names the page after the network and pre-fills the search", async ({ page }, info) => {
    await page.goto("/payment-networks?filter=visa");
    await expect(h1(page)).toHaveText("Visa Payment Network");
    await expect(page).toHaveTitle("Visa Payment Network · RegPulse");
    await expect(search(page)).toHaveValue("Visa");
    await expect(cards(page).first().getByRole("heading", { level: 2 })).toHaveText("Visa");
    await expect(page).toHaveURL(/\?filter=visa&q=Visa$/);

    // a search of one's own is no longer the filtered network's page
    await search(page).fill("NEFT");
    await expect(h1(page)).toHaveText("Payment Networks & Card Schemes");
    await expect(page).toHaveURL(/\/payment-networks\?q=NEFT$/);

    // the sidebar's link for a two-word name (the sidebar is hidden on phones)
    if (isMobile(info)) await page.goto("/payment-networks?filter=american%20express");
    else await page.getByRole("complementary").getByRole("link", { name: "American Express" }).click();
    await expect(page).toHaveURL(/\?filter=american(%20|\+)express&q=American(%20|\+)Express$/);
    await expect(h1(page)).toHaveText("American Express Payment Network");
    await expect(search(page)).toHaveValue("American Express");
  });

  test("nothing found shows the empty state", async ({ page }) => {
    await page.goto("/payment-networks?q=no%20such%20network");
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByText("No payment networks found")).toBeVisible();
    await expect(count(page)).toHaveText("0");
    await search(page).fill("");
    await expect(cards(page)).toHaveCount(11);
    await expect(page.getByText("No payment networks found")).toBeHidden();
    await expect(page).toHaveURL(/\/payment-networks$/);
  });

  test("works without JavaScript", async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/payment-networks?filter=visa");
    await expect(page.locator("[data-list=networks] > article")).toHaveCount(11);
    await expect(page.locator("[data-list=networks] > article:visible")).toHaveCount(11);
    await expect(page.getByText("No payment networks found")).toBeHidden();
    await expect(page.locator('[data-quick-search="3D Secure"]')).toHaveAttribute("href", "/payment-networks?q=3D%20Secure");
    await page.locator("#network-rupay").getByRole("link", { name: /Full profile.*RuPay/ }).click();
    await expect(page).toHaveURL(/\/payment-networks\/rupay$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("RuPay");
    await ctx.close();
  });
});

test.describe("/payment-networks/{network}", () => {
  test("a network's page shows everything known about it", async ({ page }, info) => {
    await page.goto("/payment-networks/visa");
    await expect(h1(page)).toHaveText("Visa");
    await expect(page).toHaveTitle("Visa · RegPulse");
    await expect(page.getByText("Visa Inc.", { exact: true }).first()).toBeVisible();
    const facts = page.getByRole("region", { name: "Facts" });
    await expect(facts).toContainText(/Type:\s*Card network/);
    await expect(facts).toContainText(/Founded:\s*1958 \(as BankAmericard; renamed Visa in 1976\)/);
    await expect(facts).toContainText(/Headquarters:\s*Not verified/);
    // all seven guidelines, none hidden
    await expect(page.getByRole("region", { name: /Guidelines/ }).getByRole("listitem")).toHaveCount(7);
    await expect(page.getByRole("heading", { name: "Guidelines (7)" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Profile" })).toContainText("BankAmericard programme in Fresno");
    await expect(page.getByRole("link", { name: /Source of this profile/ })).toHaveAttribute("href", "https://www.syncrat.com/posts/4790/history-of-visa");
    await expect(page.getByText("Official website: not verified yet")).toBeVisible();
    await screenshot(page, info, "payment-network-visa");
    await axeLightAndDark(page);

    await page.getByRole("link", { name: "Back to Payment Networks & Card Schemes" }).click();
    await expect(page).toHaveURL(/\/payment-networks$/);
  });

  test("UPI: its hand-kept guidelines' date, its recent circulars derived", async ({ page }) => {
    const content = new URL("../../content/", import.meta.url);
    const asOf = /^guidelinesAsOf: (\d{4}-\d{2}-\d{2})$/m.exec(readFileSync(new URL("networks/upi.md", content), "utf8"))![1];
    // the newest circular of content/ with UPI in its title, neither
    // withdrawn nor replaced, is among the newest naming UPI
    const dir = new URL("circulars/", content);
    const files = readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => ({ slug: f.slice(0, -3), front: readFileSync(new URL(f, dir), "utf8").split("\n---")[0] }));
    const replaced = new Set(files.flatMap(({ front }) => [...(/^supersedes:\n((?:- .*\n)+)/m.exec(front)?.[1] ?? "").matchAll(/- (\S+)/g)].map((m) => m[1])));
    const newest = files
      .filter(({ slug, front }) => /^title: .*\bUPI\b/m.test(front) && !/^withdrawn:/m.test(front) && !/^published: false/m.test(front) && !replaced.has(slug))
      .map(({ slug, front }) => ({ slug, date: /^publishedDate: "?(\d{4}-\d{2}-\d{2})/m.exec(front)![1] }))
      .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))[0];

    await page.goto("/payment-networks/upi");
    const guidelines = page.getByRole("region", { name: /Guidelines/ });
    await expect(guidelines.locator("[data-guidelines-as-of] time")).toHaveAttribute("datetime", asOf);
    await expect(guidelines.locator("[data-guidelines-as-of]")).toHaveText(
      `As of ${new Date(asOf + "T00:00:00Z").toLocaleDateString("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })}`);
    const recent = page.getByRole("region", { name: "Recent circulars" });
    await expect(recent).toContainText(/name “UPI” or “Unified Payments Interface” in their title or summary/);
    const items = recent.getByRole("listitem");
    await expect(items).toHaveCount(5);
    await expect(recent.locator(`a[href="/circulars/${newest.slug}"]`)).toHaveCount(1);
    // the hand-kept list is as current as the circulars about UPI
    // (make check-content warns when one is newer than its date)
    expect(newest.date <= asOf).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  test("a network with a website links it", async ({ page }) => {
    await page.goto("/payment-networks/jcb");
    await expect(page.getByRole("link", { name: /Official Website/ })).toHaveAttribute("href", "https://www.global.jcb/");
    await page.getByRole("link", { name: "All payment networks" }).click();
    await expect(page).toHaveURL(/\/payment-networks$/);
  });
});
