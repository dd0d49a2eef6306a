import { afterEach, describe, expect, it } from "vitest";
import { keepNext, safeNext, ssoReturn } from "./auth";

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

describe("ssoReturn", () => {
  it.each([
    ["", null],
    ["#next=%2Fx", null],
    ["#sso_token=t.k.n&next=%2Fcirculars%2F%3Fsource%3DRBI", { token: "t.k.n", next: "/circulars/?source=RBI" }],
    ["#sso_token=t&next=%2F%2Fevil.example", { token: "t", next: "/" }], // not a same-site path
    ["#sso_token=t&next=https%3A%2F%2Fevil.example%2F", { token: "t", next: "/" }],
    ["#sso_token=t", { token: "t", next: "/" }],
  ])("%j is %j", (hash, want) => {
    expect(ssoReturn(hash)).toEqual(want);
  });
});

describe("the sign-in paths on a Hindi page", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("keepNext and safeNext are the Hindi pages'", () => {
    document.documentElement.lang = "hi";
    expect(keepNext("/signup", "")).toBe("/hi/signup");
    expect(keepNext("/login", "?next=%2Fhi%2Fobligations")).toBe("/hi/login?next=%2Fhi%2Fobligations");
    expect(safeNext("?next=%2F%2Fevil.example")).toBe("/hi/");
  });
});
