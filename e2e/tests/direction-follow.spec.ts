import { expect, test, type TestInfo } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// Following a Master Direction (islands/src/islands/FollowDirection.tsx):
// without JavaScript the page says to sign in; with it, a signed-out
// reader follows through sign-in and back, and leaves it on
// /profile#alerts. The e-mails themselves are internal/alerts' tests
// (a new version has to reach the store: the content changes).

const password = "S3cret-Pa55word!";
let counter = 0;
const unique = (info: TestInfo) => `mdf${info.project.name}${info.workerIndex}${Date.now().toString(36)}${counter++}`;
const direction = "/master-directions/ppi-2021/";

test.describe("following a Master Direction", () => {
  test.describe("JavaScript off", () => {
    test.use({ javaScriptEnabled: false });
    test("the page says how to follow: sign in", async ({ page }) => {
      await page.goto(direction);
      const follow = page.locator("[data-follow-fallback]");
      await expect(follow).toContainText("Sign in to get an e-mail with the changes whenever it is amended.");
      await expect(follow.getByRole("link", { name: "Follow this Master Direction" })).toHaveAttribute(
        "href",
        "/login?next=" + encodeURIComponent("/master-directions/ppi-2021/?follow=1"),
      );
    });
  });

  test("follow through sign-in and back, then stop following on the profile", async ({ page }, info) => {
    const username = unique(info);
    const res = await page.request.post("/api/auth/signup", {
      data: { username, email: `${username}@example.com`, password, firstName: "Asha", lastName: "Rao" },
    });
    expect(res.status()).toBe(201);
    await page.goto(direction);
    await page.locator('[data-island="FollowDirection"][data-island-mounted]').waitFor();
    await page.getByRole("link", { name: "Follow this Master Direction" }).click();
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((u) => u.pathname === "/master-directions/ppi-2021/" && !u.searchParams.has("follow"));
    const status = page.locator("[data-follow-direction] [role=status]");
    // a sign-in, a page load and two calls: on a loaded machine, more than expect's 5 s
    await expect(status).toContainText("You follow it: an e-mail with the changes whenever it is amended.", { timeout: 15_000 });
    await expect(page.locator("[data-follow-direction]")).toHaveAttribute("data-follow-direction", "following");
    await screenshot(page, info, "direction-following");
    expect(await axeViolations(page)).toEqual([]);

    // Reloaded, it still follows (once: the follow=1 mark is gone).
    await page.reload();
    await expect(page.getByRole("button", { name: "Stop following" })).toBeVisible();

    await status.getByRole("link", { name: "Manage your alerts" }).click();
    await page.waitForURL("/profile#alerts");
    const row = page.locator('[data-follows] [data-follow="ppi-2021"]');
    await expect(row.getByRole("link")).toHaveAttribute("href", "/master-directions/ppi-2021/");
    await expect(row).toContainText("Last sent: never");
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole("button", { name: "Stop following" }).click();
    await expect(row).toHaveCount(0);
    await expect(page.locator("[data-follows]")).toContainText("You follow none yet.");

    await page.goto(direction);
    await expect(page.getByRole("button", { name: "Follow this Master Direction" })).toBeVisible();
  });
});
