import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import BodyCirculars, { circularsURL } from "./BodyCirculars";

describe("circularsURL", () => {
  it.each([
    [{ q: "RBI", sort: "date", filter: "all" }, "/api/circulars?source=RBI&limit=100&sort=date&search=RBI"],
    [{ q: "  ", sort: "impact", filter: "high" }, "/api/circulars?source=RBI&limit=100&sort=impact&filter=high"],
    [{ q: "e-mandate & cards", sort: "relevance", filter: "all" }, "/api/circulars?source=RBI&limit=100&sort=relevance&search=e-mandate+%26+cards"],
  ])("%j", (state, want) => {
    expect(circularsURL("RBI", 100, state)).toBe(want);
  });
});

function page() {
  document.body.innerHTML = `
    <div id="root"></div>
    <div data-list="body-circulars">
      <div data-fields='{"slug":"a","title":"UPI Lite limits","impactLevel":"low","source":"NPCI"}'>a</div>
      <div data-fields='{"slug":"b","title":"Collect requests end","impactLevel":"high","source":"NPCI"}'>b</div>
      <div data-fields='{"slug":"c","title":"API response times","impactLevel":"medium","source":"NPCI"}'>c</div>
    </div>
    <div data-empty="body-circulars" hidden>No circulars found</div>`;
  return document.getElementById("root")!;
}
const shown = () => [...document.querySelectorAll<HTMLElement>("[data-list] > div")].filter((e) => !e.hidden).map((e) => e.textContent);

describe("BodyCirculars", () => {
  beforeEach(() => window.history.replaceState(null, "", "/payment-body/npci"));
  afterEach(() => vi.unstubAllGlobals());

  it("asks nothing until the visitor changes something, then shows the API's order", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify([{ slug: "b" }, { slug: "c" }, { slug: "zz" }]), { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    render(<BodyCirculars source="NPCI" name="National Payments Corporation of India" impactLevels={["high", "medium", "low"]} limit={100} />, { container: page() });
    expect(screen.getByRole("searchbox")).toHaveProperty("value", "NPCI");
    expect(shown()).toEqual(["a", "b", "c"]);
    expect(fetch).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole("combobox", { name: "Sort by" }), { target: { value: "impact" } });
    await waitFor(() => expect(shown()).toEqual(["b", "c"]));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toBe("/api/circulars?source=NPCI&limit=100&sort=impact&search=NPCI");
    expect(window.location.search).toBe("?sort=impact");
  });

  it("filters in the browser when the API does not answer", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<h1>404</h1>", { status: 404 })));
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(<BodyCirculars source="NPCI" name="NPCI" impactLevels={["high", "medium", "low"]} limit={100} />, { container: page() });
    fireEvent.change(screen.getByRole("combobox", { name: "Impact level" }), { target: { value: "high" } });
    await screen.findByText(/Live sorting is unavailable/);
    await waitFor(() => expect(shown()).toEqual(["b"]));
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "nothing like it" } });
    await waitFor(() => expect(shown()).toEqual([]));
    expect(document.querySelector<HTMLElement>("[data-empty]")!.hidden).toBe(false);
  });
});
