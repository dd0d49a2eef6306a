import { expect, test, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { axeViolations, screenshot } from "./helpers";

// Alerts: a search saved through sign-in and back, edited and paused on
// /profile#alerts, and an anonymous subscription confirmed and left from
// its e-mail's links without signing in. E-mails are the .eml files
// `regpulse alerts send` writes into the server's data folder (no SMTP).

const password = "S3cret-Pa55word!";
const dataDir = "test-results/data";
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

async function newAccount(request: APIRequestContext, info: TestInfo) {
  const username = unique(info, "al");
  const res = await request.post("/api/auth/signup", {
    data: { username, email: `${username}@example.com`, password, firstName: "Asha", lastName: "Rao" },
  });
  expect(res.status()).toBe(201);
  return { username, token: ((await res.json()) as { token: string }).token };
}

async function signedIn(page: Page, info: TestInfo) {
  const { username, token } = await newAccount(page.request, info);
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return username;
}

// sendAlerts runs what serve --alerts-every runs, on the server's store.
function sendAlerts(baseURL: string) {
  execFileSync("../bin/regpulse", ["alerts", "send", "--data", dataDir, "--base-url", baseURL + "/"], { stdio: "pipe" });
}

// mailTo is the text of the e-mail to address (quoted-printable undone).
// Workers run `alerts send` side by side, and one may claim another's
// pending confirmation and still be writing it when the other's run has
// returned, so the outbox is read again for a while.
async function mailTo(address: string): Promise<string> {
  const dir = join(dataDir, "outbox", "alerts");
  for (const deadline = Date.now() + 15_000; ; ) {
    for (const f of readdirSync(dir)) {
      const raw = readFileSync(join(dir, f), "utf8");
      if (raw.includes(`<${address}>`) || raw.includes(`To: ${address}`)) {
        return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`no e-mail to ${address} in ${dir}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

const linkAfter = (text: string, label: string) => {
  const m = new RegExp(label + ": (\\S+)").exec(text);
  if (!m) throw new Error(`no "${label}" link in:\n${text}`);
  return m[1];
};

test.describe("alerts", () => {
  test("create an alert from a search: signed out, through sign-in and back with the search intact", async ({ page }, info) => {
    const { username } = await newAccount(page.request, info);
    await page.goto("/search?q=UPI&source=NPCI");
    const create = page.getByRole("button", { name: "Create alert for this search" });
    await create.click();
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((u) => u.pathname === "/search" && u.searchParams.get("q") === "UPI" && u.searchParams.get("source") === "NPCI");
    const status = page.locator("[data-search-alert] [role=status]");
    await expect(status).toContainText('Alert created: A daily digest (from 07:00 UTC) of new circulars matching "UPI" from NPCI.');
    expect(new URL(page.url()).searchParams.get("alert")).toBeNull(); // saved once, not again on reload
    await expect(page.locator("#search-q")).toHaveValue("UPI");
    await screenshot(page, info, "alerts-search-created");
    await status.getByRole("link", { name: "Manage your alerts" }).click();
    await page.waitForURL("/profile#alerts");
    const saved = page.locator('[data-alert="search"]');
    await expect(saved).toHaveCount(1);
    await expect(saved.getByRole("heading", { name: "UPI" })).toBeVisible();
  });

  test("edit, pause and resume an alert on /profile; the preferences' alert says what it sends", async ({ page }, info) => {
    await signedIn(page, info);
    await page.goto("/search?q=card%20tokenisation");
    await page.getByRole("button", { name: "Create alert for this search" }).click();
    await expect(page.locator("[data-search-alert] [role=status]")).toContainText("Alert created");
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "Set Alerts" }).click();
    await page.waitForURL("/profile#alerts");
    await expect(page.getByRole("heading", { level: 2, name: "Alerts" })).toBeVisible();
    const prefs = page.locator('[data-alert="preferences"]');
    await expect(prefs.locator("[data-alert-description]")).toHaveText("A daily digest (from 07:00 UTC) of new circulars (every new circular).");
    await expect(prefs.getByText("Last sent: never")).toBeVisible();
    const row = page.locator('[data-alert="search"]');
    await row.getByLabel("Name").fill("Tokenisation rules");
    await row.getByLabel("Frequency").selectOption("weekly");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Alert saved").first()).toBeVisible();
    await expect(row.locator("[data-alert-description]")).toHaveText('A weekly digest (Mondays from 07:00 UTC) of new circulars matching "card tokenisation".');
    await row.getByRole("button", { name: "Pause" }).click();
    await expect(row.getByText("Paused", { exact: true })).toBeVisible();
    const feed = await row.getByLabel("Private feed").inputValue();
    expect((await page.request.get(feed)).status()).toBe(200);
    await row.getByRole("button", { name: "New feed URL" }).click();
    await expect(row.getByLabel("Private feed")).not.toHaveValue(feed);
    expect((await page.request.get(feed)).status()).toBe(404);
    await page.reload();
    const again = page.locator('[data-alert="search"]');
    await expect(again.getByRole("heading", { name: "Tokenisation rules" })).toBeVisible();
    await expect(again.getByText("Paused", { exact: true })).toBeVisible();
    await expect(again.getByLabel("Frequency")).toHaveValue("weekly");
    await again.getByRole("button", { name: "Resume" }).click();
    await expect(again.getByText("On", { exact: true })).toBeVisible();
    await screenshot(page, info, "alerts-profile");
    page.on("dialog", (d) => d.accept());
    await again.getByRole("button", { name: "Delete" }).click();
    await expect(page.locator('[data-alert="search"]')).toHaveCount(0);
  });

  test("anonymous subscription: nothing before the confirmation link; unsubscribe from the e-mail without signing in", async ({ page, baseURL }, info) => {
    const email = `${unique(info, "reader")}@example.com`;
    await page.goto("/search?q=UPI%20Lite");
    await page.getByRole("button", { name: "or get it by e-mail without an account" }).click();
    await page.getByLabel("Your e-mail address (a daily digest of this search)").fill("not-an-address");
    await page.getByRole("button", { name: "Subscribe to this search" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await page.getByLabel("Your e-mail address (a daily digest of this search)").fill(email);
    await page.getByRole("button", { name: "Subscribe to this search" }).click();
    await expect(page.getByText(`Check your inbox: we sent a confirmation link to ${email}. Nothing is sent before you confirm.`)).toBeVisible();

    sendAlerts(baseURL!);
    const mail = await mailTo(email);
    expect(mail).toContain('Subject: Confirm your RegPulse alert "UPI Lite"');
    expect(mail).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    const confirm = linkAfter(mail, "Confirm this alert");
    const unsubscribe = linkAfter(mail, "Unsubscribe from this alert");

    await page.goto(confirm);
    await expect(page.getByRole("heading", { name: "Confirm your RegPulse alert" })).toBeVisible();
    await page.getByRole("button", { name: "Confirm alert" }).click();
    await expect(page.getByRole("heading", { name: "Alert confirmed" })).toBeVisible();
    await screenshot(page, info, "alerts-confirmed");

    const forged = confirm.replace(/token=[^&]+/, "token=" + encodeURIComponent("x~1.AAAA"));
    await page.goto(forged);
    await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();

    await page.goto(unsubscribe);
    await expect(page.getByRole("heading", { name: "Unsubscribe from this RegPulse alert" })).toBeVisible();
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "Unsubscribed" })).toBeVisible();
    await expect(page.getByText("This alert sends no more e-mails.")).toBeVisible();
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`no accessibility violations: /search's alert form, /profile's alerts, the e-mail's pages (${scheme})`, async ({ page, baseURL }, info) => {
      test.setTimeout(150_000); // axe on /profile's many checkboxes is slow on a busy machine
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/search?q=UPI");
      await page.getByRole("button", { name: "or get it by e-mail without an account" }).click();
      await expect(page.getByLabel("Your e-mail address (a daily digest of this search)")).toBeVisible();
      expect(await axeViolations(page), "/search").toEqual([]);
      await screenshot(page, info, `alerts-search-${scheme}`);

      const email = `${unique(info, "axe")}@example.com`;
      await page.getByLabel("Your e-mail address (a daily digest of this search)").fill(email);
      await page.getByRole("button", { name: "Subscribe to this search" }).click();
      await expect(page.getByText(/Check your inbox/)).toBeVisible();
      sendAlerts(baseURL!);
      await page.goto(linkAfter(await mailTo(email), "Confirm this alert"));
      await expect(page.getByRole("button", { name: "Confirm alert" })).toBeVisible();
      expect(await axeViolations(page), "the confirmation page").toEqual([]);

      await signedIn(page, info);
      await page.goto("/profile#alerts");
      await expect(page.locator('[data-alert="preferences"]')).toBeVisible();
      expect(await axeViolations(page), "/profile").toEqual([]);
      await screenshot(page, info, `alerts-profile-${scheme}`);
    });
  }
});
