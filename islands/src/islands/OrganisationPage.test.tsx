import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken, type Schemas } from "../lib/api";
import { bodyOf, pathOf } from "../test/fetch";
import { loadPage, mountIsland, resetSignedInPage } from "../test/fixture";
import { json, me, member, org, type Call } from "../test/teams";
import JoinPage from "./JoinPage";
import OrganisationPage from "./OrganisationPage";

// fakeAPI answers the islands' calls with orgs and members; answer, when
// given, answers a call that changes something instead (a refusal).
function fakeAPI(orgs: Schemas["Organisation"][], members: Schemas["Member"][], answer?: (c: Call) => Response | undefined) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    const method = input instanceof Request ? input.method : "GET";
    const c: Call = { method, url, body: method === "POST" || method === "PUT" ? await bodyOf(input) : undefined };
    calls.push(c);
    if (url.startsWith("/api/auth/me")) return json({ user: me });
    if (method !== "GET") {
      const a = answer?.(c);
      if (a) return a;
    }
    if (method === "POST" && url === "/api/organisations") {
      const b = c.body as { name: string; entityTypes: string[] };
      return json({ ...org("admin"), id: "o2", name: b.name, entityTypes: b.entityTypes }, 201);
    }
    if (method === "POST" && url === "/api/organisations/o1/invites") {
      const b = c.body as { email: string; role: string; accessEndsAt?: string };
      return json({ id: "i1", organisationId: "o1", email: b.email, role: b.role, accessEndsAt: b.accessEndsAt ?? null, invitedBy: me.id, createdAt: "2026-12-01T00:00:00Z", expiresAt: "2026-12-08T00:00:00Z", acceptedAt: null }, 201);
    }
    if (method === "PUT") {
      const id = url.split("/").pop()!;
      return json({ ...members.find((m) => m.userId === id)!, ...(c.body as object) });
    }
    if (method === "DELETE") return new Response(null, { status: 204 });
    if (method === "POST" && url === "/api/invites/accept") return json(org("viewer"));
    if (url === "/api/organisations") return json(orgs);
    if (url === "/api/organisations/o1/members") return json(members);
    const one = orgs.find((o) => url === `/api/organisations/${o.id}`);
    if (one) return json(one);
    if (url.startsWith("/api/organisations/")) return json({ error: "No organisation of yours has that id" }, 404);
    return new Response("not found", { status: 404 });
  });
  return calls;
}

afterEach(resetSignedInPage);

describe("OrganisationPage on /organisation", () => {
  it("sends a signed-out reader to sign in and back", async () => {
    const replace = vi.fn();
    vi.stubGlobal("location", { ...window.location, href: window.location.href, search: "", pathname: "/organisation", replace });
    await loadPage("/organisation");
    fakeAPI([], []);
    await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(replace).toHaveBeenCalledWith("/login?next=/organisation"));
  });

  it("shows an admin the members, with an auditor's end, and the controls; saves a role and invites", async () => {
    setToken("t");
    await loadPage("/organisation");
    const calls = fakeAPI([org("admin")], [member("u-asha", "Asha", "admin"), member("u-ravi", "Ravi", "member"), member("u-meera", "Meera", "auditor", "2027-03-31T00:00:00Z")]);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-member]")).toHaveLength(3));
    expect(el.querySelector("[data-member=u-meera] [data-member-ends]")!.textContent).toBe(": access ends 31 March 2027");
    expect(el.querySelector("[data-member=u-asha]")!.textContent).toContain("(you)");
    expect(el.querySelectorAll("[data-member-controls]")).toHaveLength(3);
    expect(el.querySelector("[data-invite-form]")).not.toBeNull();

    fireEvent.change(screen.getByLabelText("Role", { selector: "#member-role-u-ravi" }), { target: { value: "viewer" } });
    fireEvent.click(el.querySelector("[data-member=u-ravi]")!.querySelector("button[type=submit]")!);
    await vi.waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")).toEqual({ method: "PUT", url: "/api/organisations/o1/members/u-ravi", body: { role: "viewer" } });

    // An auditor's invitation takes its end of access.
    fireEvent.change(screen.getByLabelText("E-mail address", { selector: "#invite-email" }), { target: { value: "kiran@example.com" } });
    fireEvent.change(screen.getByLabelText("Role", { selector: "#invite-role" }), { target: { value: "auditor" } });
    fireEvent.change(await screen.findByLabelText("Access ends on", { selector: "#invite-ends" }), { target: { value: "2027-06-30" } });
    fireEvent.click(screen.getByRole("button", { name: "Send Invitation" }));
    await vi.waitFor(() => expect(calls.filter((c) => c.url.endsWith("/invites"))).toHaveLength(1));
    expect(calls.find((c) => c.url.endsWith("/invites"))!.body).toEqual({ email: "kiran@example.com", role: "auditor", accessEndsAt: "2027-06-30T00:00:00Z" });
    await screen.findByText(/kiran@example.com can join Asha Payments as auditor/);
  });

  it("checks the invitation's address with Go's rule before sending it", async () => {
    setToken("t");
    await loadPage("/organisation");
    const calls = fakeAPI([org("admin")], [member("u-asha", "Asha", "admin")]);
    await mountIsland("OrganisationPage", OrganisationPage);
    fireEvent.change(await screen.findByLabelText("E-mail address", { selector: "#invite-email" }), { target: { value: "not-an-address" } });
    fireEvent.click(screen.getByRole("button", { name: "Send Invitation" }));
    await screen.findByText("Invalid email address");
    expect(calls.filter((c) => c.url.endsWith("/invites"))).toHaveLength(0);
  });

  it("shows the API's refusal of removing the last admin", async () => {
    setToken("t");
    await loadPage("/organisation");
    fakeAPI([org("admin")], [member("u-asha", "Asha", "admin")], (c) =>
      c.method === "DELETE" ? json({ error: "An organisation keeps at least one admin: make another member admin first" }, 409) : undefined,
    );
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelector("[data-member=u-asha]")).not.toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "Leave" }));
    await screen.findByText("An organisation keeps at least one admin: make another member admin first", undefined, { timeout: 5000 });
  });

  it("hides the admin's controls from a viewer, as the API's canManageMembers says", async () => {
    setToken("t");
    await loadPage("/organisation");
    fakeAPI([org("viewer")], [member("u-ravi", "Ravi", "admin"), member("u-asha", "Asha", "viewer")]);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-member]")).toHaveLength(2));
    expect(el.querySelectorAll("[data-member-controls]")).toHaveLength(0);
    expect(el.querySelector("[data-invite-form]")).toBeNull();
    expect(el.querySelector("[data-my-role]")!.textContent).toContain("Only an admin manages the members");
  });

  it("says another organisation is not found, in the API's words", async () => {
    setToken("t");
    await loadPage("/organisation?id=o-other");
    fakeAPI([], []);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelector("[data-organisation-error]")?.textContent).toBe("No organisation of yours has that id"));
  });

  it("creates an organisation with its kinds of business and shows it", async () => {
    setToken("t");
    await loadPage("/organisation");
    const calls = fakeAPI([], []);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelector("[data-no-organisations]")).not.toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "Create Organisation" }));
    await screen.findByText("Name is required");
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Ravi Cards" } });
    fireEvent.click(screen.getByLabelText("Card Issuers"));
    fireEvent.click(screen.getByRole("button", { name: "Create Organisation" }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({ name: "Ravi Cards", entityTypes: ["Issuer"] });
    await vi.waitFor(() => expect(window.location.search).toBe("?id=o2"));
  });
});

describe("JoinPage on /join", () => {
  it("signed out, sends to sign in or sign up and back with the token", async () => {
    await loadPage("/join/?token=abc.def");
    fakeAPI([], []);
    const el = await mountIsland("JoinPage", JoinPage);
    const back = encodeURIComponent("/join/?token=abc.def");
    expect(screen.getByRole("link", { name: "Sign in to join" }).getAttribute("href")).toBe(`/login?next=${back}`);
    expect(screen.getByRole("link", { name: "Create an account" }).getAttribute("href")).toBe(`/signup?next=${back}`);
    expect(el.querySelector("[data-join-signed-out]")).not.toBeNull();
  });

  it("accepts with the token and goes to the organisation", async () => {
    const assign = vi.fn();
    setToken("t");
    await loadPage("/join/?token=abc.def");
    vi.stubGlobal("location", { ...window.location, href: window.location.href, search: "?token=abc.def", pathname: "/join/", assign });
    const calls = fakeAPI([], []);
    await mountIsland("JoinPage", JoinPage);
    fireEvent.click(await screen.findByRole("button", { name: "Join" }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("/organisation?id=o1"));
    expect(calls.find((c) => c.url === "/api/invites/accept")!.body).toEqual({ token: "abc.def" });
  });

  it.each([
    [403, "This invitation is for another e-mail address.", "This invitation was sent to another e-mail address: sign in with the account of that address"],
    [409, "This invitation was already used.", "This invitation was already accepted"],
    [410, "This invitation has expired.", "This invitation has expired: ask an admin of the organisation for a new one"],
    [400, "This invitation link is not valid.", "This invitation link is not valid"],
    [404, "This invitation no longer exists.", "This invitation does not exist (any more): ask for a new one"],
  ])("says a %i refusal in plain words", async (status, headline, message) => {
    setToken("t");
    await loadPage("/join/?token=abc.def");
    fakeAPI([], [], () => json({ error: message }, status));
    const el = await mountIsland("JoinPage", JoinPage);
    fireEvent.click(await screen.findByRole("button", { name: "Join" }));
    await vi.waitFor(() => expect(el.querySelector(`[data-join-refused="${status}"]`)).not.toBeNull());
    expect(el.querySelector("[data-join-refused]")!.textContent).toContain(headline);
    expect(el.querySelector("[data-join-refused]")!.textContent).toContain(message);
  });

  it("says a link without a token carries no invitation", async () => {
    await loadPage("/join/");
    fakeAPI([], []);
    const el = await mountIsland("JoinPage", JoinPage);
    expect(el.querySelector("[data-join-no-token]")).not.toBeNull();
  });
});

describe("OrganisationPage on a Hindi page", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("sends a signed-out reader to the Hindi sign-in and back", async () => {
    const replace = vi.fn();
    vi.stubGlobal("location", { ...window.location, href: window.location.href, search: "", pathname: "/hi/organisation", replace });
    await loadPage("/organisation");
    document.documentElement.lang = "hi";
    fakeAPI([], []);
    await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(replace).toHaveBeenCalledWith("/hi/login?next=/hi/organisation"));
  });

  it("names the members, the roles and the links in Hindi", async () => {
    setToken("t");
    await loadPage("/organisation");
    document.documentElement.lang = "hi";
    fakeAPI([org("admin")], [member("u-asha", "Asha", "admin"), member("u-meera", "Meera", "auditor", "2027-03-31T00:00:00Z")]);
    const el = await mountIsland("OrganisationPage", OrganisationPage);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-member]")).toHaveLength(2));
    expect(el.querySelector("[data-member=u-asha]")!.textContent).toContain("(आप)");
    expect(el.querySelector("[data-member=u-meera] [data-member-role-label]")!.textContent).toBe("लेखा परीक्षक");
    expect(screen.getByRole("button", { name: "आमंत्रण भेजें" })).toBeTruthy();
    expect(el.querySelector("[data-organisation-register-link]")!.getAttribute("href")).toBe("/hi/organisation/register/?id=o1");
  });
});
