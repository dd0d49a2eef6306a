import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken, type Schemas } from "../lib/api";
import { removeToaster } from "../lib/toast";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import ObligationsRegister, { extractionPoll } from "./ObligationsRegister";
import { bodyOf, pathOf } from "../test/fetch";

type Item = Schemas["RegisterItem"];

const item = (id: string, what: string, dueGroup: Item["dueGroup"], dueDate: string | null, status: Item["status"] = "todo"): Item => ({
  id,
  circularId: "c-" + id,
  position: 1,
  appliesTo: ["PSP"],
  what,
  kind: "reporting",
  dueDate,
  deadline: dueDate ? "by then" : null,
  binding: true,
  sourceText: what,
  sourceStart: 0,
  sourceEnd: what.length,
  origin: "editor",
  provider: null,
  model: null,
  accepted: true,
  circularSlug: "rbi-x",
  circularTitle: "A circular",
  source: "RBI",
  impactLevel: "high",
  circularWithdrawnOn: null,
  cites: null,
  review: null,
  status,
  note: "",
  statusUpdatedAt: null,
  dueGroup,
});

const user = { user: { id: "u", username: "asha", email: "a@example.com", firstName: "Asha", lastName: "Rao", role: "user", isVerified: false, createdAt: "2026-01-01T00:00:00Z" } };
const json = (v: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(v), { status: 200, headers: { "Content-Type": "application/json", ...headers } });

type Extraction = Schemas["ExtractionStatus"];
const idle: Extraction = { running: false, done: 0, total: 0, startedAt: null, finishedAt: null, last: null };

// fakeAPI answers the island's calls; puts records the PUT bodies;
// extraction answers how far the extraction is, in turn (the last again).
function fakeAPI(items: Item[], entityTypes: string[] = ["PSP"], extraction: Extraction[] = [idle]) {
  const puts: { url: string; body: unknown }[] = [];
  const posts: { url: string; body: unknown }[] = [];
  const urls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    urls.push(url);
    if (url.startsWith("/api/auth/me")) return json(user);
    if (url.startsWith("/api/user/preferences")) return json({ entityTypes, circularSources: [], impactLevels: [], categories: [] });
    if (url.startsWith("/api/obligations/extraction")) return json(extraction.length > 1 ? extraction.shift() : extraction[0]);
    if (url.startsWith("/api/user/compliance-score")) return json({ score: 25, applicable: items.length, settled: 1, entityTypes });
    if (input instanceof Request && input.method === "POST" && url.startsWith("/api/user/obligations/confirm")) {
      posts.push({ url, body: await bodyOf(input) });
      return json({ confirmed: items.filter((i) => i.dueGroup === "in-force" && i.status !== "done").length });
    }
    if (input instanceof Request && input.method === "PUT") {
      const body = (await bodyOf(input)) as Partial<Item>;
      puts.push({ url, body });
      const id = url.split("/").pop()!;
      const it = items.find((i) => i.id === id)!;
      return json({ ...it, ...body });
    }
    if (url.startsWith("/api/user/obligations")) return json(items, { "X-Total-Count": String(items.length) });
    return new Response("not found", { status: 404 });
  });
  return { puts, posts, urls };
}

describe("ObligationsRegister on /obligations", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    setToken(null);
    // a saved status shows a toast: its region goes before the page does
    act(() => removeToaster());
    resetPage();
  });

  it("groups the API's obligations by the group it gives, in Go's order, and shows the score", async () => {
    setToken("t");
    await loadPage("/obligations");
    const { urls } = fakeAPI([item("a", "File returns.", "later", "2027-01-31"), item("b", "Report frauds.", "overdue", "2026-01-01"), item("c", "Keep records.", "no-date", null)]);
    const el = await mountIsland("ObligationsRegister", ObligationsRegister);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-register-item]")).toHaveLength(3));
    // My obligations' score is the user's own, never an organisation's.
    expect(urls).toContain("/api/user/compliance-score?organisation=none");
    const groups = [...el.querySelectorAll("[data-due-group]")].map((g) => g.getAttribute("data-due-group"));
    expect(groups).toEqual(["overdue", "later", "no-date"]);
    expect(el.querySelector("[data-due-group=overdue] h2")!.textContent).toContain("Overdue");
    expect(el.querySelector("[data-score-value]")!.textContent).toBe("25%");
    expect(el.textContent).toContain("31 January 2027");
    expect(el.querySelector("[data-no-entity-types]")).toBeNull();
  });

  it("holds what fell due before tracking began as in force, and confirms it all at once with a note", async () => {
    setToken("t");
    await loadPage("/obligations");
    const api = fakeAPI([
      item("a", "Reverse failed credits by T+1.", "in-force", "2019-09-20"),
      item("b", "Tokenise card data.", "in-force", "2022-09-30"),
      item("c", "Open an escrow account.", "in-force", "2021-03-31", "done"),
      item("d", "File returns.", "later", "2027-01-31"),
    ]);
    const el = await mountIsland("ObligationsRegister", ObligationsRegister);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-register-item]")).toHaveLength(4));
    const groups = [...el.querySelectorAll("[data-due-group]")].map((g) => g.getAttribute("data-due-group"));
    expect(groups).toEqual(["in-force", "later"]);
    const box = el.querySelector("[data-due-group=in-force] [data-confirm-in-force]")!;
    expect(el.querySelector("[data-due-group=in-force] h2")!.textContent).toContain("confirm you comply");
    expect(box.textContent).toContain("began tracking on 1 January 2026, so they are not overdue");
    fireEvent.change(screen.getByLabelText("Note for each (optional)"), { target: { value: "  Reviewed with the CISO  " } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm all 2 as complied with" }));
    await vi.waitFor(() => expect(api.posts).toHaveLength(1));
    expect(api.posts[0].body).toEqual({ note: "Reviewed with the CISO" });
    await screen.findByText(/2 obligations marked done/);
  });

  it("marks an obligation whose cited provisions changed since it was written, with the comparison linked", async () => {
    setToken("t");
    await loadPage("/obligations");
    const changed: Item = {
      ...item("a", "Verify merchants.", "no-date", null),
      cites: { direction: "payment-aggregators-2025", provisions: ["15(a)(i)", "15(a)(ii)"], reviewedOn: null, directionName: "PA Directions, 2025", directionPath: "/master-directions/payment-aggregators-2025" },
      review: { since: "2025-11-28", provisions: ["15(a)(i)"], compare: "/master-directions/payment-aggregators-2025/compare/2025-09-15/2025-11-28" },
    };
    fakeAPI([changed, item("b", "Keep records.", "no-date", null)]);
    const el = await mountIsland("ObligationsRegister", ObligationsRegister);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-register-item]")).toHaveLength(2));
    const marks = el.querySelectorAll("[data-obligation-review]");
    expect(marks).toHaveLength(1);
    expect(marks[0].textContent!.replace(/\s+/g, " ")).toBe(
      "Changed: review. Paragraph 15(a)(i) of PA Directions, 2025 changed from 28 November 2025, after this obligation was written. Compare the text then and now.",
    );
    expect(marks[0].querySelector("a")!.getAttribute("href")).toBe("/master-directions/payment-aggregators-2025/compare/2025-09-15/2025-11-28/");
  });

  it("saves a status change with the note and asks for the register again", async () => {
    setToken("t");
    await loadPage("/obligations");
    const api = fakeAPI([item("a", "File returns.", "later", "2027-01-31")]);
    const el = await mountIsland("ObligationsRegister", ObligationsRegister);
    await vi.waitFor(() => expect(el.querySelector("[data-register-item]")).not.toBeNull());
    const before = api.urls.filter((u) => u.startsWith("/api/user/obligations?")).length;
    fireEvent.change(screen.getByLabelText("Note"), { target: { value: "Asked IT." } });
    fireEvent.change(document.getElementById("status-a")!, { target: { value: "done" } });
    await vi.waitFor(() => expect(api.puts).toHaveLength(1));
    expect(api.puts[0]).toEqual({ url: "/api/user/obligations/a", body: { status: "done", note: "Asked IT." } });
    await vi.waitFor(() => expect(api.urls.filter((u) => u.startsWith("/api/user/obligations?")).length).toBeGreaterThan(before));
  });

  it("sends the filters to the API and keeps them in the URL; without a business, links to the profile", async () => {
    setToken("t");
    await loadPage("/obligations?status=done&group=overdue");
    const api = fakeAPI([], []);
    const el = await mountIsland("ObligationsRegister", ObligationsRegister);
    await vi.waitFor(() => expect(el.querySelector("[data-no-entity-types] a")?.getAttribute("href")).toBe("/profile"));
    expect(api.urls.some((u) => u.startsWith("/api/user/obligations?") && u.includes("status=done") && u.includes("group=overdue"))).toBe(true);
    expect(el.textContent).toContain("No obligations match.");
  });

  it("says while the server reads new circulars for obligations, how far, then reloads the register", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      setToken("t");
      await loadPage("/obligations");
      const started = "2026-11-28T10:00:00Z";
      const api = fakeAPI([item("a", "File returns.", "later", "2027-01-31")], ["PSP"], [
        { running: true, done: 1200, total: 20000, startedAt: started, finishedAt: null, last: null },
        { running: true, done: 5400, total: 20000, startedAt: started, finishedAt: null, last: null },
        { running: false, done: 20000, total: 20000, startedAt: started, finishedAt: "2026-11-28T10:02:00Z", last: { extracted: 19000, unchanged: 0, accepted: 0, written: 1000, obligations: 50000 } },
      ]);
      const el = await mountIsland("ObligationsRegister", ObligationsRegister);
      await vi.waitFor(() => expect(el.querySelector("[data-extraction]")?.textContent).toContain("1,200 of 20,000 read"));
      await vi.waitFor(() => expect(el.querySelector("[data-register-item]")).not.toBeNull());
      const before = api.urls.filter((u) => u.startsWith("/api/user/obligations?")).length;
      await vi.advanceTimersByTimeAsync(extractionPoll);
      await vi.waitFor(() => expect(el.querySelector("[data-extraction]")?.textContent).toContain("5,400 of 20,000 read"));
      await vi.advanceTimersByTimeAsync(extractionPoll);
      await vi.waitFor(() => expect(el.querySelector("[data-extraction]")).toBeNull());
      await vi.waitFor(() => expect(api.urls.filter((u) => u.startsWith("/api/user/obligations?")).length).toBeGreaterThan(before));
      const polls = api.urls.filter((u) => u.startsWith("/api/obligations/extraction")).length;
      await vi.advanceTimersByTimeAsync(3 * extractionPoll);
      expect(api.urls.filter((u) => u.startsWith("/api/obligations/extraction")).length).toBe(polls); // no more once done
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("ObligationsRegister on a Hindi page", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    setToken(null);
    act(() => removeToaster());
    resetPage();
    document.documentElement.lang = "";
  });

  it("shows the register's words in Hindi, its circulars linked to the Hindi pages", async () => {
    setToken("t");
    await loadPage("/obligations");
    document.documentElement.lang = "hi";
    fakeAPI([item("a", "File returns.", "later", "2027-01-31"), item("b", "Report frauds.", "overdue", "2026-01-01")]);
    const el = await mountIsland("ObligationsRegister", ObligationsRegister);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-register-item]")).toHaveLength(2));
    expect(el.querySelector("[data-register-count]")!.textContent).toBe("2 दायित्व");
    expect(el.querySelector("[data-register-score]")!.textContent).toContain("आपका अनुपालन स्कोर: ");
    expect(el.querySelector("[data-item-circular]")!.getAttribute("href")).toMatch(/^\/hi\/circulars\//);
    expect(screen.getByRole("button", { name: "CSV निर्यात करें" })).toBeTruthy();
  });
});
