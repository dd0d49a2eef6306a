import { expect, test, type APIRequestContext, type Browser, type TestInfo } from "@playwright/test";
import { axeViolations, inviteLink, screenshot } from "./helpers";

// An organisation's admin settings and register (issue 44): an admin sets
// single sign-on on /organisation and is shown the callback address and
// each domain's DNS TXT record (the server of these tests trusts the
// domains an admin names, --sso-trust-domains, so they show verified); a
// viewer sees no single sign-on; /organisation/register lists the
// organisation's obligations with its score, read-only.

const password = "S3cret-Pa55word!";
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

// account is a new account made through the API, with its bearer header.
async function account(request: APIRequestContext, info: TestInfo, first: string) {
  const username = unique(info, "set");
  const email = `${username}@example.com`;
  const res = await request.post("/api/auth/signup", { data: { username, email, password, firstName: first, lastName: "Rao" } });
  expect(res.status()).toBe(201);
  const token = ((await res.json()) as { token: string }).token;
  return { email, token, auth: { Authorization: `Bearer ${token}` } };
}

// pageOf is a page of a browser context of its own signed in with token.
async function pageOf(browser: Browser, token: string) {
  const page = await (await browser.newContext()).newPage();
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return page;
}

// inviteToken is the token of the invitation e-mailed to address.
async function inviteToken(address: string): Promise<string> {
  const token = new URL(await inviteLink(address)).searchParams.get("token");
  if (!token) throw new Error(`no token in the /join link e-mailed to ${address}`);
  return token;
}

test("an admin saves single sign-on and sees the TXT record; a viewer sees no single sign-on", async ({ browser, request }, info) => {
  const admin = await account(request, info, "Asha");
  const name = `Settings Org ${unique(info, "")}`;
  const created = await request.post("/api/organisations", { headers: admin.auth, data: { name, entityTypes: ["PSP"] } });
  expect(created.status()).toBe(201);
  const orgID = ((await created.json()) as { id: string }).id;

  const a = await pageOf(browser, admin.token);
  await a.goto(`/organisation?id=${orgID}`);
  const sso = a.locator("[data-sso]");
  await expect(sso.locator("[data-sso-callback]")).toHaveText(/\/api\/auth\/sso\/callback$/);
  const domain = `${unique(info, "d")}.example`;
  await a.getByLabel("Issuer URL").fill("https://login.example.com");
  await a.getByLabel("Client ID").fill("regpulse-settings");
  await a.getByLabel("Client secret").fill("a-long-client-secret-4321");
  await a.getByLabel("E-mail domains").fill(domain);
  await a.getByLabel("Single sign-on is on").check();
  await a.getByRole("button", { name: "Save single sign-on" }).click();
  const record = sso.locator(`[data-sso-domain="${domain}"]`);
  await expect(record.locator("[data-record-name]")).toHaveText(`_regpulse-sso.${domain}`);
  await expect(record.locator("[data-record-value]")).toHaveText(/^regpulse-sso=\S+$/);
  await expect(record).toHaveAttribute("data-verified", "true");
  await expect(a.getByLabel("Client secret")).toHaveValue("");
  await expect(sso).toContainText("A secret is set (••••4321). Leave this empty to keep it.");
  await a.getByRole("button", { name: "Verify" }).click();
  await expect(sso.locator("[data-sso-verify-result]")).toHaveText("Every domain is verified: people of these domains can sign in through your provider.");
  // Saved: a reload shows them again.
  await a.reload();
  await expect(a.getByLabel("Issuer URL")).toHaveValue("https://login.example.com");
  await expect(a.getByLabel("Single sign-on is on")).toBeChecked();
  expect(await axeViolations(a)).toEqual([]);
  await screenshot(a, info, "organisation-sso-admin");

  // A viewer, invited by e-mail, sees the organisation but no single sign-on.
  const viewer = await account(request, info, "Ravi");
  const inv = await request.post(`/api/organisations/${orgID}/invites`, { headers: admin.auth, data: { email: viewer.email, role: "viewer" } });
  expect(inv.status()).toBe(201);
  const accepted = await request.post("/api/invites/accept", { headers: viewer.auth, data: { token: await inviteToken(viewer.email) } });
  expect(accepted.status()).toBe(200);
  const v = await pageOf(browser, viewer.token);
  await v.goto(`/organisation?id=${orgID}`);
  await expect(v.locator("[data-my-role]")).toContainText("Viewer");
  await expect(v.locator("[data-members] [data-member]")).toHaveCount(2);
  await expect(v.locator("[data-sso]")).toHaveCount(0);
  await expect(v.getByRole("heading", { name: "Single sign-on" })).toHaveCount(0);
  expect(await axeViolations(v)).toEqual([]);
  await screenshot(v, info, "organisation-sso-viewer");
});

test("the organisation's register lists its obligations with its score, read-only", async ({ browser, request }, info) => {
  const admin = await account(request, info, "Asha");
  const name = `Register Page Org ${unique(info, "")}`;
  const created = await request.post("/api/organisations", { headers: admin.auth, data: { name, entityTypes: ["PSP"] } });
  expect(created.status()).toBe(201);
  const orgID = ((await created.json()) as { id: string }).id;
  const api = (await (await request.get(`/api/organisations/${orgID}/register?limit=1`, { headers: admin.auth })).json()) as { score: { score: number | null } };
  const total = Number((await request.get(`/api/organisations/${orgID}/register?limit=1`, { headers: admin.auth })).headers()["x-total-count"]);
  expect(total).toBeGreaterThan(0);

  const page = await pageOf(browser, admin.token);
  await page.goto(`/organisation?id=${orgID}`);
  await page.getByRole("link", { name: `The register of ${name}` }).click();
  await page.waitForURL(/\/organisation\/register\/?\?id=/);
  const score = page.locator("[data-register-score]");
  await expect(score).toContainText(`Compliance score of ${name}:`);
  await expect(score.locator("[data-score-value]")).toHaveText(api.score.score === null ? "no obligations apply" : `${api.score.score}%`);
  await expect(page.locator("[data-register-item]")).toHaveCount(total);
  await expect(page.locator("[data-read-only]")).toContainText("read-only");
  await expect(page.locator("[data-register-item] select, [data-register-item] textarea, [data-register-item] button")).toHaveCount(0);
  await expect(page.locator("[data-register-item]").first().locator("[data-item-circular]")).toHaveAttribute("href", /^\/circulars\/[^/]+$/);
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, info, "organisation-register");
});
