import { expect, test, type Page } from "@playwright/test";
import { axeViolations, isMobile, screenshot } from "./helpers";

// Each test signs up its own user (the server's data folder is fresh for
// each run), so tests run in parallel without sharing accounts.
let counter = 0;
function newUser(info: { workerIndex: number; project: { name: string } }) {
  const id = `${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;
  return { firstName: "Asha", lastName: "Rao", username: `asha_${id}`, email: `asha.${id}@example.com`, password: "secret-pass-1" };
}
type NewUser = ReturnType<typeof newUser>;

async function signUp(page: Page, u: NewUser) {
  await page.goto("/signup");
  await page.getByLabel("First name").fill(u.firstName);
  await page.getByLabel("Last name").fill(u.lastName);
  await page.getByLabel("Username").fill(u.username);
  await page.getByLabel("Email").fill(u.email);
  await page.getByLabel("Password", { exact: true }).fill(u.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL("/");
}

async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function openUserMenu(page: Page) {
  const trigger = page.getByRole("button", { name: /^Account menu for / });
  await trigger.click();
  return page.locator("[data-user-menu]");
}

test.describe("accounts", () => {
  test("sign up, the user menu, sign out, sign in", async ({ page }, info) => {
    const u = newUser(info);
    await signUp(page, u);
    await expect(page.getByText("Account created successfully!", { exact: true })).toBeVisible();
    await expect(page.getByText("Welcome to RegPulse, the Unified Fintech Portal.", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toMatch(/^ey/);
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("link", { name: "Login" })).toHaveCount(0);
    const menu = await openUserMenu(page);
    await expect(menu.getByText("Asha Rao")).toBeVisible();
    await expect(menu.getByText(u.email)).toBeVisible();
    await expect(menu.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/profile");
    await screenshot(page, info, "user-menu");
    if (isMobile(info)) {
      await expect(page.locator("[data-tabbar]").getByRole("link", { name: "Profile" })).toHaveAttribute("href", "/profile");
    }
    await menu.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL("/login");
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    await expect(banner.getByRole("link", { name: "Login" })).toBeVisible();
    if (isMobile(info)) {
      await expect(page.locator("[data-tabbar]").getByRole("link", { name: "Profile" })).toHaveAttribute("href", "/login");
    }

    await signIn(page, u.username, u.password);
    await page.waitForURL("/");
    await expect(page.getByText("Welcome back!", { exact: true })).toBeVisible();
    await expect(page.getByText("Successfully signed in to RegPulse", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Account menu for Asha Rao" })).toBeVisible();
  });

  test("the header never shows Login to a signed-in user", async ({ page }, info) => {
    await signUp(page, newUser(info));
    // Slow the current-user call: Login must stay hidden meanwhile.
    await page.route("**/api/auth/me", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto("/news");
    const login = page.getByRole("banner").getByRole("link", { name: "Login" });
    await expect(login).toBeHidden();
    const slot = page.locator("[data-auth-slot]");
    const before = await slot.boundingBox();
    await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
    const after = await slot.boundingBox();
    expect(Math.abs((after?.width ?? 0) - (before?.width ?? 0))).toBeLessThan(24);
    await expect(login).toHaveCount(0);
  });

  test("wrong password and unknown user give the same notice", async ({ page }, info) => {
    const u = newUser(info);
    await signUp(page, u);
    await page.evaluate(() => localStorage.clear());
    for (const [name, pw] of [[u.username, "wrong-password"], ["nobody-here", "wrong-password"]]) {
      await page.goto("/login");
      await signIn(page, name, pw);
      await expect(page.getByText("Sign in failed", { exact: true })).toBeVisible();
      await expect(page.getByText("Invalid username or password", { exact: true })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
    }
    await screenshot(page, info, "login-failed");
  });

  test("sign-in validation messages and the pending label", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Create account" })).toHaveAttribute("href", "/signup");
    let sent = 0;
    await page.route("**/api/auth/login", async (route) => {
      sent++;
      await new Promise((r) => setTimeout(r, 1000));
      await route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ error: "Invalid username or password" }) });
    });
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Username is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();
    expect(sent).toBe(0);
    // show/hide toggle
    const pw = page.getByLabel("Password", { exact: true });
    await pw.fill("abc");
    await expect(pw).toHaveAttribute("type", "password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(pw).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(pw).toHaveAttribute("type", "password");
    await page.getByLabel("Username").fill("someone");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("button", { name: "Signing In..." })).toBeDisabled();
    await expect(page.getByText("Sign in failed", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign In" })).toBeEnabled();
    expect(sent).toBe(1);
  });

  test("sign-up validation messages, the pending label and a taken username", async ({ page }, info) => {
    await page.goto("/signup");
    await expect(page.getByRole("heading", { name: "Create Account" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    await page.getByRole("button", { name: "Create Account" }).click();
    for (const msg of ["First name is required", "Last name is required", "Username must be at least 3 characters", "Invalid email address", "Password must be at least 6 characters"]) {
      await expect(page.getByText(msg)).toBeVisible();
    }
    await page.getByLabel("Username").fill("x".repeat(51));
    await page.getByLabel("Email").fill("not-an-email@");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Username too long")).toBeVisible();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await screenshot(page, info, "signup-errors");

    const u = newUser(info);
    await signUp(page, u);
    await page.evaluate(() => localStorage.clear());
    await page.goto("/signup");
    await page.route("**/api/auth/signup", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByLabel("First name").fill("Other");
    await page.getByLabel("Last name").fill("Person");
    await page.getByLabel("Username").fill(u.username.toUpperCase());
    await page.getByLabel("Email").fill("other." + u.email);
    await page.getByLabel("Password", { exact: true }).fill("another-pass");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("button", { name: "Creating Account..." })).toBeDisabled();
    await expect(page.getByText("Sign up failed", { exact: true })).toBeVisible();
    await expect(page.locator("[data-field-error]", { hasText: "Username already taken" })).toBeVisible();
  });

  test("profile: signed out goes to /login and back; preferences saved and shown after reload", async ({ page }, info) => {
    await page.goto("/profile");
    await page.waitForURL(/\/login\?next=/);
    const u = newUser(info);
    await signUp(page, u);
    await page.evaluate(() => localStorage.removeItem("auth_token"));
    await page.goto("/profile");
    await page.waitForURL("/login?next=/profile");
    await signIn(page, u.username, u.password);
    await page.waitForURL("/profile");
    const account = page.locator("[data-account]");
    await expect(account).toContainText("Asha Rao");
    await expect(account).toContainText(u.username);
    await expect(account).toContainText(u.email);
    await expect(account).toContainText("Member since");
    const emailNotes = page.getByLabel("Email notifications");
    await expect(emailNotes).toBeChecked();
    await expect(page.getByLabel("Monthly newsletter")).not.toBeChecked();
    await page.getByLabel("Card Issuers").check();
    await page.getByLabel("RBI").check();
    await page.getByLabel("high").check();
    await page.getByLabel("UPI", { exact: true }).check();
    await emailNotes.uncheck();
    await page.getByLabel("Monthly newsletter").check();
    // The team e-mails: both on for a new user; mentions turned off.
    const mentions = page.getByLabel("@mentions me");
    await expect(mentions).toBeChecked();
    await expect(page.getByLabel("Daily reminder of my decisions")).toBeChecked();
    await mentions.uncheck();
    await page.getByRole("button", { name: "Save Preferences" }).click();
    await expect(page.getByText("Preferences saved", { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Card Issuers")).toBeChecked();
    await expect(page.getByLabel("Payment Service Providers")).not.toBeChecked();
    await expect(page.getByLabel("RBI")).toBeChecked();
    await expect(page.getByLabel("NPCI")).not.toBeChecked();
    await expect(page.getByLabel("high")).toBeChecked();
    await expect(page.getByLabel("UPI", { exact: true })).toBeChecked();
    await expect(page.getByLabel("Email notifications")).not.toBeChecked();
    await expect(page.getByLabel("Monthly newsletter")).toBeChecked();
    await expect(page.getByLabel("@mentions me")).not.toBeChecked();
    await expect(page.getByLabel("Daily reminder of my decisions")).toBeChecked();
    await screenshot(page, info, "profile");
  });

  test("profile: change password signs other sessions out; log out everywhere", async ({ page, browser }, info) => {
    const u = newUser(info);
    await signUp(page, u);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto("/login");
    await signIn(otherPage, u.username, u.password);
    await otherPage.waitForURL("/");

    await page.goto("/profile");
    await page.getByLabel("Current password", { exact: true }).fill("wrong-one");
    await page.getByLabel("New password", { exact: true }).fill("new-secret-2");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(page.locator("[data-field-error]", { hasText: "Current password is incorrect" })).toBeVisible();
    await page.getByLabel("Current password", { exact: true }).fill(u.password);
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(page.getByText("Password changed", { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.locator("[data-account]")).toContainText(u.username); // this session goes on

    await otherPage.reload();
    await expect(otherPage.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible(); // that one is out
    await other.close();

    await page.getByRole("button", { name: "Log out everywhere" }).click();
    await page.waitForURL("/login");
    await signIn(page, u.username, "new-secret-2");
    await page.waitForURL("/");
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`no accessibility violations on /login, /signup and /profile (${scheme})`, async ({ page }, info) => {
      test.setTimeout(120_000); // axe takes over 10 s on /profile's many checkboxes
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of ["/login", "/signup"]) {
        await page.goto(path);
        await expect(page.locator("[data-island-mounted]")).toHaveCount(1);
        expect(await axeViolations(page), path).toEqual([]);
        await screenshot(page, info, `${path.slice(1)}-${scheme}`);
      }
      await signUp(page, newUser(info));
      await page.goto("/profile");
      await expect(page.getByRole("button", { name: "Save Preferences" })).toBeVisible();
      expect(await axeViolations(page), "/profile").toEqual([]);
      await screenshot(page, info, `profile-${scheme}`);
      const menu = await openUserMenu(page);
      await expect(menu.getByRole("link", { name: "Settings" })).toBeVisible();
      expect(await axeViolations(page), "/profile with the user menu open").toEqual([]);
    });
  }
});
