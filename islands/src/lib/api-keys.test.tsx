import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import OrganisationPage from "../islands/OrganisationPage";
import { bodyOf, pathOf } from "../test/fetch";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import { setToken } from "./api";
import { day, keyState, lastUsed, type APIKey } from "./api-keys";
import { removeToaster } from "./toast";

const me = { id: "u-asha", username: "asha", email: "asha@example.com", firstName: "Asha", lastName: "Rao", role: "user", isVerified: false, createdAt: "2026-01-01T00:00:00Z" };
const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });
const org = (canManageMembers: boolean) => ({ id: "o1", name: "Asha Payments", entityTypes: ["PSP"], createdAt: "2026-11-01T00:00:00Z", role: canManageMembers ? "admin" : "viewer", canManageMembers });

const key = (over: Partial<APIKey> = {}): APIKey => ({
  id: "k1",
  organisationId: "o1",
  name: "GRC feed",
  prefix: "rpk_AbCdEfGh",
  scope: "read",
  expiresAt: "2027-03-01T00:00:00Z",
  createdBy: "u-asha",
  createdByName: "Asha Rao",
  createdAt: "2026-12-01T10:00:00Z",
  lastUsedAt: null,
  revokedAt: null,
  status: "active",
  ...over,
});

const token = "rpk_" + "x".repeat(43);
type Call = { method: string; url: string; body?: unknown };

// fakeAPI answers the organisation page's calls; keys are the stored
// keys, which POST adds to and DELETE revokes.
function fakeAPI(admin: boolean, keys: APIKey[], post?: (body: Record<string, unknown>) => Response | undefined) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    const method = input instanceof Request ? input.method : "GET";
    const c: Call = { method, url, body: method === "POST" ? await bodyOf(input) : undefined };
    calls.push(c);
    if (url.startsWith("/api/auth/me")) return json({ user: me });
    if (url === "/api/organisations") return json([org(admin)]);
    if (url === "/api/organisations/o1") return json(org(admin));
    if (url === "/api/organisations/o1/members") return json([]);
    if (url === "/api/organisations/o1/sso") return json({ error: "not configured" }, 404);
    if (url === "/api/organisations/o1/api-keys" && method === "GET") return admin ? json(keys) : json({ error: "Only an admin" }, 403);
    if (url === "/api/organisations/o1/api-keys" && method === "POST") {
      const b = c.body as Record<string, unknown>;
      const refused = post?.(b);
      if (refused) return refused;
      const k = key({ id: "k2", name: b.name as string, scope: b.scope as APIKey["scope"], expiresAt: b.expiresAt as string, prefix: token.slice(0, 12) });
      keys = [k, ...keys];
      return json({ key: k, token }, 201);
    }
    const m = url.match(/^\/api\/organisations\/o1\/api-keys\/(\w+)$/);
    if (m && method === "DELETE") {
      const k = { ...keys.find((k) => k.id === m[1])!, status: "revoked" as const, revokedAt: "2026-12-02T10:00:00Z" };
      keys = keys.map((o) => (o.id === k.id ? k : o));
      return json(k);
    }
    return new Response("not found", { status: 404 });
  });
  return calls;
}

afterEach(() => {
  vi.restoreAllMocks();
  setToken(null);
  act(() => removeToaster());
  resetPage();
});

describe("API keys on /organisation", () => {
  it("lets an admin create a key, shows its token once with a copy button, and revokes a key after confirming", async () => {
    setToken("t");
    await loadPage("/organisation");
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const calls = fakeAPI(true, [key()]);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-api-key]")).toHaveLength(1));
    expect(el.querySelector("[data-api-key='k1']")!.textContent).toContain("rpk_AbCdEfGh…");

    fireEvent.change(screen.getByLabelText("Key name"), { target: { value: "ServiceNow" } });
    fireEvent.change(screen.getByLabelText("Scope"), { target: { value: "read-write" } });
    fireEvent.change(screen.getByLabelText("Expires on"), { target: { value: "2027-06-30" } });
    fireEvent.click(screen.getByRole("button", { name: "Create key" }));
    await vi.waitFor(() => expect(el.querySelector("[data-token]")?.textContent).toBe(token));
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({ name: "ServiceNow", scope: "read-write", expiresAt: "2027-06-30T00:00:00Z" });
    expect(screen.getByText("Copy this token now: you will not see it again.")).toBeTruthy();
    expect(el.querySelectorAll("[data-api-key]")).toHaveLength(2);
    fireEvent.click(screen.getByRole("button", { name: "Copy token" }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(token));
    fireEvent.click(screen.getByRole("button", { name: "I have copied it" }));
    expect(el.querySelector("[data-token]")).toBeNull();
    // the list never shows a token
    expect(el.textContent).not.toContain(token);

    const row = el.querySelector("[data-api-key='k1']")!;
    fireEvent.click(row.querySelector("[data-revoke]")!);
    expect(row.textContent).toContain("Revoke GRC feed? Systems using it are refused at once");
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    fireEvent.click(row.querySelector("[data-confirm-revoke]")!);
    await vi.waitFor(() => expect(el.querySelector("[data-api-key='k1']")!.getAttribute("data-status")).toBe("revoked"));
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual(["/api/organisations/o1/api-keys/k1"]);
    expect(el.querySelector("[data-api-key='k1'] [data-revoke]")).toBeNull();
  });

  it("checks the name before sending and shows the API's field errors", async () => {
    setToken("t");
    await loadPage("/organisation");
    const calls = fakeAPI(true, [], () => json({ error: "Invalid request", fields: { expiresAt: "must be at most 366 days away" } }, 400));
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelector("[data-no-api-keys]")).not.toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "Create key" }));
    await screen.findByText("Name is required");
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    fireEvent.change(screen.getByLabelText("Key name"), { target: { value: "Feed" } });
    fireEvent.click(screen.getByRole("button", { name: "Create key" }));
    await screen.findByText("Expires on: must be at most 366 days away");
    expect(el.querySelector("[data-token]")).toBeNull();
  });

  it("shows a viewer no API keys and asks nothing of them", async () => {
    setToken("t");
    await loadPage("/organisation");
    const calls = fakeAPI(false, []);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelector("[data-my-role]")).not.toBeNull());
    expect(el.querySelector("[data-api-keys]")).toBeNull();
    expect(calls.some((c) => c.url.includes("/api-keys"))).toBe(false);
  });
});

describe("the words of a key", () => {
  it.each([
    [key(), "Active until 1 March 2027"],
    [key({ status: "revoked", revokedAt: "2026-12-02T10:00:00Z" }), "Revoked 2 December 2026"],
    [key({ status: "expired" }), "Expired 1 March 2027"],
  ])("%#", (k, want) => expect(keyState(k)).toBe(want));
  it("says when it was last used", () => {
    expect(lastUsed(key())).toBe("Never used");
    expect(lastUsed(key({ lastUsedAt: "2026-12-02T09:00:00Z" }))).toBe("Last used 2 December 2026");
  });
  it("makes a date input's day", () => expect(day(new Date("2026-12-02T15:00:00Z"), 90)).toBe("2027-03-02"));
});

describe("the words of a key in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("says a key's state and use in Hindi", () => {
    document.documentElement.lang = "hi";
    expect(keyState(key())).toMatch(/ तक सक्रिय$/);
    expect(keyState(key({ status: "revoked" }))).toBe("निरस्त");
    expect(lastUsed(key())).toBe("कभी उपयोग नहीं हुई");
  });
});
