import { expect, test } from "@playwright/test";
import { axeViolations as axe, isMobile, screenshot } from "./helpers";

// /consultations (generator/consultations.go): the drafts and papers that
// ask for comments, open ones first by deadline, then the closed ones,
// newest first; each with its deadline, who asks and its final version.
// As of the build (after every deadline in content/), all are closed.

for (const javaScriptEnabled of [false, true]) {
  test.describe(`Consultations, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    const axeViolations = async (page: Parameters<typeof axe>[0]) => (javaScriptEnabled ? axe(page) : []);

    test("the list, a draft's final version and what changed from the draft", async ({ page }, info) => {
      await page.goto("/circulars");
      // in the sidebar's Knowledge Hub (hidden on mobile), and linked from the circulars
      if (!isMobile(info)) await expect(page.locator("[data-sidebar]").getByRole("link", { name: "Consultations", exact: true })).toHaveAttribute("href", "/consultations");
      await page.locator("[data-consultations-link]").click();
      await expect(page).toHaveURL(/\/consultations\/?$/);
      await expect(page.getByRole("heading", { level: 1, name: "Consultations" })).toBeVisible();

      const rows = page.locator("[data-consultation]");
      const slugs = await rows.evaluateAll((ns) => ns.map((n) => n.getAttribute("data-consultation")));
      expect(slugs.length).toBeGreaterThanOrEqual(6);
      // closed ones newest first (slugs start with the publication date)
      const closed = await page.locator('[data-consultation][data-open="false"]').evaluateAll((ns) => ns.map((n) => n.getAttribute("data-consultation")!.replace(/^[a-z]+-/, "").slice(0, 10)));
      expect(closed).toEqual([...closed].sort().reverse());
      // open ones come first
      const open = await rows.evaluateAll((ns) => ns.map((n) => n.getAttribute("data-open")));
      expect(open.indexOf("false") === -1 || !open.slice(open.indexOf("false")).includes("true")).toBe(true);

      const draft = page.locator('[data-consultation="rbi-2023-07-05-card-networks-draft"]');
      await expect(draft.locator("[data-deadline]")).toHaveText("Comments were due 4 August 2023");
      await expect(draft).toContainText("Asked by RBI");
      await screenshot(page, info, `consultations-${javaScriptEnabled ? "js" : "nojs"}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: "light" });

      // the draft's final version, and on its page what changed
      await draft.locator("[data-final]").getByRole("link").click();
      await expect(page).toHaveURL(/\/circulars\/rbi-2024-03-06-card-network-choice\/?$/);
      const changes = page.locator("[data-from-draft]");
      await expect(changes.getByRole("heading", { name: "What changed from the draft" })).toBeVisible();
      await expect(changes.locator("[data-draft-link]")).toHaveAttribute("href", "/circulars/rbi-2023-07-05-card-networks-draft");
      expect(await changes.locator('[data-redline="insert"]').first().textContent()).toMatch(/^\[inserted: [\s\S]+\]$/);
      expect(await changes.locator('[data-redline="delete"]').first().textContent()).toMatch(/^\[deleted: [\s\S]+\]$/);
      await expect(changes.locator("[data-from-draft-unchecked]")).toBeVisible();
      await screenshot(page, info, `from-draft-${javaScriptEnabled ? "js" : "nojs"}`);
      expect(await axeViolations(page)).toEqual([]);

      // and back: the draft's page names its final version and its deadline
      await changes.locator("[data-draft-link]").click();
      await expect(page.locator("[data-comments-due]")).toContainText("4 August 2023 (closed)");
      await expect(page.locator("[data-finalised-by]").getByRole("link", { name: "what changed from this draft" })).toHaveAttribute(
        "href",
        "/circulars/rbi-2024-03-06-card-network-choice#from-draft-heading",
      );
    });
  });
}
