import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import OrganisationPage from "../islands/OrganisationPage";
import { bodyOf, pathOf } from "../test/fetch";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import { setToken, type Schemas } from "./api";
import { verifyWords } from "./sso-settings";
import { removeToaster } from "./toast";

type Settings = Schemas["SSOSettings"];

const me = { id: "u-asha", username: "asha", email: "asha@example.com", firstName: "Asha", lastName: "Rao", role: "user", isVerified: false, createdAt: "2026-01-01T00:00:00Z" };
const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });
const org = (canManageMembers: boolean) => ({ id: "o1", name: "Asha Payments", entityTypes: ["PSP"], createdAt: "2026-11-01T00:00:00Z", role: canManageMembers ? "admin" : "viewer", canManageMembers });

const empty: Settings = {
  organisationId: "o1",
  issuer: "",
  clientId: "",
  clientSecretHint: "",
  domains: [],
  verifiedDomains: [],
  recordValue: "",
  enabled: false,
  updatedAt: "0001-01-01T00:00:00Z",
  redirectUri: "https://regpulse.example/api/auth/sso/callback",
  configured: false,
  unverified: {},
};

type Call = { method: string; url: string; body?: unknown };

// fakeAPI answers the organisation page's calls; sso is the stored
// settings, which PUT replaces and verify answers with verified.
function fakeAPI(admin: boolean, sso: Settings, put?: (body: Record<string, unknown>) => Response | undefined, verify?: Partial<Settings>) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    const method = input instanceof Request ? input.method : "GET";
    const c: Call = { method, url, body: method === "PUT" ? await bodyOf(input) : undefined };
    calls.push(c);
    if (url.startsWith("/api/auth/me")) return json({ user: me });
    if (url === "/api/organisations") return json([org(admin)]);
    if (url === "/api/organisations/o1") return json(org(admin));
    if (url === "/api/organisations/o1/members") return json([]);
    if (url === "/api/organisations/o1/sso" && method === "GET") return admin ? json(sso) : json({ error: "Only an admin of the organisation may do that" }, 403);
    if (url === "/api/organisations/o1/sso" && method === "PUT") {
      const b = c.body as Record<string, unknown>;
      const refused = put?.(b);
      if (refused) return refused;
      sso = { ...sso, configured: true, issuer: b.issuer as string, clientId: b.clientId as string, domains: b.domains as string[], enabled: b.enabled as boolean, clientSecretHint: b.clientSecret ? "••••" + (b.clientSecret as string).slice(-4) : sso.clientSecretHint, recordValue: "regpulse-sso=tok123" };
      return json(sso);
    }
    if (url === "/api/organisations/o1/sso/verify") return json({ ...sso, ...verify });
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

describe("single sign-on on /organisation", () => {
  it("lets an admin save the settings, then shows each domain's TXT record and verifies", async () => {
    setToken("t");
    await loadPage("/organisation");
    const calls = fakeAPI(true, empty, undefined, { verifiedDomains: ["asha.example"], unverified: { "pay.example": "no TXT record found" } });
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelector("[data-sso-callback]")?.textContent).toBe("https://regpulse.example/api/auth/sso/callback"));
    expect(el.querySelector("[data-sso-records]")).toBeNull();
    expect(screen.getByText("No secret is set yet.")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Issuer URL"), { target: { value: "https://login.asha.example" } });
    fireEvent.change(screen.getByLabelText("Client ID"), { target: { value: "regpulse" } });
    fireEvent.change(screen.getByLabelText("Client secret"), { target: { value: "a-long-client-secret-9876" } });
    fireEvent.change(screen.getByLabelText("E-mail domains"), { target: { value: "asha.example, pay.example" } });
    fireEvent.click(screen.getByLabelText("Single sign-on is on"));
    fireEvent.click(screen.getByRole("button", { name: "Save single sign-on" }));
    await vi.waitFor(() => expect(el.querySelectorAll("[data-sso-domain]")).toHaveLength(2));
    expect(calls.find((c) => c.method === "PUT")!.body).toEqual({ issuer: "https://login.asha.example", clientId: "regpulse", clientSecret: "a-long-client-secret-9876", domains: ["asha.example", "pay.example"], enabled: true });
    const rec = el.querySelector("[data-sso-domain='pay.example']")!;
    expect(rec.querySelector("[data-record-name]")!.textContent).toBe("_regpulse-sso.pay.example");
    expect(rec.querySelector("[data-record-value]")!.textContent).toBe("regpulse-sso=tok123");
    // the secret is write-only: the field empties, its last characters shown
    expect((screen.getByLabelText("Client secret") as HTMLInputElement).value).toBe("");
    expect(screen.getByText("A secret is set (••••9876). Leave this empty to keep it.")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await vi.waitFor(() => expect(el.querySelector("[data-sso-verify-result]")!.textContent).toBe("Verified: asha.example. pay.example is not verified yet: no TXT record found."));
    expect(el.querySelector("[data-sso-domain='asha.example']")!.getAttribute("data-verified")).toBe("true");
    expect(el.querySelector("[data-sso-domain='pay.example']")!.getAttribute("data-verified")).toBe("false");
  });

  it("keeps the stored secret when the field is left empty, and shows the API's field errors", async () => {
    setToken("t");
    await loadPage("/organisation");
    const stored = { ...empty, configured: true, issuer: "https://login.asha.example", clientId: "regpulse", clientSecretHint: "••••9876", domains: ["asha.example"], verifiedDomains: ["asha.example"], recordValue: "regpulse-sso=tok123", enabled: true };
    const calls = fakeAPI(true, stored, (b) =>
      b.issuer === "http://bad" ? json({ error: "Invalid request", fields: { issuer: "must be an https URL" } }, 400) : undefined,
    );
    await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect((screen.getByLabelText("Issuer URL") as HTMLInputElement).value).toBe("https://login.asha.example"));
    expect((screen.getByLabelText("E-mail domains") as HTMLInputElement).value).toBe("asha.example");
    fireEvent.change(screen.getByLabelText("Issuer URL"), { target: { value: "http://bad" } });
    fireEvent.click(screen.getByRole("button", { name: "Save single sign-on" }));
    await screen.findByText("Issuer URL: must be an https URL");
    fireEvent.change(screen.getByLabelText("Issuer URL"), { target: { value: "https://id.asha.example" } });
    fireEvent.click(screen.getByRole("button", { name: "Save single sign-on" }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(2));
    const body = calls.filter((c) => c.method === "PUT")[1].body as Record<string, unknown>;
    expect(body.issuer).toBe("https://id.asha.example");
    expect("clientSecret" in body).toBe(false);
  });

  it("shows a viewer no single sign-on, as canManageMembers says, and asks nothing of it", async () => {
    setToken("t");
    await loadPage("/organisation");
    const calls = fakeAPI(false, empty);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelector("[data-my-role]")).not.toBeNull());
    expect(el.querySelector("[data-sso]")).toBeNull();
    expect(calls.some((c) => c.url.includes("/sso"))).toBe(false);
    // every member reads the register
    expect(screen.getByRole("link", { name: "The register of Asha Payments" }).getAttribute("href")).toBe("/organisation/register/?id=o1");
  });
});

describe("verifyWords", () => {
  it.each([
    [{ ...empty, domains: ["a.example"], verifiedDomains: ["a.example"] }, "Every domain is verified: people of these domains can sign in through your provider."],
    [{ ...empty, domains: ["a.example"], unverified: { "a.example": "the record holds another value" } }, "a.example is not verified yet: the record holds another value."],
    [empty, "No domains to verify."],
  ])("%#", (s, want) => expect(verifyWords(s)).toBe(want));
});

describe("verifyWords in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("says what the lookup found in Hindi", () => {
    document.documentElement.lang = "hi";
    expect(verifyWords(empty)).toBe("सत्यापित करने के लिए कोई डोमेन नहीं है।");
    expect(verifyWords({ ...empty, domains: ["a.example", "b.example"], verifiedDomains: ["a.example"], unverified: { "b.example": "no TXT record" } })).toBe(
      "सत्यापित: a.example। b.example अभी सत्यापित नहीं है: no TXT record।",
    );
  });
});
