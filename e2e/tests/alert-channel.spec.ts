import { expect, test } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// An alert's chat channel (issue 47): on /profile#alerts an alert also
// posts to a Slack or Microsoft Teams channel, whose URL the server
// checks is the service's incoming webhook; set, kept across a reload,
// and removed.

const password = "S3cret-Pa55word!";

test("an alert's Slack channel: refused off Slack's host, saved, kept, removed", async ({ page }, info) => {
  const username = `ch${info.project.name}${info.workerIndex}${Date.now().toString(36)}`;
  const res = await page.request.post("/api/auth/signup", {
    data: { username, email: `${username}@example.com`, password, firstName: "Asha", lastName: "Rao" },
  });
  expect(res.status()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await page.goto("/search?q=UPI");
  await page.getByRole("button", { name: "Create alert for this search" }).click();
  await expect(page.locator("[data-search-alert] [role=status]")).toContainText("Alert created");
  await page.goto("/profile#alerts");
  const row = page.locator('[data-alert="search"]');
  await row.getByLabel("Also post to").selectOption("slack");
  const url = row.getByLabel("Slack webhook URL");
  await url.fill("https://example.com/hooks/regpulse");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByText("a Slack incoming webhook URL starts https://hooks.slack.com/services/")).toBeVisible();
  await expect(url).toHaveAttribute("aria-invalid", "true");

  const slack = "https://hooks.slack.com/services/T000/B000/e2e" + info.workerIndex;
  await url.fill(slack);
  await row.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Alert saved").first()).toBeVisible();
  await page.reload();
  const again = page.locator('[data-alert="search"]');
  await expect(again.getByLabel("Also post to")).toHaveValue("slack");
  await expect(again.getByLabel("Slack webhook URL")).toHaveValue(slack);
  expect(await axeViolations(page), "/profile with a channel").toEqual([]);
  await screenshot(page, info, "alerts-channel");

  await again.getByLabel("Also post to").selectOption("");
  await again.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Alert saved").first()).toBeVisible();
  await page.reload();
  await expect(page.locator('[data-alert="search"]').getByLabel("Also post to")).toHaveValue("");
  await expect(page.locator('[data-alert="search"]').getByLabel("Slack webhook URL")).toHaveCount(0);
});
