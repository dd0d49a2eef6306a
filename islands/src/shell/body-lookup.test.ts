import { describe, expect, it, vi } from "vitest";
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
  ])("%s → %s", (path, want) => {
    expect(bodyPath(path, known)).toBe(want);
  });
});

describe("initBodyLookup", () => {
  it("goes to the body's page from the not-found page only", () => {
    window.history.replaceState(null, "", "/payment-body/SEBI?sort=impact");
    const go = vi.fn();
    initBodyLookup(document, go);
    expect(go).not.toHaveBeenCalled(); // no lookup element on this page
    document.body.innerHTML = `<div data-body-lookup="irdai npci rbi sebi"></div>`;
    initBodyLookup(document, go);
    expect(go).toHaveBeenCalledWith("/payment-body/sebi?sort=impact");
  });
});
