import { afterEach, describe, expect, it } from "vitest";
import { rangeText } from "./api-list";

describe("rangeText", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("says the range as list-range.html does", () => {
    expect(rangeText(2, 30, 290, "circulars")).toBe("Showing 31–60 of 290 circulars");
    expect(rangeText(1, 30, 0, "circulars")).toBe("No circulars found");
  });

  it("says it in Hindi on a Hindi page, the noun too", () => {
    document.documentElement.lang = "hi";
    expect(rangeText(2, 30, 1000, "circulars")).toBe("1,000 परिपत्र में से 31–60 दिखाए जा रहे हैं");
    expect(rangeText(1, 30, 0, "articles")).toBe("कोई लेख नहीं मिला");
  });
});
