import { type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

// screenshot saves a full-page picture under e2e/screenshots/ (not
// committed) so a person can look at what the tests saw.
export async function screenshot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: `screenshots/${info.project.name}/${name}.png`, fullPage: true });
}

export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

export const isMobile = (info: TestInfo) => info.project.name === "mobile";
