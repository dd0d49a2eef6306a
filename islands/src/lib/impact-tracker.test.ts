import { describe, expect, it } from "vitest";
import { entitiesHeading } from "./impact-tracker";

describe("entitiesHeading", () => {
  it.each([
    ["", "All Entity Types"],
    ["   ", "All Entity Types"],
    [" card ", 'Search Results for "card"'],
  ])("%j", (q, want) => {
    expect(entitiesHeading(q)).toBe(want);
  });
});
