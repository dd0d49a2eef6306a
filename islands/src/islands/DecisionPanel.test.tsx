import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "../lib/api";
import { removeToaster } from "../lib/toast";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import { comment, decision, evidence, fakeTeamAPI, json, member, org, type World } from "../test/teams";
import DecisionPanel, { size } from "./DecisionPanel";

const page = "/circulars/rbi-2020-03-17-pa-guidelines";
const members = [member("u-asha", "Asha", "admin"), member("u-ravi", "Ravi", "member"), member("u-vik", "Vik", "viewer")];

async function mount(w: World, answer?: Parameters<typeof fakeTeamAPI>[1]) {
  if (!w.signedOut) setToken("t");
  await loadPage(page);
  const calls = fakeTeamAPI(w, answer);
  const el = await mountIsland("DecisionPanel", DecisionPanel);
  return { el, calls };
}

afterEach(() => {
  vi.restoreAllMocks();
  setToken(null);
  act(() => removeToaster());
  resetPage();
});

describe("size", () => {
  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [1023, "1023 bytes"],
    [2048, "2 KB"],
    [1536, "1.5 KB"],
    [20 << 20, "20 MB"],
    [(20 << 20) + 1, "20 MB"],
  ])("writes %i as %s", (n, want) => expect(size(n)).toBe(want));
});

describe("DecisionPanel on a circular's page", () => {
  it("is placed with the circular's id and Go's values", async () => {
    await loadPage(page);
    const props = JSON.parse(document.querySelector("[data-island=DecisionPanel]")!.getAttribute("data-props")!);
    expect(props.type).toBe("circular");
    expect(props.subject).toMatch(/^[0-9a-f-]{36}$/);
    expect(props.statuses.map((c: { value: string }) => c.value)).toEqual(["new", "assessing", "action-planned", "done", "not-applicable"]);
    expect(props.maxEvidenceBytes).toBe(20 << 20);
  });

  it("shows nothing signed out, nor to a user of no organisation", async () => {
    const { el } = await mount({ orgs: [], signedOut: true });
    expect(el.querySelector("[data-decision-panel]")).toBeNull();
    resetPage();
    const again = await mount({ orgs: [] });
    await vi.waitFor(() => expect(again.calls.some((c) => c.url === "/api/organisations")).toBe(true));
    expect(again.el.querySelector("[data-decision-panel]")).toBeNull();
  });

  it("lets a member record the first decision, sending version 0", async () => {
    const { el, calls } = await mount({ orgs: [org("member")], members, decision: null });
    await screen.findByText(/has not decided on this circular yet/);
    fireEvent.change(screen.getByLabelText("Owner"), { target: { value: "u-ravi" } });
    fireEvent.change(screen.getByLabelText("Due"), { target: { value: "effective+30d" } });
    fireEvent.click(screen.getByRole("button", { name: "Record the decision" }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.url).toMatch(/^\/api\/organisations\/o1\/decision\?type=circular&subject=[0-9a-f-]{36}$/);
    expect(put.body).toEqual({ applicability: "applicable", ownerId: "u-ravi", due: "effective+30d", status: "new", version: 0 });
    await vi.waitFor(() => expect(el.querySelector("[data-decision-current]")?.getAttribute("data-version")).toBe("1"));
    expect(el.querySelector("[data-decision-owner]")!.textContent).toBe("Ravi Rao");
  });

  it("shows the decision and says a stale write in plain words", async () => {
    const { el, calls } = await mount({ orgs: [org("admin")], members, decision: decision({ overdue: true }) }, (c) =>
      c.method === "PUT" ? json({ error: "The decision was changed since you read it: reload it and decide again" }, 409) : undefined,
    );
    await vi.waitFor(() => expect(el.querySelector("[data-decision-current]")).not.toBeNull());
    expect(el.querySelector("[data-decision-status]")!.textContent).toBe("Assessing");
    expect(el.querySelector("[data-decision-due]")!.textContent).toBe("31 December 2026 (effective+30d)");
    expect(el.querySelector("[data-overdue]")).not.toBeNull();
    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "done" } });
    fireEvent.click(screen.getByRole("button", { name: "Save the decision" }));
    await screen.findByText(/Someone else changed this decision after you opened it/);
    expect((calls.find((c) => c.method === "PUT")!.body as { version: number }).version).toBe(3);
    fireEvent.click(screen.getByRole("button", { name: "Reload the decision" }));
    await vi.waitFor(() => expect(el.querySelector("[data-stale]")).toBeNull());
  });

  it("says why the decision was reopened, with the circular that replaced it, in Go's words", async () => {
    const reopened = { at: "2026-11-25T00:00:00Z", reason: "circular-withdrawn" as const, from: "", to: "2026-11-25", priorStatus: "done" as const, replacedBy: [{ slug: "pa-2026", circularNumber: "RBI/2026-27/9", title: "PA directions" }], rulesNowIn: [], diff: null };
    const { el } = await mount({ orgs: [org("member")], members, decision: decision({ reopened }) });
    await vi.waitFor(() => expect(el.querySelector("[data-decision-reopened]")).not.toBeNull());
    expect(el.querySelector("[data-decision-reopened]")!.textContent).toContain("Reopened on 25 November 2026: The circular was withdrawn or replaced.");
    expect(el.querySelector("[data-decision-reopened] a")!.getAttribute("href")).toBe("/circulars/pa-2026");
  });

  it("asks for a reason when the circular does not apply, and shows the API's field message", async () => {
    await mount({ orgs: [org("member")], members, decision: decision() }, (c) =>
      c.method === "PUT" ? json({ error: "The request is invalid", fields: { reason: "a subject that does not apply needs a reason" } }, 400) : undefined,
    );
    fireEvent.change(await screen.findByLabelText("Does it apply?"), { target: { value: "not-applicable" } });
    expect(screen.getByLabelText("Reason")).not.toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save the decision" }));
    expect(await screen.findByText("a subject that does not apply needs a reason")).not.toBeNull();
  });

  it("lists and adds comments with @mentions, lists evidence with its hash and attaches a link", async () => {
    const { el, calls } = await mount({ orgs: [org("member")], members, decision: decision(), comments: [comment("@asha please check")], evidence: [evidence()] });
    await vi.waitFor(() => expect(el.querySelectorAll("[data-comment]")).toHaveLength(1));
    expect(el.querySelector("[data-comment] strong")!.textContent).toBe("@asha");
    await vi.waitFor(() => expect(el.querySelector("[data-evidence-sha256]")?.textContent).toBe("ab".repeat(32)));
    expect(el.querySelector("[data-evidence-state-label]")!.textContent).toBe("Pending review");
    // A member may not review.
    expect(el.querySelector("[data-review]")).toBeNull();

    fireEvent.change(screen.getByLabelText("Add a comment"), { target: { value: "@ravi done?" } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url.includes("/decision/comments"))).toBe(true));
    expect(calls.find((c) => c.url.includes("/decision/comments") && c.method === "POST")!.body).toEqual({ body: "@ravi done?" });
    await screen.findByText("Mentioned: Ravi Rao.", undefined, { timeout: 5000 });

    fireEvent.click(screen.getByLabelText("A link"));
    fireEvent.change(screen.getByLabelText("Link (http or https)"), { target: { value: "https://intranet.example.com/policy" } });
    fireEvent.click(screen.getByRole("button", { name: "Attach evidence" }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url.includes("/decision/evidence"))).toBe(true));
    expect(calls.find((c) => c.method === "POST" && c.url.includes("/decision/evidence"))!.body).toEqual({ link: "https://intranet.example.com/policy" });
  });

  it("uploads a file as multipart, and refuses one over Go's limit before sending it", async () => {
    const { calls } = await mount({ orgs: [org("member")], members, decision: decision() });
    const input = (await screen.findByLabelText(/^File \(up to 20 MB\)/)) as HTMLInputElement;
    const big = new File(["x"], "big.pdf");
    Object.defineProperty(big, "size", { value: (20 << 20) + 1 });
    fireEvent.change(input, { target: { files: [big] } });
    fireEvent.click(screen.getByRole("button", { name: "Attach evidence" }));
    await screen.findByText("The file is larger than 20 MB.");
    expect(calls.some((c) => c.method === "POST" && c.url.includes("/decision/evidence"))).toBe(false);

    fireEvent.change(input, { target: { files: [new File(["%PDF-1.4 ok"], "policy.pdf", { type: "application/pdf" })] } });
    fireEvent.change(screen.getByLabelText("What it shows (optional)"), { target: { value: "Approved policy" } });
    fireEvent.click(screen.getByRole("button", { name: "Attach evidence" }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url.includes("/decision/evidence"))).toBe(true));
    const form = calls.find((c) => c.method === "POST" && c.url.includes("/decision/evidence"))!.body as FormData;
    // (jsdom's Request keeps the part, not its file name)
    expect((form.get("file") as File).type).toBe("application/pdf");
    expect(form.get("note")).toBe("Approved policy");
  });

  it("shows a viewer the decision and no controls", async () => {
    const { el } = await mount({ orgs: [org("viewer")], members, decision: decision(), comments: [comment("hello")], evidence: [evidence()] });
    await vi.waitFor(() => expect(el.querySelectorAll("[data-evidence]")).toHaveLength(1));
    expect(el.querySelector("[data-decide-form]")).toBeNull();
    expect(el.querySelector("[data-comment-form]")).toBeNull();
    expect(el.querySelector("[data-evidence-form]")).toBeNull();
    expect(el.querySelector("[data-review]")).toBeNull();
    expect(el.querySelector("[data-read-only]")!.textContent).toContain("you read the decision");
  });

  it("lets an auditor review evidence only, with a note", async () => {
    const { el, calls } = await mount({ orgs: [org("auditor")], members, decision: decision(), evidence: [evidence()] });
    await vi.waitFor(() => expect(el.querySelector("[data-review]")).not.toBeNull());
    expect(el.querySelector("[data-decide-form]")).toBeNull();
    expect(el.querySelector("[data-evidence-form]")).toBeNull();
    fireEvent.change(screen.getByLabelText("Review note (required to reject)"), { target: { value: "Signed copy missing" } });
    fireEvent.click(screen.getByRole("button", { name: "Reject" }));
    await vi.waitFor(() => expect(calls.some((c) => c.url.endsWith("/evidence/e1/review"))).toBe(true));
    expect(calls.find((c) => c.url.endsWith("/evidence/e1/review"))!.body).toEqual({ decision: "rejected", note: "Signed copy missing" });
    await screen.findByText("Evidence rejected", undefined, { timeout: 5000 });
  });

  it("picks among several organisations", async () => {
    const { el } = await mount({ orgs: [org("viewer"), org("admin", "o2", "Ravi Cards")], members, decision: null });
    const picker = (await vi.waitFor(() => el.querySelector("[data-decision-org-picker]"))) as HTMLSelectElement;
    expect(el.querySelector("[data-decision-org]")!.getAttribute("data-can-decide")).toBe("false");
    fireEvent.change(picker, { target: { value: "o2" } });
    await vi.waitFor(() => expect(el.querySelector("[data-decision-org]")!.getAttribute("data-decision-org")).toBe("o2"));
    expect(el.querySelector("[data-decision-org]")!.getAttribute("data-can-decide")).toBe("true");
  });
});
