import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import LeadersFilter from "./LeadersFilter";

// A page like templates/fintech-leaders.html: 14 Indian cards (two pages
// of 12) and 3 Global ones (one page).
function page() {
  const cards = (n: number, prefix: string, category: string) =>
    Array.from({ length: n }, (_, i) => {
      const fields = JSON.stringify({ name: `${prefix} ${i + 1}`, person: `Person ${prefix} ${i + 1}`, founder: "", category });
      return `<article data-fields='${fields}'>${prefix} ${i + 1}</article>`;
    }).join("");
  document.body.innerHTML = `
    <div id="island"></div>
    <section data-group="leaders-indian"><span data-count="leaders-indian">14</span>
      <div data-list="leaders-indian">${cards(14, "Indian", "Lending")}</div><div data-pager="leaders-indian"></div></section>
    <section data-group="leaders-global"><span data-count="leaders-global">3</span>
      <div data-list="leaders-global">${cards(3, "Global", "BNPL")}</div><div data-pager="leaders-global"></div></section>
    <div data-empty="leaders" hidden>No leaders found</div>`;
  return document.getElementById("island")!;
}

const shown = (list: string) =>
  [...document.querySelectorAll<HTMLElement>(`[data-list=${list}] > article`)].filter((e) => !e.hidden).map((e) => e.textContent);
const pager = (list: string) => document.querySelector(`[data-pager=${list}]`)!;

describe("LeadersFilter", () => {
  beforeEach(() => window.history.replaceState(null, "", "/fintech-leaders"));
  afterEach(() => {
    cleanup();
    document.body.innerHTML = "";
  });

  it("shows 12 per page, with a pager only under the list that needs one", () => {
    render(<LeadersFilter />, { container: page() });
    expect(shown("leaders-indian")).toHaveLength(12);
    expect(shown("leaders-indian")[0]).toBe("Indian 1");
    expect(pager("leaders-indian").textContent).toContain("Page 1 of 2 - Indian Leaders");
    expect(shown("leaders-global")).toHaveLength(3);
    expect(pager("leaders-global").textContent).toBe("");
    expect(screen.getByRole("searchbox", { name: "Search leaders" })).toHaveProperty("placeholder", "Search leaders by name or company...");
  });

  it("pages with Next and Previous, keeping the page in the URL", () => {
    render(<LeadersFilter />, { container: page() });
    const previous = screen.getByRole("button", { name: "Previous" });
    expect(previous).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(shown("leaders-indian")).toEqual(["Indian 13", "Indian 14"]);
    expect(pager("leaders-indian").textContent).toContain("Page 2 of 2 - Indian Leaders");
    expect(window.location.search).toBe("?ip=2");
    expect(screen.getByRole("button", { name: "Next" })).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(shown("leaders-indian")).toHaveLength(12);
    expect(window.location.search).toBe("");
  });

  it("starts from the page in the URL, clamped to the pages there are", () => {
    window.history.replaceState(null, "", "/fintech-leaders?ip=2&gp=5");
    render(<LeadersFilter />, { container: page() });
    expect(shown("leaders-indian")).toEqual(["Indian 13", "Indian 14"]);
    expect(shown("leaders-global")).toHaveLength(3);
  });

  it("a new search starts both lists again at page 1", () => {
    window.history.replaceState(null, "", "/fintech-leaders?ip=2");
    render(<LeadersFilter />, { container: page() });
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "Indian 1" } });
    // "Indian 1", "Indian 10".."Indian 14": one page, so no pager
    expect(shown("leaders-indian")).toEqual(["Indian 1", "Indian 10", "Indian 11", "Indian 12", "Indian 13", "Indian 14"]);
    expect(pager("leaders-indian").textContent).toBe("");
    expect(window.location.search).toBe("?q=Indian+1");
    expect(document.querySelector("[data-count=leaders-indian]")!.textContent).toBe("6");
  });

  it("hides a list with no match and shows the empty state when both have none", async () => {
    render(<LeadersFilter />, { container: page() });
    const search = screen.getByRole("searchbox");
    fireEvent.change(search, { target: { value: "bnpl" } });
    expect(document.querySelector<HTMLElement>("[data-group=leaders-indian]")!.hidden).toBe(true);
    expect(shown("leaders-global")).toHaveLength(3);
    expect(document.querySelector<HTMLElement>("[data-empty=leaders]")!.hidden).toBe(true);
    // Two characters: exact matching only, so nothing matches.
    await act(async () => {
      fireEvent.change(search, { target: { value: "zq" } });
    });
    expect(document.querySelector<HTMLElement>("[data-group=leaders-global]")!.hidden).toBe(true);
    expect(document.querySelector<HTMLElement>("[data-empty=leaders]")!.hidden).toBe(false);
  });
});
