import { expect, test, type TestInfo } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// Single sign-on (issue 44): an admin points the organisation at the
// test OpenID Connect provider the web server runs (testidp, which signs
// in whoever the login hint names); someone new of the organisation's
// domain signs in from /login with their work e-mail, goes through the
// provider and comes back signed in, a member, on the page they came
// from. An address of a domain no organisation covers is told so, and
// the password form stays.

const password = "S3cret-Pa55word!";
// As playwright.config.ts: the provider's port.
const idpPort = Number(process.env.E2E_PORT ?? 18080) + 10000;
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

test.describe("single sign-on", () => {
  test("a new address of the organisation's domain signs in through its provider and joins as a member", async ({ page, request }, info) => {
    // The admin, through the API: an account, an organisation, its settings.
    const admin = unique(info, "ssoadmin");
    const signup = await request.post("/api/auth/signup", {
      data: { username: admin, email: `${admin}@example.com`, password, firstName: "Asha", lastName: "Rao" },
    });
    expect(signup.status()).toBe(201);
    const auth = { Authorization: `Bearer ${((await signup.json()) as { token: string }).token}` };
    const name = `SSO Team ${unique(info, "")}`;
    const org = await request.post("/api/organisations", { data: { name }, headers: auth });
    expect(org.status()).toBe(201);
    const orgID = ((await org.json()) as { id: string }).id;
    const domain = `${unique(info, "d")}.example`;
    const put = await request.put(`/api/organisations/${orgID}/sso`, {
      headers: auth,
      data: { issuer: `http://127.0.0.1:${idpPort}`, clientId: "regpulse-e2e", clientSecret: "regpulse-e2e-secret", domains: [domain], enabled: true },
    });
    expect(put.status()).toBe(200);
    const settings = (await put.json()) as { clientSecretHint: string; redirectUri: string };
    expect(settings.redirectUri).toMatch(/\/api\/auth\/sso\/callback$/);
    expect(JSON.stringify(settings)).not.toContain("regpulse-e2e-secret");

    await page.goto("/login?next=/organisation");
    await expect(page.getByRole("heading", { name: "Sign in with your organisation's single sign-on" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, info, "login-sso");
    await page.getByLabel("Work e-mail").fill(`ravi@${domain}`);
    await page.getByRole("button", { name: "Continue with single sign-on" }).click();
    // Through the provider and back: signed in, on the page asked for,
    // the token no longer in the address.
    await page.waitForURL((u) => u.pathname === "/organisation" || u.pathname === "/organisation/");
    expect(new URL(page.url()).hash).toBe("");
    await expect(page.locator("[data-organisation-list]")).toContainText(`${name} (Member)`);
    const me = await page.evaluate(async () => {
      const res = await fetch("/api/auth/me", { headers: { Authorization: `Bearer ${localStorage.getItem("auth_token")}` } });
      return (await res.json()) as { user: { email: string } };
    });
    expect(me.user.email).toBe(`ravi@${domain}`);
  });

  test("an address no organisation covers is told so; the password form stays", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Work e-mail").fill("someone@nobody-signs-this-in.example");
    await page.getByRole("button", { name: "Continue with single sign-on" }).click();
    await expect(page.getByText("No organisation signs in addresses of this e-mail domain").first()).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel("Username")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  });

  test("a return with a token for another site's path goes home, never elsewhere", async ({ page }) => {
    await page.goto("/login/#sso_token=not-a-real-token&next=%2F%2Fevil.example%2F");
    await page.waitForURL((u) => u.pathname === "/" && u.host.startsWith("127.0.0.1"));
  });
});
