import { describe, expect, it } from "vitest";
import { categoryName, type CardLabels } from "./circular-card";

// A Hindi page's card labels name the categories whose Hindi differs
// from the value (generator/labels.go); filters and URLs keep the value.
describe("categoryName", () => {
  const hindi: CardLabels = { documentTypes: {}, verifications: {}, categories: { "Payment Systems": "भुगतान प्रणालियाँ" } };
  it("is the page's name of a category", () => {
    expect(categoryName("Payment Systems", hindi)).toBe("भुगतान प्रणालियाँ");
  });
  it("is the value when the page names it no other way (English, UPI)", () => {
    expect(categoryName("UPI", hindi)).toBe("UPI");
    expect(categoryName("Payment Systems", { documentTypes: {}, verifications: {} })).toBe("Payment Systems");
    expect(categoryName("UPI")).toBe("UPI");
  });
});
