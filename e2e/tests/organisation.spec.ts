import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { axeViolations, inviteLink, screenshot } from "./helpers";

// Organisations (issue 44): an admin creates one and invites by e-mail;
// the invited user signs up from the invitation's link (/join) and joins;
// the admin makes them a viewer, who then sees no admin controls; someone
// else is told the organisation is not found. Invitations are the .eml
// files the server writes into its data folder (no SMTP).

const password = "S3cret-Pa55word!";
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

// newPage is a page in a new context of the project's options (axe needs
// a page of a context of its own).
const newPage = async (browser: Browser) => (await browser.newContext()).newPage();

// signedInPage is a page of a browser context of its own (its own
// localStorage) for a new account made through the API.
async function signedInPage(browser: Browser, info: TestInfo, first: string) {
  const page = await newPage(browser);
  const username = unique(info, "org");
  const res = await page.request.post("/api/auth/signup", {
    data: { username, email: `${username}@example.com`, password, firstName: first, lastName: "Rao" },
  });
  expect(res.status()).toBe(201);
  const token = ((await res.json()) as { token: string }).token;
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return page;
}

async function expectNoViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

async function signUpWith(page: Page, first: string, username: string, email: string) {
  await page.getByLabel("First name").fill(first);
  await page.getByLabel("Last name").fill("Kumar");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

test.describe("organisation", () => {
  test("signed out, /organisation sends to sign in and back", async ({ page }) => {
    await page.goto("/organisation");
    await page.waitForURL(/\/login\?next=(%2F|\/)organisation/);
  });

  test("create, invite by e-mail, join through /join, make a viewer; a viewer sees no admin controls; another user finds nothing", async ({ browser }, info) => {
    const a = await signedInPage(browser, info, "Asha");
    await a.goto("/");
    await a.getByRole("button", { name: /Account menu for Asha Rao/ }).click();
    await expect(a.getByRole("link", { name: "Organisation" })).toHaveAttribute("href", "/organisation");

    await a.goto("/organisation");
    await expect(a.locator("[data-no-organisations]")).toBeVisible();
    const name = `Team ${unique(info, "")}`;
    await a.getByLabel("Name", { exact: true }).fill(name);
    await a.getByLabel("Payment Aggregators").check();
    await a.getByRole("button", { name: "Create Organisation" }).click();
    await a.waitForURL(/\/organisation\?id=/);
    const orgID = new URL(a.url()).searchParams.get("id")!;
    await expect(a.locator("[data-organisation-list]")).toContainText(`${name} (Admin)`);
    await expect(a.locator("[data-member]")).toHaveCount(1);

    // Invite B as a member; the e-mail's link opens /join.
    const bUser = unique(info, "orgb");
    const bEmail = `${bUser}@example.com`;
    await a.locator("[data-invite-form]").getByLabel("E-mail address").fill(bEmail);
    await a.locator("[data-invite-form]").getByLabel("Role").selectOption("member");
    await a.getByRole("button", { name: "Send Invitation" }).click();
    await expect(a.getByText(`${bEmail} can join ${name} as member`).first()).toBeVisible();
    await expectNoViolations(a);
    await screenshot(a, info, "organisation-admin");
    const link = new URL(await inviteLink(bEmail));

    // B, signed out, signs up from the link and comes back to join.
    const b = await newPage(browser);
    await b.goto(link.pathname + link.search);
    await expect(b.locator("[data-join-signed-out]")).toBeVisible();
    await expectNoViolations(b);
    await screenshot(b, info, "join-signed-out");
    await b.getByRole("link", { name: "Create an account" }).click();
    await b.waitForURL(/\/signup\?next=/);
    await signUpWith(b, "Ravi", bUser, bEmail);
    await b.waitForURL((u) => u.pathname === "/join/" && u.searchParams.has("token"));
    await expect(b.locator("[data-join]")).toContainText(bEmail);
    await screenshot(b, info, "join-signed-in");
    await b.getByRole("button", { name: "Join" }).click();
    await b.waitForURL((u) => u.pathname === "/organisation" && u.searchParams.get("id") === orgID);
    await expect(b.locator("[data-my-role]")).toContainText("Your role: Member");

    // The link works once.
    await b.goto(link.pathname + link.search);
    await b.getByRole("button", { name: "Join" }).click();
    await expect(b.locator('[data-join-refused="409"]')).toContainText("This invitation was already used.");

    // A sees B and makes them a viewer.
    await a.reload();
    const row = a.locator("[data-member]").filter({ hasText: bEmail });
    await expect(row).toContainText("Ravi Kumar");
    await expect(row.locator("[data-member-role-label]")).toHaveText("Member");
    await row.getByLabel("Role").selectOption("viewer");
    await row.getByRole("button", { name: "Save role" }).click();
    await expect(a.getByText("Ravi Kumar is now viewer.").first()).toBeVisible();
    await expect(row.locator("[data-member-role-label]")).toHaveText("Viewer");

    // B, a viewer, sees the members but no admin controls.
    await b.goto(`/organisation?id=${orgID}`);
    await expect(b.locator("[data-my-role]")).toContainText("Your role: Viewer");
    await expect(b.locator("[data-member]")).toHaveCount(2);
    await expect(b.locator("[data-member-controls]")).toHaveCount(0);
    await expect(b.locator("[data-invite-form]")).toHaveCount(0);
    await expectNoViolations(b);
    await screenshot(b, info, "organisation-viewer");

    // C, in no organisation, is told A's is not found.
    const c = await signedInPage(browser, info, "Chitra");
    await c.goto(`/organisation?id=${orgID}`);
    await expect(c.locator("[data-organisation-error]")).toHaveText("No organisation of yours has that id");
    await expect(c.locator("[data-member]")).toHaveCount(0);
    await screenshot(c, info, "organisation-not-found");
    for (const p of [a, b, c]) await p.context().close();
  });

  test("the API refuses removing the last admin, and the page says why", async ({ browser }, info) => {
    const a = await signedInPage(browser, info, "Asha");
    await a.goto("/organisation");
    await a.getByLabel("Name", { exact: true }).fill(`Solo ${unique(info, "")}`);
    await a.getByRole("button", { name: "Create Organisation" }).click();
    await a.waitForURL(/\/organisation\?id=/);
    await a.getByRole("button", { name: "Leave" }).click();
    await expect(a.getByText("An organisation keeps at least one admin: make another member admin first").first()).toBeVisible();
    await a.context().close();
  });
});
