import { describe, expect, it } from "vitest";
import { keepNext, safeNext } from "./auth";

describe("keepNext", () => {
  it.each([
    ["/signup", "?next=%2Fjoin%2F%3Ftoken%3Da.b", "/signup?next=%2Fjoin%2F%3Ftoken%3Da.b"],
    ["/login", "", "/login"],
    ["/login", "?next=%2F%2Fevil.example", "/login"], // not a same-site path: not carried on
    ["/login", "?next=https://evil.example/", "/login"],
  ])("%s from %j is %s", (path, search, want) => {
    expect(keepNext(path, search)).toBe(want);
    if (want !== path) expect(safeNext(new URL(want, "http://x").search)).toBe(safeNext(search));
  });
});
