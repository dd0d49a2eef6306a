import { expect, test, type Page } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// axeLightAndDark checks the page in the light theme, then switches to dark
// with the header's theme button and checks again.
async function axeLightAndDark(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
  await page.locator('[data-theme-choice="dark"]').click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await axeViolations(page)).toEqual([]);
}

// scriptsOf records the scripts a page loads: these pages have no island,
// so only the shell's.
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  return scripts;
}

test.describe("/sibos-events", () => {
  test("upcoming and past sections, the cards, the blurb", async ({ page }, info) => {
    const scripts = scriptsOf(page);
    await page.goto("/sibos-events");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("SIBOS Events");
    await expect(page.getByText(/brings together 9,000\+ attendees/)).toBeVisible();

    // Sibos 2027 (Singapore, dates not announced) is the one upcoming edition
    const upcoming = page.getByRole("region", { name: /Upcoming Events/ });
    await expect(upcoming.locator("article")).toHaveCount(1);
    const y2027 = upcoming.locator("article").filter({ hasText: "Sibos 2027" });
    await expect(y2027).toContainText(/Location:\s*Singapore/);
    await expect(y2027).toContainText(/Dates:\s*Not verified/);
    await expect(y2027.getByText("Upcoming", { exact: true })).toBeVisible();
    await expect(upcoming.getByText("No SIBOS events found")).toBeHidden();

    const past = page.getByRole("region", { name: /Past Events/ });
    const cards = past.locator("article");
    await expect(cards).toHaveCount(8);
    await expect(past.getByText("No SIBOS events found")).toBeHidden();
    // newest first
    await expect(cards.first().getByRole("heading", { level: 3 })).toHaveText("Sibos 2026");
    await expect(cards.last().getByRole("heading", { level: 3 })).toHaveText("Sibos 2019");

    const y2025 = cards.filter({ hasText: "Sibos 2025" });
    await expect(y2025).toContainText(/Theme:\s*The next frontiers of global finance/);
    await expect(y2025).toContainText(/Expected attendees:\s*12,000\+/);
    await expect(y2025).toContainText(/Location:\s*Frankfurt, Germany/);
    await expect(y2025.getByText("Completed", { exact: true })).toBeVisible();
    await expect(y2025.getByRole("list", { name: "Key topics of Sibos 2025" }).getByRole("listitem")).toHaveCount(1);
    await expect(y2025.getByRole("link", { name: /Visit Event Website/ })).toHaveAttribute("href", "https://www.sibos.com");
    await expect(y2025.getByText("Registration Open")).toHaveCount(0);

    const y2022 = cards.filter({ hasText: "Sibos 2022" });
    await expect(y2022).toContainText(/Dates:\s*10 Oct 2022\s*–\s*13 Oct 2022/);
    await expect(y2022).toContainText(/Venue:\s*RAI Amsterdam/);
    // what the content lacks is said, not guessed
    const y2026 = cards.filter({ hasText: "Sibos 2026" });
    await expect(y2026).toContainText(/Location:\s*Miami, United States/);
    await expect(y2026).toContainText(/Venue:\s*Not verified/);
    await expect(y2026).toContainText(/Expected attendees:\s*Not verified/);

    await screenshot(page, info, "sibos-events");
    await axeLightAndDark(page);
    await screenshot(page, info, "sibos-events-dark");
    expect(scripts.every((s) => /\/assets\/shell-[\w-]+\.js$/.test(s))).toBe(true);
  });
});

test.describe("/fintech-events", () => {
  test("the eight events, honest gaps and the submission box", async ({ page }, info) => {
    const scripts = scriptsOf(page);
    await page.goto("/fintech-events");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Other Global Fintech Events");
    const cards = page.locator("[data-list=events] > article");
    await expect(cards).toHaveCount(8);
    for (const name of ["Payments Next", "European Banking Congress", "Blockchain Expo", "InsurTech Connect", "RegTech Summit",
      "Digital Banking Summit", "WealthTech Summit", "Open Banking Expo"]) {
      await expect(cards.getByRole("heading", { name, exact: true })).toHaveCount(1);
    }
    const obe = cards.filter({ hasText: "Open Banking Expo" });
    await expect(obe).toContainText(/Location:\s*London, United Kingdom \(Business Design Centre\)/);
    await expect(obe).toContainText(/Focus:\s*Open banking, Pay by Bank, Open finance/);
    await expect(obe.getByRole("link", { name: /openbankingexpo\.com/ })).toHaveAttribute("href", "https://openbankingexpo.com");
    await expect(obe.getByText("Expo", { exact: true })).toBeVisible();
    const ebc = cards.filter({ hasText: "European Banking Congress" });
    await expect(ebc).toContainText(/Frequency:\s*Annual/);
    await expect(ebc).toContainText(/Website:\s*Not verified/);
    const itc = cards.filter({ hasText: "InsurTech Connect" });
    await expect(itc).toContainText(/Estimated attendees:\s*7,000\+/);
    const pn = cards.filter({ hasText: "Payments Next" });
    for (const field of ["Location", "Frequency", "Estimated attendees", "Focus", "Website"]) {
      await expect(pn).toContainText(new RegExp(`${field}:\\s*Not verified`));
    }

    // the major events' next editions, derived as of the build's date:
    // Sibos 2027 from the sibos collection; GFF's 2026 edition is over
    const major = page.getByRole("region", { name: "Major events: next editions" });
    await expect(major.getByRole("listitem")).toHaveCount(7);
    await expect(major.locator("#event-sibos")).toContainText(/Next edition:\s*2027, Singapore \(dates not announced\)/);
    await expect(major.locator("#event-global-fintech-fest")).toContainText(/Next edition:\s*none announced in our sources as of/);

    const box = page.getByRole("complementary", { name: "Event Submission" });
    await expect(box).toBeVisible();
    await expect(box.locator("form")).toHaveCount(0);
    await expect(box.getByRole("link")).toHaveAttribute("href", /^mailto:[^@]+@[^?]+\?subject=Event%20submission$/);

    await screenshot(page, info, "fintech-events");
    await axeLightAndDark(page);
    await screenshot(page, info, "fintech-events-dark");
    expect(scripts.every((s) => /\/assets\/shell-[\w-]+\.js$/.test(s))).toBe(true);
  });
});

test.describe("/learning-videos", () => {
  test("Coming Soon, six placeholder videos, disabled Watch, newsletter link", async ({ page }, info) => {
    await page.goto("/learning-videos");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learning Videos");
    await expect(page.getByRole("heading", { name: "Coming Soon!" })).toBeVisible();
    await expect(page.getByText("Expected launch: Q2 2025")).toBeVisible();

    const videos = page.locator("[data-video]");
    await expect(videos).toHaveCount(6);
    const minutes: number[] = [];
    for (const text of await videos.allTextContents()) minutes.push(Number(/(\d+) min/.exec(text)?.[1]));
    expect(minutes).toEqual([15, 25, 20, 30, 18, 22]);
    for (const level of ["Beginner", "Intermediate", "Advanced"]) await expect(videos.getByText(level, { exact: true }).first()).toBeVisible();
    const watch = page.getByRole("button", { name: /^Watch/ });
    await expect(watch).toHaveCount(6);
    for (const b of await watch.all()) await expect(b).toBeDisabled();

    const subscribe = page.getByRole("link", { name: "Subscribe to Newsletter" });
    await expect(subscribe).toHaveAttribute("href", "/newsletter");
    await screenshot(page, info, "learning-videos");
    await axeLightAndDark(page);
    await screenshot(page, info, "learning-videos-dark");
    await subscribe.click();
    await expect(page).toHaveURL(/\/newsletter$/);
  });
});
