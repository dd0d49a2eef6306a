import { afterEach, describe, expect, it, vi } from "vitest";
import { loadPage, resetPage } from "../test/fixture";
import { bodyPath, initBodyLookup } from "./body-lookup";

const known = ["irdai", "npci", "rbi", "sebi"];

describe("bodyPath", () => {
  it.each([
    ["/payment-body/Rbi", "/payment-body/rbi"],
    ["/payment-body/RBI", "/payment-body/rbi"],
    ["/payment-body/rBi/", "/payment-body/rbi"],
    ["/payment-body/Irdai", "/payment-body/irdai"],
    ["/payment-body/%4Epci", "/payment-body/npci"],
    ["/payment-body/rbi", null], // already canonical: no loop
    ["/payment-body/xyz", null],
    ["/payment-body/%E0%A4%A", null], // bad escape
    ["/payment-body/rbi/extra", null],
    ["/news", null],
    ["/hi/payment-body/Rbi", "/hi/payment-body/rbi"], // a language's root kept
    ["/hi/payment-body/rbi", null],
    ["/a/b/payment-body/Rbi", null],
  ])("%s → %s", (path, want) => {
    expect(bodyPath(path, known)).toBe(want);
  });
});

// The fixture site's pages: /payment-body/404.html, which a static host
// serves for /payment-body/SEBI, lists the fixture's four bodies.
describe("initBodyLookup", () => {
  afterEach(resetPage);

  it("goes to the body's page from the not-found page only", async () => {
    const go = vi.fn();
    await loadPage("/payment-body/sebi");
    window.history.replaceState(null, "", "/payment-body/SEBI?sort=impact");
    initBodyLookup(document, go);
    expect(go).not.toHaveBeenCalled(); // no lookup element on a body's page
    await loadPage("/payment-body/404.html");
    window.history.replaceState(null, "", "/payment-body/SEBI?sort=impact");
    initBodyLookup(document, go);
    expect(go).toHaveBeenCalledWith("/payment-body/sebi?sort=impact");
    window.history.replaceState(null, "", "/payment-body/Irdai");
    initBodyLookup(document, go);
    expect(go).toHaveBeenLastCalledWith("/payment-body/irdai");
    window.history.replaceState(null, "", "/payment-body/NoSuchBody");
    initBodyLookup(document, go);
    expect(go).toHaveBeenCalledTimes(2);
  });
});
