import { describe, expect, it } from "vitest";
import Fuse from "fuse.js";
import { containsQuery, search } from "./match";

const items = [
  { name: "General Data Protection Regulation", country: "European Union", tags: ["consent", "DPO"] },
  { name: "Digital Personal Data Protection Act", country: "India", tags: ["Data Fiduciary"] },
  { name: "Privacy Act 1988", country: "Australia", tags: [] },
  { name: "PIPEDA", country: "Canada", tags: ["consent"] },
];
const keys = ["name", "country", "tags"];

describe("containsQuery", () => {
  it.each([
    ["", true],
    ["   ", true],
    ["india", true],
    ["INDIA", true],
    ["fiduciary", true],
    ["  india ", true],
    ["brazil", false],
  ])("%j on the DPDP Act is %s", (q, want) => {
    expect(containsQuery(items[1], keys, q)).toBe(want);
  });

  it("only looks at the given keys", () => {
    expect(containsQuery(items[1], ["name"], "india")).toBe(false);
  });
});

describe("search", () => {
  it("keeps the list order for substring matches", () => {
    expect(search(items, keys, "protection")).toEqual([0, 1]);
    expect(search(items, keys, "consent")).toEqual([0, 3]);
  });

  it("returns everything for an empty query", () => {
    expect(search(items, keys, "", Fuse)).toEqual([0, 1, 2, 3]);
  });

  it("offers typo matches when nothing matches exactly", () => {
    // "protction" is no substring of anything; fuse finds both Acts.
    const got = search(items, keys, "protction", Fuse);
    expect(got).toContain(0);
    expect(got).toContain(1);
    expect(got).not.toContain(2);
  });

  it("adds no fuzzy noise to exact matches", () => {
    // "privacy" is exact in one name; "privcy"-like neighbours stay out
    expect(search(items, keys, "privacy", Fuse)).toEqual([2]);
    expect(search([{ n: "India" }, { n: "individuals" }], ["n"], "india", Fuse)).toEqual([0]);
  });

  it("never loses a substring match, whatever fuse thinks", () => {
    // a match deep inside a long value, where fuse's location scoring gives up
    const long = [{ name: "x".repeat(500) + "needle" }, { name: "haystack" }];
    expect(search(long, ["name"], "needle", Fuse)).toEqual([0]);
  });

  it("keeps short queries exact", () => {
    expect(search(items, keys, "zz", Fuse)).toEqual([]);
  });
});
