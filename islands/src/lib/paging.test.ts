import { describe, expect, it } from "vitest";
import { pageFrom } from "./paging";

describe("pageFrom", () => {
  it.each([
    ["1", 30, 1],
    ["2", 30, 2],
    ["3", 30, 3],
    ["4", 30, 3], // past the end: the last page
    ["9", 5, 1],
    ["0", 30, 1],
    ["-2", 30, 1],
    ["two", 30, 1],
    ["", 30, 1],
    ["2", 0, 1], // nothing to page
    ["2", 12, 1], // exactly one page
    ["2", 13, 2],
  ])("page %j of %d entries is %d", (raw, n, want) => {
    expect(pageFrom(raw, n, 12)).toBe(want);
  });
});
