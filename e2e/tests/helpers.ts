import { expect, type Locator, type Page, type Request, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// dataDir is the server's data folder (playwright.config.ts).
const dataDir = "test-results/data";

// screenshot saves a full-page picture under e2e/screenshots/ (not
// committed) so a person can look at what the tests saw.
export async function screenshot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: `screenshots/${info.project.name}/${name}.png`, fullPage: true });
}

export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

export const isMobile = (info: TestInfo) => info.project.name === "mobile";

// holdRequests holds the page's requests to url until release is called,
// so a test sees what shows while a call runs; requests are those held.
export async function holdRequests(page: Page, url: string) {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const requests: Request[] = [];
  await page.route(url, async (route) => {
    requests.push(route.request());
    await held;
    await route.continue();
  });
  return { release: () => release(), requests };
}

// expectEvery waits until every text of the locator passes ok. A list
// drawn from the API changes after the URL and the controls do, so a
// single read of its texts can still see the last answer's.
export async function expectEvery(locator: Locator, ok: (text: string) => boolean) {
  await expect.poll(async () => (await locator.allTextContents()).filter((t) => !ok(t))).toEqual([]);
}

// inviteLink is the accept link of the invitation e-mailed to address
// (quoted-printable undone), once the server has written it.
export async function inviteLink(address: string): Promise<string> {
  const dir = join(dataDir, "outbox", "invites");
  let text = "";
  await expect
    .poll(() => {
      for (const f of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile())) {
        const raw = readFileSync(join(dir, f.name), "utf8");
        if (raw.includes(`<${address}>`) || raw.includes(`To: ${address}`)) {
          text = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
          return true;
        }
      }
      return false;
    })
    .toBe(true);
  const m = /https?:\/\/\S+\/join\/\?token=[^\s"<>]+/.exec(text);
  if (!m) throw new Error(`no /join link in the e-mail to ${address}:\n${text}`);
  return m[0];
}
