import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import OrganisationPage from "../islands/OrganisationPage";
import { bodyOf, pathOf } from "../test/fetch";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import { setToken, type Schemas } from "./api";
import { answerWords, statusWords, webhookSchema } from "./webhook-settings";
import { removeToaster } from "./toast";

// toasted waits for the toast titled title (the region loads with the
// first toast).
const toasted = (title: string) => vi.waitFor(() => expect(document.querySelector("[data-toaster]")?.textContent ?? "").toContain(title), { timeout: 5000 });

type Endpoint = Schemas["Webhook"];
type LogEntry = Schemas["WebhookLogEntry"];

const me = { id: "u-asha", username: "asha", email: "asha@example.com", firstName: "Asha", lastName: "Rao", role: "user", isVerified: false, createdAt: "2026-01-01T00:00:00Z" };
const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });
const org = (admin: boolean) => ({ id: "o1", name: "Asha Payments", entityTypes: ["PSP"], createdAt: "2026-11-01T00:00:00Z", role: admin ? "admin" : "viewer", canManageMembers: admin });
const sso = { organisationId: "o1", issuer: "", clientId: "", clientSecretHint: "", domains: [], verifiedDomains: [], recordValue: "", enabled: false, updatedAt: "0001-01-01T00:00:00Z", redirectUri: "https://r.example/cb", configured: false, unverified: {} };

const endpoint = (over: Partial<Endpoint> = {}): Endpoint => ({
  id: "w1",
  organisationId: "o1",
  kind: "webhook",
  url: "https://grc.example.com/in",
  description: "GRC",
  events: ["circular.published"],
  enabled: true,
  disabledReason: "",
  failures: 0,
  failingSince: null,
  createdBy: "u-asha",
  createdAt: "2026-12-01T10:00:00Z",
  updatedAt: "2026-12-01T10:00:00Z",
  ...over,
});

const delivery = (over: Partial<LogEntry> = {}): LogEntry => ({
  id: "d1",
  endpointId: "w1",
  eventId: "msg_1",
  eventType: "webhook.test",
  status: "failed",
  attempts: 2,
  nextAttemptAt: null,
  createdAt: "2026-12-01T10:00:00Z",
  updatedAt: "2026-12-01T10:01:00Z",
  lastAttempt: { n: 2, at: "2026-12-01T10:01:00Z", durationMs: 12, statusCode: 500, response: "receiver down", error: "" },
  history: [],
  ...over,
});

type Call = { method: string; url: string; body?: unknown };

// fakeAPI answers the organisation page's calls with list as the stored
// endpoints; create answers created (or refused).
function fakeAPI(admin: boolean, list: Endpoint[], opts: { create?: Response; log?: LogEntry[] } = {}) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    const method = input instanceof Request ? input.method : "GET";
    const c: Call = { method, url, body: method === "POST" || method === "PATCH" ? await bodyOf(input).catch(() => undefined) : undefined };
    calls.push(c);
    if (url.startsWith("/api/auth/me")) return json({ user: me });
    if (url === "/api/organisations") return json([org(admin)]);
    if (url === "/api/organisations/o1") return json(org(admin));
    if (url === "/api/organisations/o1/members") return json([]);
    if (url === "/api/organisations/o1/sso") return json(sso);
    if (url === "/api/organisations/o1/webhooks" && method === "GET") return json(list);
    if (url === "/api/organisations/o1/webhooks" && method === "POST") {
      if (opts.create) return opts.create;
      const b = c.body as Endpoint;
      const made = endpoint({ id: "w2", kind: b.kind, url: b.url, description: b.description, events: b.events });
      list = [...list, made];
      return json({ ...made, secret: made.kind === "webhook" ? "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" : "" }, 201);
    }
    if (url === "/api/organisations/o1/webhooks/w1" && method === "PATCH") {
      const b = c.body as Partial<Endpoint>;
      list = list.map((e) => (e.id === "w1" ? { ...e, ...b, disabledReason: "", failures: 0 } : e));
      return json(list[0]);
    }
    if (url === "/api/organisations/o1/webhooks/w1" && method === "DELETE") {
      list = list.filter((e) => e.id !== "w1");
      return new Response(null, { status: 204 });
    }
    if (url === "/api/organisations/o1/webhooks/w1/rotate-secret") return json({ ...list[0], secret: "whsec_rotatedrotatedrotatedrotated00" });
    if (url === "/api/organisations/o1/webhooks/w1/test") return json(delivery({ id: "d2", status: "pending", attempts: 0, lastAttempt: null }), 202);
    if (url.startsWith("/api/organisations/o1/webhooks/w1/deliveries?")) return json(opts.log ?? [], 200);
    if (url === "/api/organisations/o1/webhooks/w1/deliveries/d1/resend") return json(delivery({ status: "pending" }), 202);
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

async function mount(admin: boolean, list: Endpoint[], opts?: Parameters<typeof fakeAPI>[2]) {
  setToken("t");
  await loadPage("/organisation");
  const calls = fakeAPI(admin, list, opts);
  const el = await mountIsland("OrganisationPage", OrganisationPage);
  return { el, calls };
}

describe("webhooks on /organisation", () => {
  it("is not shown to someone who is not an admin", async () => {
    const { el, calls } = await mount(false, []);
    await vi.waitFor(() => expect(el.querySelector("[data-organisation]")).not.toBeNull());
    expect(el.querySelector("[data-webhooks]")).toBeNull();
    expect(calls.some((c) => c.url.includes("/webhooks"))).toBe(false);
  });

  it("adds a webhook and shows its secret once", async () => {
    const { el, calls } = await mount(true, []);
    await vi.waitFor(() => expect(screen.getByText("No endpoints yet.")).toBeTruthy());
    fireEvent.click(el.querySelector("[data-webhook-add]")!);
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: " https://grc.example.com/in " } });
    fireEvent.click(screen.getByLabelText("Circular published"));
    fireEvent.click(screen.getByLabelText("Decision changed"));
    fireEvent.click(screen.getByRole("button", { name: "Add endpoint" }));
    await vi.waitFor(() => expect(el.querySelector("[data-webhook-secret-value]")?.textContent).toBe("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ kind: "webhook", url: "https://grc.example.com/in", description: "", events: ["circular.published", "decision.changed"] });
    await vi.waitFor(() => expect(el.querySelector('[data-webhook="w2"]')).not.toBeNull());
    await toasted("Endpoint added");
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(el.querySelector("[data-webhook-secret]")).toBeNull();
  });

  it("checks the form before sending, and shows the API's refusal by field", async () => {
    const refused = json({ error: "invalid url", fields: { url: "10.0.0.7 is a private address" } }, 400);
    const { el, calls } = await mount(true, [], { create: refused });
    await vi.waitFor(() => expect(el.querySelector("[data-webhook-add]")).not.toBeNull());
    fireEvent.click(el.querySelector("[data-webhook-add]")!);
    fireEvent.click(screen.getByRole("button", { name: "Add endpoint" }));
    await vi.waitFor(() => expect(screen.getByText("The URL is required")).toBeTruthy());
    expect(screen.getByText("Choose at least one event")).toBeTruthy();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://10.0.0.7/in" } });
    fireEvent.click(screen.getByLabelText("Alert matched"));
    fireEvent.click(screen.getByRole("button", { name: "Add endpoint" }));
    await vi.waitFor(() => expect(screen.getByText("10.0.0.7 is a private address")).toBeTruthy());
    await toasted("Could not add the endpoint");
  });

  it("shows why an endpoint is off, turns it on, tests it, rotates its secret and removes it after confirming", async () => {
    const off = endpoint({ enabled: false, disabledReason: "deliveries failed for 24 hours", failures: 9 });
    const { el, calls } = await mount(true, [off]);
    const row = await vi.waitFor(() => {
      const r = el.querySelector<HTMLElement>('[data-webhook="w1"]');
      expect(r).not.toBeNull();
      return r!;
    });
    expect(row.querySelector("[data-webhook-status]")?.textContent).toBe("Off: deliveries failed for 24 hours");
    fireEvent.click(within(row).getByRole("button", { name: "Turn on" }));
    await vi.waitFor(() => expect(row.querySelector("[data-webhook-status]")?.textContent).toBe("On"));
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ enabled: true });

    fireEvent.click(within(row).getByRole("button", { name: "Send test event" }));
    await toasted("Test event queued");
    expect(row.querySelector("[data-webhook-log]")).not.toBeNull();

    fireEvent.click(within(row).getByRole("button", { name: "Rotate secret" }));
    await vi.waitFor(() => expect(el.querySelector("[data-webhook-secret-value]")?.textContent).toBe("whsec_rotatedrotatedrotatedrotated00"));

    fireEvent.click(within(row).getByRole("button", { name: "Remove" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    fireEvent.click(row.querySelector("[data-webhook-delete-confirm]")!);
    await vi.waitFor(() => expect(screen.getByText("No endpoints yet.")).toBeTruthy());
    expect(calls.some((c) => c.method === "DELETE" && c.url === "/api/organisations/o1/webhooks/w1")).toBe(true);
  });

  it("shows the delivery log and resends a delivery", async () => {
    const { el, calls } = await mount(true, [endpoint()], { log: [delivery()] });
    const row = await vi.waitFor(() => {
      const r = el.querySelector<HTMLElement>('[data-webhook="w1"]');
      expect(r).not.toBeNull();
      return r!;
    });
    fireEvent.click(within(row).getByRole("button", { name: "Delivery log" }));
    const d = await vi.waitFor(() => {
      const r = row.querySelector<HTMLElement>('[data-delivery="d1"]');
      expect(r).not.toBeNull();
      return r!;
    });
    expect(d.querySelector("[data-delivery-status]")?.textContent).toBe("failed");
    expect(d.querySelector("[data-delivery-answer]")?.textContent).toBe("HTTP 500 after 12 ms");
    expect(d.textContent).toContain("receiver down");
    fireEvent.click(within(d).getByRole("button", { name: "Resend" }));
    await toasted("Delivery queued again");
    expect(calls.some((c) => c.method === "POST" && c.url.endsWith("/deliveries/d1/resend"))).toBe(true);
  });
});

describe("webhook words", () => {
  it.each([
    [{ enabled: true, disabledReason: "", failures: 0 }, "On"],
    [{ enabled: true, disabledReason: "", failures: 1 }, "On, 1 failed delivery in a row"],
    [{ enabled: false, disabledReason: "", failures: 0 }, "Off (turned off by an admin)"],
    [{ enabled: false, disabledReason: "410 Gone", failures: 1 }, "Off: 410 Gone"],
  ])("statusWords(%j) = %s", (e, want) => expect(statusWords(e)).toBe(want));

  it("answerWords says what came back", () => {
    expect(answerWords(delivery({ lastAttempt: null }))).toBe("Not sent yet");
    expect(answerWords(delivery({ lastAttempt: { n: 1, at: "", durationMs: 10000, statusCode: 0, response: "", error: "timeout" } }))).toBe("timeout after 10000 ms");
  });

  it("webhookSchema takes a trimmed URL and at least one event", () => {
    expect(webhookSchema.safeParse({ kind: "slack", url: " https://hooks.slack.com/services/x ", description: "", events: ["alert.matched"] }).success).toBe(true);
    expect(webhookSchema.safeParse({ kind: "slack", url: "https://x", description: "", events: [] }).success).toBe(false);
  });
});

describe("the words of an endpoint in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("says its state and the last answer in Hindi", () => {
    document.documentElement.lang = "hi";
    expect(statusWords({ enabled: true, disabledReason: "", failures: 0 })).toBe("चालू");
    expect(statusWords({ enabled: true, disabledReason: "", failures: 3 })).toBe("चालू, लगातार 3 डिलीवरी विफल");
    expect(statusWords({ enabled: false, disabledReason: "", failures: 0 })).toBe("बंद (व्यवस्थापक द्वारा बंद किया गया)");
    expect(webhookSchema.safeParse({ kind: "slack", url: "https://x", description: "", events: [] }).error?.issues[0].message).toBe("कम से कम एक इवेंट चुनें");
  });
});
