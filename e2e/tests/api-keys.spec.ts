import { expect, test, type APIRequestContext, type Browser, type TestInfo } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// An organisation's API keys (issue 47): an admin creates a key on
// /organisation and is shown its token once; the token works against the
// API as a bearer token, as far as its scope goes (a read key reads its
// organisation and the public calls, cannot write: 403, cannot reach a
// person's calls or another organisation); revoked from the page, it is
// refused (401).

const password = "S3cret-Pa55word!";
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

async function account(request: APIRequestContext, info: TestInfo, first: string) {
  const username = unique(info, "key");
  const res = await request.post("/api/auth/signup", { data: { username, email: `${username}@example.com`, password, firstName: first, lastName: "Rao" } });
  expect(res.status()).toBe(201);
  const token = ((await res.json()) as { token: string }).token;
  return { token, auth: { Authorization: `Bearer ${token}` } };
}

async function organisation(request: APIRequestContext, auth: Record<string, string>, name: string) {
  const res = await request.post("/api/organisations", { headers: auth, data: { name, entityTypes: ["PSP"] } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function pageOf(browser: Browser, token: string) {
  const page = await (await browser.newContext()).newPage();
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return page;
}

test("an admin creates a read key, it reads but cannot write, and once revoked it is refused", async ({ browser, request }, info) => {
  const admin = await account(request, info, "Asha");
  const orgID = await organisation(request, admin.auth, `Keys Org ${unique(info, "")}`);
  const otherID = await organisation(request, (await account(request, info, "Ravi")).auth, `Other Org ${unique(info, "")}`);

  const a = await pageOf(browser, admin.token);
  await a.goto(`/organisation?id=${orgID}`);
  const keys = a.locator("[data-api-keys]");
  await expect(keys.locator("[data-no-api-keys]")).toBeVisible();
  await a.getByLabel("Key name").fill("GRC feed");
  await a.getByLabel("Scope").selectOption("read");
  await a.getByRole("button", { name: "Create key" }).click();
  const shown = keys.locator("[data-token]");
  await expect(shown).toHaveText(/^rpk_[A-Za-z0-9_-]{43}$/);
  await expect(keys).toContainText("Copy this token now: you will not see it again.");
  const token = (await shown.textContent())!.trim();
  const row = keys.locator("[data-api-key]");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(token.slice(0, 12) + "…");
  expect(await axeViolations(a)).toEqual([]);
  await screenshot(a, info, "organisation-api-key-created");
  await a.getByRole("button", { name: "I have copied it" }).click();
  await expect(shown).toHaveCount(0);

  // The token against the API, as a system would send it.
  const key = { Authorization: `Bearer ${token}` };
  const org = await request.get(`/api/organisations/${orgID}`, { headers: key });
  expect(org.status()).toBe(200);
  expect(((await org.json()) as { canDecide: boolean }).canDecide).toBe(false);
  expect((await request.get(`/api/organisations/${orgID}/register`, { headers: key })).status()).toBe(200);
  const circulars = await request.get("/api/circulars?limit=1", { headers: key });
  expect(circulars.status()).toBe(200);
  const circular = ((await circulars.json()) as { id: string }[])[0];
  // A read key cannot write.
  const write = await request.put(`/api/organisations/${orgID}/decision?type=circular&subject=${circular.id}`, { headers: key, data: { applicability: "applicable", version: 0 } });
  expect(write.status()).toBe(403);
  expect(((await write.json()) as { error: string }).error).toContain("scope read");
  // Nor manage, nor a person's calls, nor another organisation.
  expect((await request.get(`/api/organisations/${orgID}/api-keys`, { headers: key })).status()).toBe(403);
  const me = await request.get("/api/auth/me", { headers: key });
  expect(me.status()).toBe(403);
  expect(((await me.json()) as { error: string }).error).toContain("API keys cannot call this");
  expect((await request.get(`/api/organisations/${otherID}`, { headers: key })).status()).toBe(404);

  // Its use shows on the page; then the admin revokes it.
  await a.reload();
  await expect(row).toContainText("Last used");
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("Revoke GRC feed?");
  await row.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toHaveAttribute("data-status", "revoked");
  const refused = await request.get(`/api/organisations/${orgID}`, { headers: key });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["www-authenticate"]).toContain("Bearer");
  expect((await request.get("/api/circulars?limit=1", { headers: key })).status()).toBe(401);
});

test("a read-write key records a decision but never manages keys", async ({ request }, info) => {
  const admin = await account(request, info, "Meera");
  const orgID = await organisation(request, admin.auth, `Write Org ${unique(info, "")}`);
  const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const created = await request.post(`/api/organisations/${orgID}/api-keys`, { headers: admin.auth, data: { name: "ServiceNow", scope: "read-write", expiresAt } });
  expect(created.status()).toBe(201);
  const { key, token } = (await created.json()) as { key: { id: string }; token: string };
  const auth = { Authorization: `Bearer ${token}` };
  const circular = ((await (await request.get("/api/circulars?limit=1", { headers: auth })).json()) as { id: string }[])[0];
  const put = await request.put(`/api/organisations/${orgID}/decision?type=circular&subject=${circular.id}`, { headers: auth, data: { applicability: "applicable", version: 0 } });
  expect(put.status()).toBe(200);
  // Never a key's to manage keys.
  expect((await request.delete(`/api/organisations/${orgID}/api-keys/${key.id}`, { headers: auth })).status()).toBe(403);
});
