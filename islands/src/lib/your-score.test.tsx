import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "./api";
import { loadPage, mountIsland, resetPage } from "../test/fixture";
import { pathOf } from "../test/fetch";
import YourScore from "./your-score";

const user = { user: { id: "u", username: "asha", email: "a@example.com", firstName: "Asha", lastName: "Rao", role: "user", isVerified: false, createdAt: "2026-01-01T00:00:00Z" } };
const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { "Content-Type": "application/json" } });

function fakeAPI(score: unknown) {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = pathOf(input);
    if (url.startsWith("/api/auth/me")) return json(user);
    if (url === "/api/user/compliance-score") return json(score);
    return new Response("not found", { status: 404 });
  });
}

// The impact tracker's score: the user's own, or, for a member of an
// organisation, the organisation's, which it names (the API says which).
describe("YourScore on /impact-tracker", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    setToken(null);
    resetPage();
  });

  it("shows the user's own score without an organisation", async () => {
    setToken("t");
    await loadPage("/impact-tracker");
    fakeAPI({ score: 40, applicable: 5, settled: 2, entityTypes: ["PSP"], organisation: null });
    const el = await mountIsland("YourScore", YourScore);
    await vi.waitFor(() => expect(el.querySelector("[data-score-value]")?.textContent).toBe("40%"));
    expect(el.textContent).toContain("Your compliance score");
    expect(el.querySelector("[data-score-organisation]")).toBeNull();
    expect(el.querySelector("a[href='/obligations']")).not.toBeNull();
  });

  it("names the organisation whose score it is", async () => {
    setToken("t");
    await loadPage("/impact-tracker");
    fakeAPI({ score: 75, applicable: 4, settled: 3, entityTypes: ["PSP"], organisation: { id: "o 1", name: "Asha Payments" } });
    const el = await mountIsland("YourScore", YourScore);
    await vi.waitFor(() => expect(el.querySelector("[data-score-value]")?.textContent).toBe("75%"));
    expect(el.textContent).toContain("Compliance score of Asha Payments:");
    expect(el.textContent).toContain("3 of 4 obligations that apply to Asha Payments");
    expect(el.querySelector("[data-score-organisation]")!.getAttribute("data-score-organisation")).toBe("o 1");
    expect(el.querySelector("a[href='/organisation?id=o%201']")).not.toBeNull();
  });
});
