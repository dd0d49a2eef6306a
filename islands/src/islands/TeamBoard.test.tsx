import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "../lib/api";
import { loadPage, mountIsland, resetSignedInPage } from "../test/fixture";
import { decision, fakeTeamAPI, member, org } from "../test/teams";
import TeamBoard, { pageSize } from "./TeamBoard";

const members = [member("u-asha", "Asha", "admin"), member("u-ravi", "Ravi", "member")];
const board = Array.from({ length: pageSize }, (_, i) => decision({ subjectId: `c${i}`, overdue: i === 0 }));

afterEach(resetSignedInPage);

const boardCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.startsWith("/api/organisations/o1/decisions")).map((c) => c.url);

describe("TeamBoard on /organisation/board/", () => {
  it("filters by status, owner and due date and pages, in the URL", async () => {
    setToken("t");
    await loadPage("/organisation/board?id=o1");
    const calls = fakeTeamAPI({ orgs: [org("member")], members, board, total: 45 });
    const el = await mountIsland("TeamBoard", TeamBoard);
    await vi.waitFor(() => expect(el.querySelectorAll("[data-work-item]")).toHaveLength(pageSize));
    expect(el.querySelector("[data-work-item]")!.getAttribute("data-overdue")).toBe("true");
    expect(el.querySelector("[data-board-total]")!.textContent).toBe("45 decisions.");
    expect(boardCalls(calls)).toEqual(["/api/organisations/o1/decisions?limit=20"]);

    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "assessing" } });
    fireEvent.change(screen.getByLabelText("Owner"), { target: { value: "u-ravi" } });
    fireEvent.change(screen.getByLabelText("Due before"), { target: { value: "2027-01-01" } });
    await vi.waitFor(() => expect(boardCalls(calls).at(-1)).toBe("/api/organisations/o1/decisions?status=assessing&owner=u-ravi&due_before=2027-01-01&limit=20"));
    expect(await screen.findByText("Ravi Rao's work in Asha Payments")).not.toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await vi.waitFor(() => expect(boardCalls(calls).at(-1)).toContain("&offset=20"));
    expect(window.location.search).toBe("?id=o1&status=assessing&owner=u-ravi&due_before=2027-01-01&page=2");
    // A member does not reassign.
    expect(el.querySelector("[data-reassign]")).toBeNull();
  });

  it("lets an admin move a member's open work to another and says how many moved", async () => {
    setToken("t");
    await loadPage("/organisation/board?id=o1");
    const calls = fakeTeamAPI({ orgs: [org("admin")], members, board: [] });
    await mountIsland("TeamBoard", TeamBoard);
    await screen.findByText("No decision matches.");
    fireEvent.change(await screen.findByLabelText("From"), { target: { value: "u-ravi" } });
    await vi.waitFor(() => expect(screen.getByLabelText("To").querySelectorAll("option")).toHaveLength(3));
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "u-asha" } });
    fireEvent.click(screen.getByRole("button", { name: "Reassign" }));
    await vi.waitFor(() => expect(calls.some((c) => c.url.endsWith("/reassign"))).toBe(true));
    expect(calls.find((c) => c.url.endsWith("/reassign"))!.body).toEqual({ from: "u-ravi", to: "u-asha" });
    await vi.waitFor(() => expect(document.querySelector("[data-reassigned]")!.textContent).toBe("2 items moved from Ravi Rao to Asha Rao."));
  });

  it("exports the register as XLSX and shows the file's SHA-256 from the API", async () => {
    setToken("t");
    await loadPage("/organisation/board?id=o1");
    const calls = fakeTeamAPI({ orgs: [org("viewer")], members, board: [] });
    const made = vi.fn((_: Blob) => "blob:register");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: made, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    await mountIsland("TeamBoard", TeamBoard);
    fireEvent.click(await screen.findByRole("button", { name: "Export XLSX" }));
    await vi.waitFor(() => expect(document.querySelector("[data-export-sha256]")?.textContent).toBe("cd".repeat(32)));
    expect(calls.some((c) => c.url === "/api/organisations/o1/export?format=xlsx")).toBe(true);
    expect(document.querySelector("[data-export-done]")!.textContent).toContain("register-asha-20261202T030000Z.xlsx");
    expect(made).toHaveBeenCalledTimes(1);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it("says another organisation's board is not found, in the API's words", async () => {
    setToken("t");
    await loadPage("/organisation/board?id=o-other");
    fakeTeamAPI({ orgs: [org("admin")], members });
    const el = await mountIsland("TeamBoard", TeamBoard);
    await vi.waitFor(() => expect(el.querySelector("[data-board-error]")?.textContent).toBe("No organisation of yours has that id"));
    expect(el.querySelector("[data-board]")).toBeNull();
  });
});
