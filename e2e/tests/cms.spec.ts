import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page, type TestInfo } from "@playwright/test";
import { screenshot } from "./helpers";

// The editors' web UI (issue 46): Decap CMS at /admin over RegPulse's own
// backend, against a server of its own (cms-server.sh): a clone of the
// content whose remote is the bare repository remote.git, rebuilt at once
// when a reviewer publishes. An editor saves a draft in the browser, a
// reviewer publishes it, and the commit in the remote and the rebuilt
// page show it; the loader's refusal shows in Decap; a path outside
// content/ is a 400.

const base = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 18080) + 3}`;
const root = "test-results/cms"; // cms-server.sh's
const password = "S3cret-Pa55word!";
test.use({ baseURL: base });

// One browser's worth: the spec writes to one repository, and Decap is
// a desktop application.
test.beforeEach(({}, info) => {
  test.skip(info.project.name !== "desktop", "the editors' UI is tested on the desktop project only");
});

// Decap labels a field by its label, "(optional)" after one not required.
const summaryLabel = /^summary( \(optional\))?$/i;

type Person = { username: string; email: string; name: string; token: string };
let counter = 0;

// person signs up an account through the API and has the operator's
// tool give it role on the server's store.
async function person(request: APIRequestContext, info: TestInfo, role: "editor" | "reviewer", firstName: string, lastName: string): Promise<Person> {
  const username = `cms${role[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;
  const email = `${username}@example.com`;
  const res = await request.post("/api/auth/signup", { data: { username, email, password, firstName, lastName } });
  expect(res.status()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  const out = execFileSync("../bin/regpulse", ["users", "cms-role", username, role, "--data", `${root}/data`], { encoding: "utf8" });
  expect(out).toContain(`is now a CMS ${role}`);
  return { username, email, name: `${firstName} ${lastName}`, token };
}

// signedIn opens a page of its own signed in as who (the site keeps its
// token in localStorage; /admin's gate sends it with Decap's requests).
async function signedIn(browser: Browser, who: Person): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  await context.addInitScript((t) => localStorage.setItem("auth_token", t), who.token);
  const page = await context.newPage();
  page.on("dialog", (d) => d.accept()); // Decap confirms a publish with window.confirm
  return page;
}

// openAdmin opens /admin at hash and waits for ready, through Decap's
// Login button if it shows one (the gate keeps Decap's user, so it
// should not).
async function openAdmin(page: Page, hash: string, ready: Locator) {
  await page.goto(`/admin/${hash}`);
  const login = page.getByRole("button", { name: "Login" });
  await expect(ready.or(login).first()).toBeVisible({ timeout: 30_000 });
  if (await login.isVisible()) {
    await login.click();
    await expect(login).toBeHidden();
    await page.goto(`/admin/${hash}`);
  }
  await expect(ready).toBeVisible({ timeout: 30_000 });
}

// openEntry opens a circular in Decap's editor and answers its summary.
async function openEntry(page: Page, slug: string) {
  const summary = page.getByLabel(summaryLabel);
  await openAdmin(page, `#/collections/circulars/entries/${slug}`, summary);
  return summary;
}

// shot saves what the window shows (Decap's notifications are fixed to
// it; a full-page picture of its scrolling panes leaves them out).
async function shot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: `screenshots/${info.project.name}/${name}.png` });
}

function git(...args: string[]) {
  return execFileSync("git", args, { encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } }).trim();
}

test.describe("the editors' web UI", () => {
  test("an editor saves a draft, a reviewer publishes it: the remote's commit and the rebuilt page", async ({ browser, request }, info) => {
    const slug = "irdai-2017-04-07-insurer-cyber-security-guidelines";
    const file = `content/circulars/${slug}.md`;
    const title = "Guidelines on Information and Cyber Security for Insurers";
    const editor = await person(request, info, "editor", "Asha", "Rao");
    const reviewer = await person(request, info, "reviewer", "Ravi", "Menon");
    const before = git("-C", `${root}/remote.git`, "rev-parse", "main");
    // Short, and with nothing HTML escapes: found as typed in the file
    // (Decap rewrites the front matter, folding long lines) and the page.
    const newSummary = `Insurer cyber-security guidelines, edited in the browser (${Date.now().toString(36)}).`;

    // The editor: change the summary, save (a draft on its own branch).
    const ed = await signedIn(browser, editor);
    const summary = await openEntry(ed, slug);
    await shot(ed, info, "cms-editor");
    await summary.fill(newSummary);
    await ed.getByRole("button", { name: "Save", exact: true }).click();
    await expect(ed.getByText("Entry saved")).toBeVisible({ timeout: 20_000 });
    await expect(ed.getByText("Entry saved")).toBeInViewport({ ratio: 1 });
    await expect(ed.getByText(/Status: Draft/)).toBeVisible();
    await shot(ed, info, "cms-editor-saved");
    // Saved is not published: main, here and on the remote, has not moved.
    expect(git("-C", `${root}/remote.git`, "rev-parse", "main")).toBe(before);
    expect(git("-C", `${root}/clone`, "log", "-1", "--format=%an", `cms/circulars/${slug}`)).toBe(editor.name);

    // The editor may not publish their own draft, nor mark it ready.
    for (const [action, params] of [
      ["updateUnpublishedEntryStatus", { collection: "circulars", slug, newStatus: "pending_publish" }],
      ["publishUnpublishedEntry", { collection: "circulars", slug }],
    ] as const) {
      const res = await request.post("/api/cms", { headers: { Authorization: `Bearer ${editor.token}` }, data: { action, params } });
      expect(res.status(), action).toBe(403);
    }

    // The reviewer: the draft waits in the workflow; mark it ready, publish.
    const rv = await signedIn(browser, reviewer);
    const card = rv.getByRole("link", { name: new RegExp(title) }).or(rv.getByText(title)).first();
    await openAdmin(rv, "#/workflow", card);
    await shot(rv, info, "cms-workflow");
    await card.click();
    await expect(rv.getByLabel(summaryLabel)).toHaveValue(newSummary, { timeout: 30_000 });
    await rv.getByText(/Status: Draft/).click();
    await rv.getByRole("menuitem", { name: "Ready" }).or(rv.getByText("Ready", { exact: true })).first().click();
    await expect(rv.getByText("Entry status updated")).toBeVisible({ timeout: 20_000 });
    await rv.getByRole("button", { name: "Publish", exact: true }).click();
    await rv.getByRole("menuitem", { name: "Publish now" }).or(rv.getByText("Publish now", { exact: true })).first().click();
    await expect(rv.getByText("Entry published")).toBeVisible({ timeout: 30_000 });
    await expect(rv.getByText("Entry published")).toBeInViewport({ ratio: 1 });
    await shot(rv, info, "cms-published");

    // The remote holds one new commit on main: written by the editor,
    // committed by the reviewer, naming the item, changing its file only.
    const [author, committer, subject] = git("-C", `${root}/remote.git`, "log", "-1", "--format=%an <%ae>%n%cn <%ce>%n%s", "main").split("\n");
    expect(author).toBe(`${editor.name} <${editor.email}>`);
    expect(committer).toBe(`${reviewer.name} <${reviewer.email}>`);
    expect(subject).toContain(slug);
    expect(subject).toContain(title);
    expect(git("-C", `${root}/remote.git`, "log", "-1", "--format=%b", "main")).toContain(`Reviewed-by: ${reviewer.name} <${reviewer.email}>`);
    expect(git("-C", `${root}/remote.git`, "rev-parse", "main^")).toBe(before);
    expect(git("-C", `${root}/remote.git`, "show", "--name-only", "--format=", "main").split("\n")).toEqual([file]);
    expect(git("-C", `${root}/remote.git`, "show", `main:${file}`).replace(/\s+/g, " ")).toContain(newSummary);

    // The server rebuilt the site at once: the circular's page says it.
    await expect.poll(async () => (await request.get(`/circulars/${slug}`)).text(), { timeout: 30_000 }).toContain(newSummary);
    const site = await browser.newPage({ baseURL: base });
    await site.goto(`/circulars/${slug}`);
    await expect(site.getByText(newSummary).first()).toBeVisible();
    await screenshot(site, info, "cms-rebuilt-page");
    await Promise.all([ed.context().close(), rv.context().close(), site.close()]);
  });

  test("the loader refuses an invalid date: the file, line and field show in Decap, nothing is saved", async ({ browser, request }, info) => {
    const slug = "irdai-2022-09-02-cyber-guidelines-intermediaries";
    const editor = await person(request, info, "editor", "Meera", "Iyer");
    const ed = await signedIn(browser, editor);
    const summary = await openEntry(ed, slug);
    // Decap's date widget writes only real dates, so the date is made
    // invalid on the request's way out, as a hand-edited file or another
    // client would send it: what is checked is the backend's refusal and
    // Decap showing it.
    await ed.route("**/api/cms", async (route) => {
      const body = route.request().postDataJSON() as { action: string; params: { dataFiles?: { raw: string }[]; entry?: { raw: string } } };
      if (body.action === "persistEntry") {
        for (const f of [...(body.params.dataFiles ?? []), ...(body.params.entry ? [body.params.entry] : [])]) {
          f.raw = f.raw.replace(/^publishedDate: .*$/m, "publishedDate: 2024-13-01");
        }
        return route.continue({ postData: JSON.stringify(body) });
      }
      return route.continue();
    });
    await summary.fill("An edit whose date the loader refuses.");
    await ed.getByRole("button", { name: "Save", exact: true }).click();
    const problem = ed.getByText(new RegExp(`content/circulars/${slug}\\.md:\\d+: publishedDate`));
    await expect(problem.first()).toBeVisible({ timeout: 20_000 });
    await expect(problem.first()).toBeInViewport({ ratio: 1 }); // the notification slides in
    await shot(ed, info, "cms-invalid-date");
    // Nothing was committed: no draft branch for the entry.
    expect(git("-C", `${root}/clone`, "branch", "--list", `cms/circulars/${slug}`)).toBe("");
    await ed.context().close();
  });

  test("a path outside content/ and media/ is refused with a 400", async ({ request }, info) => {
    const editor = await person(request, info, "editor", "Kiran", "Das");
    const call = (action: string, params: object) =>
      request.post("/api/cms", { headers: { Authorization: `Bearer ${editor.token}` }, data: { action, params } });
    const entry = (path: string) => ({
      dataFiles: [{ slug: "x", path, raw: "---\ntitle: x\n---\n" }],
      assets: [],
      options: { collectionName: "circulars", commitMessage: "x", useWorkflow: true, status: "draft" },
    });
    for (const [action, params] of [
      ["getEntry", { path: "../../etc/passwd" }],
      ["getEntry", { path: "content/../.git/config" }],
      ["getEntry", { path: "/etc/passwd" }],
      ["persistEntry", entry("content/../.git/config")],
      ["persistEntry", entry("../../etc/passwd")],
      ["persistEntry", entry(".git/hooks/pre-commit")],
      ["persistEntry", { ...entry("content/circulars/x.md"), assets: [{ path: "media/../.git/config", content: "eA==", encoding: "base64" }] }],
    ] as const) {
      const res = await call(action, params);
      expect(res.status(), `${action} ${JSON.stringify(params).slice(0, 80)}`).toBe(400);
      expect(res.headers()["content-type"]).toContain("application/json");
      expect(((await res.json()) as { error: string }).error).toMatch(/path/);
    }
    // Nothing was written: no draft of "x", no file where they pointed.
    expect(git("-C", `${root}/clone`, "for-each-ref", "refs/heads/cms/circulars/x")).toBe("");
    expect(existsSync(`${root}/clone/.git/hooks/pre-commit`)).toBe(false);
    expect(readFileSync(`${root}/clone/.git/config`, "utf8")).not.toContain("title: x");
    // Signed out, the call is a 401 JSON, never the backend's.
    const anonymous = await request.post("/api/cms", { data: { action: "getEntry", params: { path: "content/circulars/x.md" } } });
    expect(anonymous.status()).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toMatch(/Sign in/);
  });
});
