import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken, type Schemas } from "../lib/api";
import { pathOf } from "../test/fetch";
import { loadPage, mountIsland, resetSignedInPage } from "../test/fixture";
import OrganisationRegister from "./OrganisationRegister";

type Item = Schemas["RegisterItem"];

const item = (id: string, what: string, dueGroup: Item["dueGroup"], status: Item["status"], note = ""): Item => ({
  id,
  circularId: "c-" + id,
  position: 1,
  appliesTo: ["PSP"],
  what,
  kind: "reporting",
  dueDate: null,
  deadline: null,
  binding: true,
  sourceText: what,
  sourceStart: 0,
  sourceEnd: what.length,
  origin: "editor",
  provider: null,
  model: null,
  accepted: true,
  circularSlug: "rbi-" + id,
  circularTitle: "Circular " + id,
  source: "RBI",
  impactLevel: "high",
  circularWithdrawnOn: null,
  cites: null,
  review: null,
  status,
  note,
  statusUpdatedAt: null,
  dueGroup,
});

const me = { id: "u", username: "asha", email: "a@example.com", firstName: "Asha", lastName: "Rao", role: "user", isVerified: false, createdAt: "2026-01-01T00:00:00Z" };
const json = (v: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json", ...headers } });

// fakeAPI answers the register in pages of two (the island reads them
// all).
function fakeAPI(items: Item[]) {
  const urls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    urls.push(url);
    if (url.startsWith("/api/auth/me")) return json({ user: me });
    if (url.startsWith("/api/organisations/o1/register")) {
      const offset = Number(new URL(url, "http://x").searchParams.get("offset") ?? 0);
      return json(
        {
          organisation: { id: "o1", name: "Asha Payments" },
          entityTypes: ["PSP"],
          trackingSince: "2026-11-01T10:00:00Z",
          score: { score: 40, applicable: 3, settled: 1, entityTypes: ["PSP"], organisation: { id: "o1", name: "Asha Payments" } },
          items: items.slice(offset, offset + 2),
        },
        200,
        { "X-Total-Count": String(items.length) },
      );
    }
    if (url.startsWith("/api/organisations/")) return json({ error: "No organisation of yours has that id" }, 404);
    return new Response("not found", { status: 404 });
  });
  return urls;
}

afterEach(resetSignedInPage);

describe("OrganisationRegister on /organisation/register", () => {
  it("shows the organisation's register read-only: its score named, every page's items by due group, each linking to its circular", async () => {
    setToken("t");
    await loadPage("/organisation/register?id=o1");
    const urls = fakeAPI([item("a", "File the return", "overdue", "todo"), item("b", "Appoint an officer", "in-force", "done", "Done in March"), item("c", "Report frauds", "no-date", "not-applicable")]);
    const el = await mountIsland("OrganisationRegister", OrganisationRegister);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-register-item]")).toHaveLength(3));
    expect(urls.filter((u) => u.startsWith("/api/organisations/o1/register"))).toHaveLength(2);
    expect(el.querySelector("[data-register-score]")!.textContent).toBe("Compliance score of Asha Payments: 40% (1 of 3 obligations done or not applicable, weighted by impact)");
    expect(el.querySelector("[data-read-only]")!.textContent).toContain("read-only");
    expect([...el.querySelectorAll("[data-due-group]")].map((g) => g.getAttribute("data-due-group"))).toEqual(["overdue", "in-force", "no-date"]);
    expect(el.querySelector("[data-register-item=b] [data-item-status]")!.textContent).toBe("Done");
    expect(el.querySelector("[data-register-item=b]")!.textContent).toContain("Note: Done in March");
    expect(el.querySelector("[data-register-item=a] [data-item-circular]")!.getAttribute("href")).toBe("/circulars/rbi-a");
    // read-only: nothing to change, nothing that confirms
    expect(el.querySelectorAll("select, textarea, button")).toHaveLength(0);
    expect(el.querySelector("[data-confirm-in-force]")).toBeNull();
    expect(el.querySelector("[data-register-of] a")!.getAttribute("href")).toBe("/organisation?id=o1");
  });

  it("says another organisation is not found, in the API's words", async () => {
    setToken("t");
    await loadPage("/organisation/register?id=o-other");
    fakeAPI([]);
    const el = await mountIsland("OrganisationRegister", OrganisationRegister);
    await vi.waitFor(() => expect(el.querySelector("[data-organisation-error]")?.textContent).toBe("No organisation of yours has that id"));
  });

  it("without an organisation, sends to the organisations", async () => {
    setToken("t");
    await loadPage("/organisation/register");
    fakeAPI([]);
    const el = await mountIsland("OrganisationRegister", OrganisationRegister);
    await vi.waitFor(() => expect(el.querySelector("[data-no-organisation] a")?.getAttribute("href")).toBe("/organisation"));
  });

  it("sends a signed-out reader to sign in and back", async () => {
    const replace = vi.fn();
    await loadPage("/organisation/register?id=o1");
    vi.stubGlobal("location", { ...window.location, href: window.location.href, search: "?id=o1", pathname: "/organisation/register/", replace });
    fakeAPI([]);
    await mountIsland("OrganisationRegister", OrganisationRegister);
    await vi.waitFor(() => expect(replace).toHaveBeenCalledWith("/login?next=" + encodeURIComponent("/organisation/register/?id=o1")));
  });
});
