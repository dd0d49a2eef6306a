import { afterEach, describe, expect, it, vi } from "vitest";
import { applyRecords, band, entitiesHeading, loadRecords, parseRecords, type ImpactRecord } from "./impact-tracker";

const t = { good: 90, warning: 80 };

describe("band", () => {
  it.each([
    [100, "good"],
    [90, "good"],
    [89, "warning"],
    [80, "warning"],
    [79, "poor"],
    [0, "poor"],
  ])("%i is %s", (score, want) => {
    expect(band(score, t)).toBe(want);
  });
});

const rec = (entityType: string, complianceScore: number, high = 0, medium = 0, low = 0): ImpactRecord => ({
  entityType,
  complianceScore,
  highImpactCount: high,
  mediumImpactCount: medium,
  lowImpactCount: low,
});

describe("parseRecords", () => {
  it("keeps well-formed records, with extra fields, and drops the rest", () => {
    const good = { ...rec("PSP", 93, 2, 1, 0), id: "x", circularId: null, updatedAt: "2025-06-30T12:00:00Z" };
    const body = [good, rec("Issuer", 101), rec("Aggregator", -1), { ...rec("X", 50), lowImpactCount: 1.5 }, { entityType: 7 }, null, "PSP"];
    expect(parseRecords(body)).toEqual([good]);
  });
  it.each([null, {}, "[]", 3])("gives none for %j", (body) => {
    expect(parseRecords(body)).toEqual([]);
  });
});

// One card as templates/impact-tracker.html writes it.
const card = (type: string, score: number, b: string, high: number, medium: number, low: number) => `
  <article data-entity="${type}">
    <div data-band="${b}"><span data-score>${score}%</span><progress data-score-bar max="100" value="${score}">${score}%</progress></div>
    <dl><dd data-impact-count="high">${high}</dd><dd data-impact-count="medium">${medium}</dd><dd data-impact-count="low">${low}</dd></dl>
  </article>`;

const shown = (type: string) => {
  const c = document.querySelector<HTMLElement>(`[data-entity="${type}"]`)!;
  return {
    score: c.querySelector("[data-score]")!.textContent,
    bar: c.querySelector("progress")!.getAttribute("value"),
    band: c.querySelector<HTMLElement>("[data-band]")!.dataset.band,
    counts: [...c.querySelectorAll("[data-impact-count]")].map((e) => e.textContent),
  };
};

describe("applyRecords", () => {
  const page = () => (document.body.innerHTML = card("PSP", 100, "good", 3, 1, 0) + card("Issuer", 100, "good", 1, 0, 2));

  it("writes scores, bands and counts that differ, and counts the changed cards", () => {
    page();
    expect(applyRecords(document, [rec("PSP", 85, 4, 1, 0), rec("Issuer", 100, 1, 0, 2)], t)).toBe(1);
    expect(shown("PSP")).toEqual({ score: "85%", bar: "85", band: "warning", counts: ["4", "1", "0"] });
    expect(shown("Issuer")).toEqual({ score: "100%", bar: "100", band: "good", counts: ["1", "0", "2"] });
    expect(applyRecords(document, [rec("Issuer", 42, 1, 0, 2)], t)).toBe(1);
    expect(shown("Issuer").band).toBe("poor");
  });

  it("changes nothing when the API agrees with the page", () => {
    page();
    const before = document.body.innerHTML;
    expect(applyRecords(document, [rec("PSP", 100, 3, 1, 0), rec("Issuer", 100, 1, 0, 2)], t)).toBe(0);
    expect(document.body.innerHTML).toBe(before);
  });

  it("leaves out types without a card", () => {
    page();
    expect(applyRecords(document, [rec("Lender", 10)], t)).toBe(0);
    expect(document.querySelectorAll("[data-entity]")).toHaveLength(2);
  });
});

describe("loadRecords", () => {
  afterEach(() => vi.unstubAllGlobals());
  const stub = (impl: () => Promise<Response>) => vi.stubGlobal("fetch", vi.fn(impl));

  it("returns the API's records", async () => {
    stub(async () => new Response(JSON.stringify([rec("PSP", 93)]), { headers: { "Content-Type": "application/json" } }));
    expect(await loadRecords("/api/impact-tracking")).toEqual([rec("PSP", 93)]);
  });

  it.each([
    ["a 404 page (a static host)", async () => new Response("<!doctype html>", { status: 404, headers: { "Content-Type": "text/html" } })],
    ["HTML with 200 (a catch-all host)", async () => new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } })],
    ["a 500", async () => new Response('{"error":"x"}', { status: 500, headers: { "Content-Type": "application/json" } })],
    ["bad JSON", async () => new Response("[", { headers: { "Content-Type": "application/json" } })],
    ["a network failure", async () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("gives null for %s", async (_, impl) => {
    stub(impl);
    expect(await loadRecords("/api/impact-tracking")).toBeNull();
  });
});

describe("entitiesHeading", () => {
  it.each([
    ["", "All Entity Types"],
    ["   ", "All Entity Types"],
    [" card ", 'Search Results for "card"'],
  ])("%j", (q, want) => {
    expect(entitiesHeading(q)).toBe(want);
  });
});
