import { expect, test } from "@playwright/test";
import { axeViolations } from "./helpers";

// The publication log (issue 45): the page links to the API's feed and
// pages, which answer from the server's store. The server synced content/
// into a new store when it started, so its log holds the baseline: the
// catalog as it stood, logged as one entry, not item by item.
test.describe("/publication-log", () => {
  test("the page, reachable from the circulars' list, links to the feed and the API", async ({ page }) => {
    await page.goto("/circulars");
    await page.getByRole("link", { name: "Publication log" }).click();
    await expect(page).toHaveURL(/\/publication-log\/?$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Publication Log");
    const follow = page.getByRole("region", { name: "Stay in step" });
    await expect(follow.getByRole("link", { name: "Atom feed" })).toHaveAttribute("href", "/api/publication-log.atom");
    await expect(follow.getByRole("link", { name: "JSON, oldest first" })).toHaveAttribute("href", "/api/publication-log");
    // the build's store had entries, or the page says where to read them
    const latest = page.getByRole("region", { name: "Latest changes" });
    await expect(latest.locator("[data-publication-log] > li, [data-publication-log-empty]").first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test("the feed and the JSON the page links to answer, the baseline first", async ({ request }) => {
    const json = await request.get("/api/publication-log");
    expect(json.status()).toBe(200);
    const entries = (await json.json()) as { seq: number; event: string; kind: string; note: string }[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]).toMatchObject({ event: "baseline", kind: "catalog" });
    expect(entries[0].note).toMatch(/^The log begins here\. The catalog held \d+ circulars/);
    for (let i = 1; i < entries.length; i++) expect(entries[i].seq).toBeGreaterThan(entries[i - 1].seq);

    const feed = await request.get("/api/publication-log.atom?event=baseline");
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
    const xml = await feed.text();
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(xml).toContain("<title>Log begins</title>");
    expect(xml).toMatch(/<link rel="alternate" type="text\/html" href="http:\/\/[^"]+\/publication-log">/);
  });

  test("how fresh each source is: GET /api/sources answers a list", async ({ request }) => {
    const res = await request.get("/api/sources");
    expect(res.status()).toBe(200);
    const sources = (await res.json()) as { source: string; stale: boolean }[];
    expect(Array.isArray(sources)).toBe(true);
    for (const s of sources) expect(typeof s.stale).toBe("boolean");
  });
});
