import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { axeViolations, holdRequests, screenshot } from "./helpers";

// Each test subscribes its own address: the server's data folder is fresh
// for each run and both projects run at once.
let counter = 0;
function address(info: TestInfo, what: string) {
  return `${what}.${info.project.name}${info.workerIndex}.${Date.now().toString(36)}${counter++}@example.com`;
}

// pageForm is the /newsletter page's form (the footer has one too).
const pageForm = (page: Page) => page.locator("#subscribe");
const footer = (page: Page) => page.getByRole("contentinfo");

test.describe("/newsletter", () => {
  test("the pitch, the claims, the privacy note; axe in light and dark", async ({ page }, info) => {
    test.slow(); // two axe runs
    await page.goto("/newsletter");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Newsletter");
    for (const card of ["Regulatory Updates", "Payment Systems", "Fintech Industry News", "Compliance Insights"]) {
      await expect(page.getByRole("heading", { level: 3, name: card })).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "What subscribers receive" })).toBeVisible();
    for (const claim of ["5K+", "95%", "Monthly"]) await expect(page.getByText(claim, { exact: true })).toBeVisible();
    await expect(page.getByText(/Every e-mail carries an unsubscribe link/).first()).toBeVisible();
    const form = pageForm(page);
    await expect(form.getByRole("heading", { name: "Subscribe to Monthly Updates" })).toBeVisible();
    await expect(form.getByRole("checkbox")).toHaveCount(5);
    await expect(form.getByRole("checkbox", { name: "Regulatory Updates" })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: "Industry Events" })).not.toBeChecked();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, info, "newsletter-light");
    await page.locator('[data-theme-choice="dark"]').click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, info, "newsletter-dark");
  });

  test("page form: checked before sending, then Subscribing..., the card and the toast", async ({ page }, info) => {
    await page.goto("/newsletter");
    const form = pageForm(page);
    await expect(page.locator("#subscribe [data-island-mounted]")).toHaveCount(1);
    let sent = 0;
    page.on("request", (r) => r.url().endsWith("/api/newsletter/subscribe") && sent++);
    await form.getByLabel("E-mail address").fill("not-an-address");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(form.getByText("Please enter a valid email address")).toBeVisible();
    expect(sent).toBe(0);

    // Hold the call to see the submitting state.
    const { release } = await holdRequests(page, "**/api/newsletter/subscribe");
    const email = address(info, "page");
    await form.getByLabel("First name (optional)").fill("Asha");
    await form.getByLabel("E-mail address").fill(email);
    await form.getByRole("checkbox", { name: "Industry Events" }).check();
    const request = page.waitForRequest("**/api/newsletter/subscribe");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(form.getByRole("button", { name: "Subscribing..." })).toBeDisabled();
    expect((await request).postDataJSON()).toEqual({
      email,
      source: "newsletter-page",
      firstName: "Asha",
      preferences: ["regulatory", "payments", "events"],
    });
    release();
    await expect(form.getByRole("heading", { name: "Successfully Subscribed!" })).toBeVisible();
    await expect(form.getByRole("button", { name: "Subscribe" })).toHaveCount(0);
    await expect(page.getByText("Successfully subscribed!", { exact: true })).toBeVisible();
    await expect(page.getByText("Thank you for subscribing to our newsletter. You'll receive our next update soon.").first()).toBeVisible();
    await screenshot(page, info, "newsletter-subscribed");
  });

  test("page form: a failure keeps the form and says so", async ({ page }) => {
    await page.route("**/api/newsletter/subscribe", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"internal server error"}' }),
    );
    await page.goto("/newsletter");
    const form = pageForm(page);
    await expect(page.locator("#subscribe [data-island-mounted]")).toHaveCount(1);
    await form.getByLabel("E-mail address").fill("someone@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByText("Subscription failed", { exact: true })).toBeVisible();
    await expect(page.getByText("Something went wrong. Please try again.", { exact: true })).toBeVisible();
    await expect(form.getByLabel("E-mail address")).toHaveValue("someone@example.com");
    await expect(form.getByRole("button", { name: "Subscribe" })).toBeEnabled();
  });
});

test.describe("the footer form", () => {
  test("plain until used, then the island: source website", async ({ page }, info) => {
    const scripts: string[] = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    await page.goto("/sibos-events");
    const f = footer(page);
    await expect(f.getByRole("heading", { name: "Get the monthly update" })).toBeVisible();
    expect(scripts.some((s) => /\/react-[^/]*\.js$/.test(s))).toBe(false); // no React before it is used
    const email = address(info, "footer");
    await f.getByLabel("E-mail address").fill(email);
    await expect(page.locator("[data-newsletter-footer][data-island-mounted]")).toHaveCount(1);
    await expect(f.getByLabel("E-mail address")).toHaveValue(email);
    const request = page.waitForRequest("**/api/newsletter/subscribe");
    await f.getByRole("button", { name: "Subscribe" }).click();
    expect((await request).postDataJSON()).toEqual({ email, source: "website" });
    await expect(f.getByRole("heading", { name: "Successfully Subscribed!" })).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the page form posts and lands on the confirmation page", async ({ page }, info) => {
    await page.goto("/newsletter");
    const form = pageForm(page);
    await form.getByLabel("E-mail address").fill(address(info, "nojs"));
    await form.getByRole("checkbox", { name: "Compliance Insights" }).check();
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/newsletter\/subscribed\?status=subscribed$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Successfully Subscribed!");
  });

  test("the footer form posts too; a bad address gets a page saying so", async ({ page }, info) => {
    await page.goto("/news");
    await footer(page).getByLabel("E-mail address").fill(address(info, "nojs-footer"));
    await footer(page).getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/newsletter\/subscribed\?status=subscribed$/);

    await page.goto("/news");
    // The browser's own check stops a bad address: post one past it.
    const res = await page.request.post("/api/newsletter/subscribe", { form: { email: "nope", source: "website" }, maxRedirects: 0 });
    expect(res.status()).toBe(400);
    expect(await res.text()).toContain("Please enter a valid email address");
  });
});

test.describe("unsubscribing", () => {
  test("a link that is not valid says so; the unsubscribed page offers to subscribe again", async ({ page }) => {
    const res = await page.goto("/api/newsletter/unsubscribe?token=forged.AAAA");
    expect(res?.status()).toBe(400);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Link not valid");
    await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
    await page.goto("/newsletter/unsubscribed");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're Unsubscribed");
    await page.getByRole("link", { name: "Subscribe again" }).click();
    await expect(page).toHaveURL(/\/newsletter#subscribe$/);
  });
});
