import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { axeViolations, inviteLink, screenshot } from "./helpers";

// Team work (issue 44), from the browser: two members of one
// organisation (Asha, its admin, and Ravi, a member) and Vik, its viewer,
// and Chitra of another. Asha decides on a circular and gives it to Ravi
// with a due date already past (Meera, an auditor, joins too); Ravi finds it, overdue, in My work,
// comments @asha, uploads evidence and moves the work on, so that Asha's
// next change, of the version she read, is refused as stale; Asha
// accepts the evidence; Vik sees the
// decision and no controls; Chitra is told the board is not found; Asha
// exports the register (the file's SHA-256 shown) and moves Ravi's work
// back to herself. The organisations and the
// invitations are made through the API (the organisation spec drives
// those pages).

const password = "S3cret-Pa55word!";
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

type Person = { page: Page; username: string; email: string; first: string; last: string; token: string };

// person is a new account, signed in in a browser context of its own.
async function person(browser: Browser, info: TestInfo, first: string, last: string): Promise<Person> {
  const page = await (await browser.newContext()).newPage();
  const username = unique(info, "tw");
  const email = `${username}@example.com`;
  const res = await page.request.post("/api/auth/signup", { data: { username, email, password, firstName: first, lastName: last } });
  expect(res.status()).toBe(201);
  const token = ((await res.json()) as { token: string }).token;
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return { page, username, email, first, last, token };
}

const auth = (p: Person) => ({ Authorization: `Bearer ${p.token}` });

// join makes p a member of the organisation as role: the admin invites,
// p accepts the e-mailed link's token.
async function join(admin: Person, p: Person, orgID: string, role: string, accessEndsAt?: string) {
  const inv = await admin.page.request.post(`/api/organisations/${orgID}/invites`, { headers: auth(admin), data: { email: p.email, role, accessEndsAt } });
  expect(inv.status()).toBe(201);
  const token = new URL(await inviteLink(p.email)).searchParams.get("token");
  const res = await p.page.request.post("/api/invites/accept", { headers: auth(p), data: { token } });
  expect(res.status()).toBe(200);
}

async function createOrg(p: Person, name: string): Promise<string> {
  const res = await p.page.request.post("/api/organisations", { headers: auth(p), data: { name, entityTypes: ["PSP"] } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

// panelShot saves the decision panel alone (a circular's page is long).
async function panelShot(page: Page, info: TestInfo, name: string) {
  await page.locator("[data-decision-panel]").screenshot({ path: `screenshots/${info.project.name}/${name}.png` });
}

async function expectNoViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

test.describe("team work", () => {
  test("decide, assign, my work, comment, evidence, stale, review, read-only viewer, auditor, another organisation, export, reassign", async ({ browser }, info) => {
    test.setTimeout(240_000);
    const a = await person(browser, info, "Asha", "Rao");
    const b = await person(browser, info, "Ravi", "Kumar");
    const v = await person(browser, info, "Vik", "Shah");
    const c = await person(browser, info, "Chitra", "Iyer");
    const m = await person(browser, info, "Meera", "Das");
    const name = `Team ${unique(info, "")}`;
    const orgID = await createOrg(a, name);
    await join(a, b, orgID, "member");
    await join(a, v, orgID, "viewer");
    await join(a, m, orgID, "auditor", new Date(Date.now() + 30 * 86_400_000).toISOString());
    await createOrg(c, `Other ${unique(info, "")}`);

    // A circular of the catalog, as the API lists it.
    const list = await a.page.request.get("/api/circulars?limit=1");
    const circular = ((await list.json()) as { slug: string; title: string }[])[0];
    const circularPath = `/circulars/${circular.slug}`;

    // Asha decides: it applies, Ravi owns it, due on a day already past.
    await a.page.goto(circularPath);
    const panel = a.page.locator("[data-decision-panel]");
    await expect(panel.locator("[data-no-decision]")).toContainText(`${name} has not decided on this circular yet.`);
    await panel.getByLabel("Owner").selectOption({ label: `Ravi Kumar (@${b.username})` });
    await panel.getByLabel("Due").fill("2026-01-15");
    await panel.getByLabel("Status").selectOption("assessing");
    await panel.getByRole("button", { name: "Record the decision" }).click();
    await expect(panel.locator("[data-decision-owner]")).toHaveText("Ravi Kumar");
    await expect(panel.locator("[data-decision-current]")).toHaveAttribute("data-version", "1");
    await expect(panel.locator("[data-decision-due]")).toHaveText("15 January 2026");
    await expect(panel.locator("[data-overdue]")).toBeVisible();
    await expectNoViolations(a.page);
    await screenshot(a.page, info, "team-decision-admin");
    await panelShot(a.page, info, "team-panel-admin");

    // Ravi finds it in My work (from the user menu), overdue, and follows it.
    await b.page.goto("/");
    await b.page.getByRole("button", { name: /Account menu for Ravi Kumar/ }).click();
    await b.page.getByRole("link", { name: "My work" }).click();
    await b.page.waitForURL((u) => u.pathname === "/work/");
    const item = b.page.locator("[data-work-item]");
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute("data-overdue", "true");
    await expect(item).toContainText(name);
    await expect(item.locator("[data-overdue-label]")).toHaveText("Overdue");
    await expectNoViolations(b.page);
    await screenshot(b.page, info, "team-my-work");
    await item.getByRole("link", { name: circular.title }).click();
    await b.page.waitForURL((u) => u.pathname === circularPath || u.pathname === circularPath + "/");

    // Ravi comments, mentioning Asha, and uploads a file of evidence.
    const bPanel = b.page.locator("[data-decision-panel]");
    await bPanel.getByLabel("Add a comment").fill(`@${a.username} the policy is attached`);
    await bPanel.getByRole("button", { name: "Add comment" }).click();
    await expect(bPanel.locator("[data-comment]")).toContainText(`@${a.username}`);
    await expect(b.page.getByText("Mentioned: Asha Rao.").first()).toBeVisible();
    const file = Buffer.from(`%PDF-1.4\nboard approval ${unique(info, "")}\n`);
    await bPanel.getByLabel(/^File \(up to/).setInputFiles({ name: "approval.pdf", mimeType: "application/pdf", buffer: file });
    await bPanel.getByLabel("What it shows (optional)").fill("The board's approval");
    await bPanel.getByRole("button", { name: "Attach evidence" }).click();
    const piece = bPanel.locator("[data-evidence]");
    await expect(piece).toHaveCount(1);
    await expect(piece.locator("[data-evidence-sha256]")).toHaveText(createHash("sha256").update(file).digest("hex"));
    await expect(piece).toHaveAttribute("data-evidence-state", "pending");
    // A member does not review.
    await expect(bPanel.locator("[data-review]")).toHaveCount(0);
    await expectNoViolations(b.page);
    await screenshot(b.page, info, "team-decision-member");
    await panelShot(b.page, info, "team-panel-member");

    // Ravi moves the work on (version 2) while Asha's page still holds
    // version 1: her change is refused as stale, in plain words.
    await bPanel.getByLabel("Status").selectOption("action-planned");
    await bPanel.getByRole("button", { name: "Save the decision" }).click();
    await expect(bPanel.locator("[data-decision-current]")).toHaveAttribute("data-version", "2");
    await panel.getByLabel("Note").fill("Checked with the CISO");
    await panel.getByRole("button", { name: "Save the decision" }).click();
    await expect(panel.locator("[data-stale]")).toContainText("Someone else changed this decision after you opened it, so yours was not saved.");
    await panel.getByRole("button", { name: "Reload the decision" }).click();
    await expect(panel.locator("[data-decision-current]")).toHaveAttribute("data-version", "2");
    await expect(panel.locator("[data-decision-status]")).toHaveText("Action planned");

    // Asha accepts it, with a note.
    await a.page.reload();
    const aPiece = panel.locator("[data-evidence]");
    await aPiece.getByLabel("Review note (required to reject)").fill("Signed and dated");
    await aPiece.getByRole("button", { name: "Accept" }).click();
    await expect(aPiece).toHaveAttribute("data-evidence-state", "accepted");
    await expect(aPiece).toContainText("Signed and dated");
    await panelShot(a.page, info, "team-panel-reviewed");

    // Vik, a viewer, reads it all and sees no control.
    await v.page.goto(circularPath);
    const vPanel = v.page.locator("[data-decision-panel]");
    await expect(vPanel.locator("[data-decision-owner]")).toHaveText("Ravi Kumar");
    await expect(vPanel.locator("[data-evidence]")).toHaveCount(1);
    await expect(vPanel.locator("[data-read-only]")).toContainText("you read the decision");
    for (const control of ["[data-decide-form]", "[data-comment-form]", "[data-evidence-form]", "[data-review]"]) {
      await expect(vPanel.locator(control)).toHaveCount(0);
    }
    // Any member downloads the file: the bytes uploaded.
    const download = v.page.waitForEvent("download");
    await vPanel.getByRole("button", { name: "approval.pdf" }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe("approval.pdf");
    expect(readFileSync(await saved.path())).toEqual(file);
    await expectNoViolations(v.page);
    await screenshot(v.page, info, "team-decision-viewer");
    await panelShot(v.page, info, "team-panel-viewer");

    // Meera, an auditor, reviews evidence and nothing else.
    await m.page.goto(circularPath);
    const mPanel = m.page.locator("[data-decision-panel]");
    await expect(mPanel.locator("[data-evidence] [data-review]")).toHaveCount(1);
    for (const control of ["[data-decide-form]", "[data-comment-form]", "[data-evidence-form]"]) {
      await expect(mPanel.locator(control)).toHaveCount(0);
    }
    await expect(mPanel.locator("[data-read-only]")).toContainText("review its evidence");
    await expectNoViolations(m.page);
    await panelShot(m.page, info, "team-panel-auditor");

    // Chitra, of another organisation, is told the board is not found.
    await c.page.goto(`/organisation/board/?id=${orgID}`);
    await expect(c.page.locator("[data-board-error]")).toHaveText("No organisation of yours has that id");
    await expect(c.page.locator("[data-board]")).toHaveCount(0);
    await screenshot(c.page, info, "team-board-not-found");

    // Asha's board, from the organisation page: Ravi's work, then moved back to her.
    await a.page.goto(`/organisation?id=${orgID}`);
    await a.page.getByRole("link", { name: `Team board of ${name}` }).click();
    await a.page.waitForURL((u) => u.pathname === "/organisation/board/");
    await expect(a.page.locator("[data-board-total]")).toHaveText("1 decision.");
    await a.page.getByLabel("Owner").selectOption({ label: "Ravi Kumar" });
    await expect(a.page.getByRole("heading", { name: `Ravi Kumar's work in ${name}` })).toBeVisible();
    await expect(a.page.locator("[data-work-item]")).toHaveCount(1);
    // The register's export: the file saved is the one whose SHA-256 the page shows.
    for (const format of ["XLSX", "PDF"]) {
      const exported = a.page.waitForEvent("download");
      await a.page.getByRole("button", { name: `Export ${format}` }).click();
      const file = await exported;
      expect(file.suggestedFilename()).toMatch(new RegExp(`\\.${format.toLowerCase()}$`));
      await expect(a.page.locator("[data-export-sha256]")).toHaveText(createHash("sha256").update(readFileSync(await file.path())).digest("hex"));
    }
    await expectNoViolations(a.page);
    await screenshot(a.page, info, "team-board-admin");
    await a.page.getByLabel("From", { exact: true }).selectOption({ label: "Ravi Kumar (member)" });
    await a.page.getByLabel("To", { exact: true }).selectOption({ label: "Asha Rao (admin)" });
    await a.page.getByRole("button", { name: "Reassign" }).click();
    await expect(a.page.locator("[data-reassigned]")).toHaveText("1 item moved from Ravi Kumar to Asha Rao.");
    await expect(a.page.locator("[data-board-total]")).toHaveText("No decision matches.");
    await screenshot(a.page, info, "team-board-reassigned");

    await b.page.goto("/work/");
    await expect(b.page.locator("[data-work-summary]")).toContainText("Nothing is yours to do");
    for (const p of [a, b, v, c, m]) await p.page.context().close();
  });

  test("signed out, My work and the board send to sign in", async ({ page }) => {
    await page.goto("/work/");
    await page.waitForURL(/\/login\?next=(%2F|\/)work/);
    await page.goto("/organisation/board/");
    await page.waitForURL(/\/login\?next=(%2F|\/)organisation(%2F|\/)board/);
  });
});
