import { expect, test, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { axeViolations, screenshot } from "./helpers";

// Obligations: a circular's section with its source sentences marked, the
// register (/obligations) where a signed-in user marks them, and the score
// on /impact-tracker that follows. Each test signs up its own user.
let counter = 0;
function newUser(info: { workerIndex: number; project: { name: string } }) {
  const id = `${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;
  return { username: `ob_${id}`, email: `ob.${id}@example.com`, password: "secret-pass-1" };
}

async function signUp(page: Page, info: { workerIndex: number; project: { name: string } }) {
  const u = newUser(info);
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Asha");
  await page.getByLabel("Last name").fill("Rao");
  await page.getByLabel("Username").fill(u.username);
  await page.getByLabel("Email").fill(u.email);
  await page.getByLabel("Password", { exact: true }).fill(u.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL("/");
}

// chooseBusiness saves the entity types on /profile.
async function chooseBusiness(page: Page, ...names: string[]) {
  await page.goto("/profile");
  for (const n of names) await page.getByLabel(n).check();
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expect(page.getByText("Preferences saved", { exact: true })).toBeVisible();
}

const apiLimits = "/circulars/npci-2025-05-21-upi-api-usage-limits";

test.describe("obligations", () => {
  test("a circular's obligations, each source sentence marked in the text; a draft's oblige no one", async ({ page }, info) => {
    await page.goto(apiLimits);
    const section = page.locator("[data-obligations]");
    await expect(section.getByRole("heading", { name: "Obligations" })).toBeVisible();
    await expect(section.locator("[data-obligation]")).toHaveCount(4);
    await expect(section).toContainText("31 July 2025");
    await expect(section).toContainText("PSP banks and acquiring banks: monitor and throttle the API traffic you send to UPI for the ten most-used UPI APIs.");
    await expect(section).toContainText("Payment Service Providers");
    await expect(section).toContainText("Reporting");
    const mark = page.locator("mark#obligation-1");
    await expect(mark).toHaveText(/^PSP banks and acquiring banks must monitor and throttle the API traffic/);
    await section.getByRole("link", { name: "Show in the text" }).first().click();
    await expect(page).toHaveURL(/#obligation-1$/);
    await expect(mark).toBeInViewport();
    await screenshot(page, info, "circular-obligations");

    await page.goto("/circulars/rbi-2025-10-29-cross-border-inward-payments-draft");
    await expect(page.locator("[data-obligations-draft]")).toContainText("It obliges no one yet");
    await expect(page.locator("[data-obligations]")).toContainText("Not binding yet");
  });

  test("the register: a user's obligations by due date, marked done, filtered, searched, exported; the score follows", async ({ page }, info) => {
    await page.goto("/obligations");
    await page.waitForURL(/\/login\?next=%2Fobligations|\/login\?next=\/obligations/);
    await signUp(page, info);

    // Without a business chosen: only the obligations of all regulated entities, and a link to choose.
    await page.goto("/obligations");
    await expect(page.locator("[data-no-entity-types]").getByRole("link", { name: "Choose your business on your profile" })).toBeVisible();

    await chooseBusiness(page, "Payment Aggregators");
    await page.goto("/obligations");
    const register = page.locator("[data-register]");
    await expect(register.locator("[data-no-entity-types]")).toHaveCount(0);
    // A new register: what fell due before it began tracking is in force,
    // to confirm, not overdue.
    await expect(page.locator("[data-due-group=in-force]").getByRole("heading", { name: /In force before you began tracking: confirm you comply/ })).toBeVisible();
    await expect(page.locator("[data-due-group=overdue]")).toHaveCount(0);
    await expect(page.locator("[data-due-group=no-date]")).toBeVisible();
    const score = page.locator("[data-register-score] [data-score-value]");
    await expect(score).toHaveText("0%");

    const item = page.locator("[data-register-item]").filter({ hasText: "Cross-border payment aggregators: do not process a cross-border transaction of more than ₹25 lakh." });
    await expect(item).toHaveCount(1);
    await item.getByLabel("Status").selectOption("done");
    await expect(page.getByText("Saved", { exact: true })).toBeVisible();
    await expect(item).toHaveAttribute("data-status", "done");
    await expect(score).not.toHaveText("0%");
    const mine = await score.textContent();

    await item.getByLabel("Note").fill("Cap enforced in the switch.");
    await item.getByRole("button", { name: "Save note" }).click();
    await item.getByRole("button", { name: "Show history" }).click();
    await expect(item.locator("[data-history] li")).toHaveCount(2);
    await expect(item.locator("[data-history]")).toContainText("Cap enforced in the switch.");

    // Filters and search live in the URL and survive a reload.
    await page.getByLabel("Status", { exact: true }).first().selectOption("done");
    await expect(page.locator("[data-register-item]")).toHaveCount(1);
    await expect(page).toHaveURL(/status=done/);
    await page.reload();
    await expect(page.locator("[data-register-item]")).toHaveCount(1);
    await page.locator("#register-status").selectOption("all");
    await page.getByLabel("Search your obligations").fill("escrow");
    await expect(page.locator("[data-register-item]").first()).toContainText(/escrow/i);
    await expect(page.locator("[data-register-item]").filter({ hasNotText: /escrow/i })).toHaveCount(0);
    await screenshot(page, info, "register");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const csv = await readFile((await (await download).path())!, "utf8");
    expect(csv.split("\r\n")[0]).toContain("dueGroup,status,note,statusUpdatedAt");
    expect(csv).toContain("escrow");

    await page.goto("/impact-tracker");
    await expect(page.locator("[data-your-score] [data-score-value]")).toHaveText(mine!);
    await expect(page.locator("[data-catalog-figure]").first()).toBeVisible();

    // Confirm at once, with a note, what was in force before tracking.
    await page.goto("/obligations?group=in-force");
    const inForce = page.locator("[data-due-group=in-force] [data-register-item]");
    await expect(inForce.first()).toBeVisible();
    const open = await inForce.filter({ hasNot: page.locator("[data-status=done]") }).count();
    await page.getByLabel("Note for each (optional)").fill("Reviewed with our compliance head.");
    await page.getByRole("button", { name: /^Confirm all \d+ as complied with$/ }).click();
    await expect(page.getByText(/obligations? marked done, with your note in each history/).first()).toBeVisible();
    await expect(page.locator("[data-confirm-in-force] [data-confirmed]")).toHaveText("All confirmed or set.");
    await expect(inForce.and(page.locator(":not([data-status=done])"))).toHaveCount(0);
    expect(open).toBeGreaterThan(0);
    const first = inForce.first();
    await first.getByRole("button", { name: "Show history" }).click();
    await expect(first.locator("[data-history]")).toContainText("Reviewed with our compliance head.");
    await expect(score).not.toHaveText(mine!);
  });

  test("a withdrawn circular's obligations are not due; one whose cited provisions changed is marked for review, on its page and in the register", async ({ page }, info) => {
    // the 2017 customer liability circular, withdrawn by the 28 Nov 2025 consolidation
    await page.goto("/circulars/rbi-2017-07-06-customer-liability-unauthorised-transactions");
    const ended = page.locator('[data-lifecycle="ended"]');
    await expect(ended).toContainText("No longer in force since 28 November 2025: withdrawn by");
    await expect(ended.locator("[data-rules-now-in]")).toContainText("Responsible Business Conduct");
    await expect(page.locator("[data-obligations-ended]")).toContainText("none of these is due or overdue");
    expect(await axeViolations(page)).toEqual([]);

    // the payment aggregators' merchant KYC obligation rests on paragraphs amended since
    await page.goto("/circulars/rbi-2025-09-15-payment-aggregators-master-direction");
    const review = page.locator("[data-obligation-review]");
    await expect(review).toHaveCount(1);
    await expect(review).toContainText("Changed: review. Paragraphs 15(a)(i), 15(a)(ii) changed from 28 November 2025");
    await screenshot(page, info, "obligation-review");
    await review.getByRole("link", { name: "Compare the text then and now" }).click();
    await expect(page).toHaveURL(/\/master-directions\/payment-aggregators-2025\/compare\/2025-09-15\/2025-11-28\/?$/);
    await expect(page.locator('[data-change="changed"][data-provision="15(a)(i)"]')).toBeVisible();

    await signUp(page, info);
    await chooseBusiness(page, "Payment Aggregators", "Card Issuers");
    await page.goto("/obligations");
    const item = page.locator("[data-register-item]").filter({ hasText: "follow the merchant KYC and settlement rules" });
    await expect(item.locator("[data-obligation-review]")).toContainText("of Payment Aggregator Directions, 2025 changed from 28 November 2025");
    // the withdrawn circular's obligation for issuers is not in the register
    await page.getByLabel("Search your obligations").fill("within 10 working days");
    await expect(page.getByText("No obligations match.")).toBeVisible();
  });

  test("while the server reads new circulars for obligations, the register says how far, then reloads", async ({ page }, info) => {
    await signUp(page, info);
    // the server's extraction of the real content is over in a second:
    // its answers are played here as a first start's would come
    const status = (done: number, running: boolean) => ({
      running, done, total: 20000, startedAt: "2026-11-28T10:00:00Z",
      finishedAt: running ? null : "2026-11-28T10:02:00Z",
      last: running ? null : { extracted: 19000, unchanged: 0, accepted: 0, written: 1000, obligations: 50000 },
    });
    const answers = [status(1200, true), status(9600, true), status(20000, false)];
    await page.route("**/api/obligations/extraction", (route) => route.fulfill({ json: answers.length > 1 ? answers.shift() : answers[0] }));
    let registerReads = 0;
    page.on("request", (r) => r.url().includes("/api/user/obligations?") && registerReads++);
    await page.goto("/obligations");
    const notice = page.locator("[data-extraction]");
    await expect(notice).toContainText("Reading new circulars for their obligations: 1,200 of 20,000 read.");
    await expect(page.locator("[data-register-item]").first()).toBeVisible();
    await screenshot(page, info, "register-extracting");
    const before = registerReads;
    await expect(notice).toContainText("9,600 of 20,000 read");
    await expect(notice).toHaveCount(0);
    await expect.poll(() => registerReads).toBeGreaterThan(before);
  });

  test("signed out, the impact tracker's scores are the catalog's, labelled so", async ({ page }) => {
    await page.goto("/impact-tracker");
    await expect(page.getByText("Sign in to see your own compliance score")).toBeVisible();
    await expect(page.locator("[data-catalog-figure]")).toHaveCount(3);
    await expect(page.locator("[data-your-score]")).toHaveCount(0);
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`no accessibility violations: a circular's obligations, /obligations, the impact tracker's score (${scheme})`, async ({ page }, info) => {
      test.setTimeout(150_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(apiLimits);
      await expect(page.locator("[data-obligations]")).toBeVisible();
      expect(await axeViolations(page), apiLimits).toEqual([]);
      await signUp(page, info);
      await chooseBusiness(page, "Payment Service Providers");
      await page.goto("/obligations");
      await expect(page.locator("[data-register-item]").first()).toBeVisible();
      expect(await axeViolations(page), "/obligations").toEqual([]);
      await screenshot(page, info, `register-${scheme}`);
      await page.goto("/impact-tracker");
      await expect(page.locator("[data-your-score]")).toBeVisible();
      expect(await axeViolations(page), "/impact-tracker").toEqual([]);
    });
  }
});
