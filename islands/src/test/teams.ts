// A fake of the team calls for the team islands' tests: organisations,
// members, a decision, its comments and evidence, the board and the
// work, answered from what the test gives; every call is recorded, and
// answer, when given, answers a call first (a refusal).
import { vi } from "vitest";
import type { Schemas } from "../lib/api";
import { pathOf } from "./fetch";

type Organisation = Schemas["Organisation"];
type Member = Schemas["Member"];
type Decision = Schemas["Decision"];
type Evidence = Schemas["Evidence"];
type Comment = Schemas["Comment"];

export const me = { id: "u-asha", username: "asha", email: "asha@example.com", firstName: "Asha", lastName: "Rao", role: "user", isVerified: false, createdAt: "2026-01-01T00:00:00Z" };

export const json = (v: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json", ...headers } });

// org is an organisation as the API answers it for role: the flags are
// what Go's rules say of each role (teams.CanDecide...), fixed here as
// the API's answer would be.
export const org = (role: Organisation["role"], id = "o1", name = "Asha Payments"): Organisation => ({
  id,
  name,
  entityTypes: ["PSP"],
  createdAt: "2026-11-01T00:00:00Z",
  role,
  canManageMembers: role === "admin",
  canDecide: role === "admin" || role === "member",
  canReviewEvidence: role === "admin" || role === "auditor",
});

export const member = (userId: string, firstName: string, role: Member["role"], expiresAt: string | null = null): Member => ({
  userId,
  organisationId: "o1",
  username: firstName.toLowerCase(),
  email: `${firstName.toLowerCase()}@example.com`,
  firstName,
  lastName: "Rao",
  role,
  joinedAt: "2026-11-01T00:00:00Z",
  expiresAt,
});

export const decision = (patch: Partial<Decision> = {}): Decision => ({
  organisationId: "o1",
  subjectType: "circular",
  subjectId: "c1",
  provision: null,
  applicability: "applicable",
  reason: null,
  note: null,
  deferredUntil: null,
  ownerId: "u-ravi",
  due: "effective+30d",
  dueDate: "2026-12-31",
  status: "assessing",
  decidedBy: "u-asha",
  decidedAt: "2026-11-20T10:00:00Z",
  textVersion: null,
  version: 3,
  reopened: null,
  overdue: false,
  subjectTitle: "Payment aggregators",
  subjectPath: "/circulars/pa",
  ...patch,
});

export const evidence = (patch: Partial<Evidence> = {}): Evidence => ({
  id: "e1",
  organisationId: "o1",
  subjectType: "circular",
  subjectId: "c1",
  provision: null,
  kind: "file",
  name: "policy.pdf",
  size: 2048,
  sha256: "ab".repeat(32),
  mediaType: "application/pdf",
  clientType: "application/pdf",
  link: null,
  note: "The board's approval",
  addedBy: "u-ravi",
  addedAt: "2026-11-21T10:00:00Z",
  state: "pending",
  reviewedBy: null,
  reviewedAt: null,
  reviewNote: null,
  ...patch,
});

export const comment = (body: string, mentions: string[] = []): Comment => ({
  id: "k1",
  organisationId: "o1",
  subjectType: "circular",
  subjectId: "c1",
  provision: null,
  authorId: "u-ravi",
  body,
  createdAt: "2026-11-22T10:00:00Z",
  mentions,
});

export type Call = { method: string; url: string; body?: unknown };

export type World = {
  orgs: Organisation[];
  members?: Member[];
  decision?: Decision | null;
  comments?: Comment[];
  evidence?: Evidence[];
  board?: Decision[];
  total?: number;
  work?: (Decision & { organisationName: string })[];
  signedOut?: boolean;
};

// fakeTeamAPI stubs fetch with w's answers; answer answers a call first
// when it returns a response.
export function fakeTeamAPI(w: World, answer?: (c: Call) => Response | undefined): Call[] {
  const calls: Call[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    const method = input instanceof Request ? input.method : "GET";
    const req = input instanceof Request ? input : undefined;
    let body: unknown;
    if (req && method !== "GET" && method !== "DELETE") {
      body = (req.headers.get("Content-Type") ?? "").startsWith("multipart/") ? await req.formData() : JSON.parse(await req.text());
    }
    const c: Call = { method, url, body };
    calls.push(c);
    if (url.startsWith("/api/auth/me")) return w.signedOut ? json({ error: "Sign in" }, 401) : json({ user: me });
    const a = answer?.(c);
    if (a) return a;
    const path = url.split("?")[0];
    if (path === "/api/organisations") return json(w.orgs);
    const one = w.orgs.find((o) => path === `/api/organisations/${o.id}`);
    if (one) return json(one);
    if (path === "/api/user/work") {
      // a page as the API answers it: the slice, with the whole work's counts
      const q = new URL(url, "http://x").searchParams;
      const all = w.work ?? [];
      const offset = Number(q.get("offset") ?? 0);
      const limit = Number(q.get("limit") ?? 100);
      return json(all.slice(offset, offset + limit), 200, {
        "X-Total-Count": String(all.length),
        "X-Overdue-Count": String(all.filter((d) => d.overdue).length),
      });
    }
    const m = /^\/api\/organisations\/([^/]+)(\/.*)?$/.exec(path);
    if (!m || !w.orgs.some((o) => o.id === m[1])) return json({ error: "No organisation of yours has that id" }, 404);
    switch (`${method} ${m[2]}`) {
      case "GET /members":
        return json(w.members ?? []);
      case "GET /decision":
        return w.decision ? json(w.decision) : json({ error: "This organisation has no decision on that subject yet" }, 404);
      case "PUT /decision": {
        const b = body as Partial<Decision>;
        return json(decision({ ...b, version: (b.version ?? 0) + 1 } as Partial<Decision>));
      }
      case "GET /decision/comments":
        return json(w.comments ?? []);
      case "POST /decision/comments":
        return json(comment((body as { body: string }).body, ["u-ravi"]), 201);
      case "GET /decision/evidence":
        return json(w.evidence ?? []);
      case "POST /decision/evidence":
        return json(body instanceof FormData ? evidence({ id: "e2", name: (body.get("file") as File).name }) : evidence({ id: "e2", kind: "link", name: null, sha256: null, size: 0, link: (body as { link: string }).link }), 201);
      case "GET /decisions":
        return json(w.board ?? [], 200, { "X-Total-Count": String(w.total ?? w.board?.length ?? 0) });
      case "POST /reassign":
        return json({ reassigned: 2 });
      case "GET /export":
        return new Response("PK", {
          status: 200,
          headers: { "Content-Type": "application/octet-stream", "Content-Disposition": 'attachment; filename="register-asha-20261202T030000Z.xlsx"', "X-Export-Sha256": "cd".repeat(32) },
        });
    }
    if (method === "POST" && m[2]?.endsWith("/review")) {
      const b = body as { decision: Evidence["state"]; note?: string };
      return json(evidence({ state: b.decision, reviewNote: b.note ?? null, reviewedBy: me.id, reviewedAt: "2026-11-23T10:00:00Z" }));
    }
    return new Response("not found", { status: 404 });
  });
  return calls;
}
