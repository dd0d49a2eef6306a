import { describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { queryString, readQuery, useQueryState } from "./query-state";

const defaults = { q: "", country: "all" };

describe("readQuery", () => {
  it.each([
    ["", { q: "", country: "all" }],
    ["?q=gdpr", { q: "gdpr", country: "all" }],
    ["?country=India&other=1", { q: "", country: "India" }],
    ["?q=a%20b%26c", { q: "a b&c", country: "all" }],
  ])("%s", (search, want) => {
    expect(readQuery(search, defaults)).toEqual(want);
  });
});

describe("queryString", () => {
  it("drops defaults and empty values, keeps unrelated parameters", () => {
    expect(queryString("?page=2", { q: "", country: "all" }, defaults)).toBe("?page=2");
    expect(queryString("", { q: "data act", country: "India" }, defaults)).toBe("?q=data+act&country=India");
    expect(queryString("?q=old", { q: "", country: "all" }, defaults)).toBe("");
  });
});

describe("useQueryState", () => {
  it("starts from the URL and writes changes back to it", () => {
    window.history.replaceState(null, "", "/pii-regulations?country=Canada#top");
    const { result } = renderHook(() => useQueryState(defaults));
    expect(result.current[0]).toEqual({ q: "", country: "Canada" });
    act(() => result.current[1]({ q: "pipeda" }));
    expect(result.current[0]).toEqual({ q: "pipeda", country: "Canada" });
    expect(window.location.search).toBe("?country=Canada&q=pipeda");
    expect(window.location.hash).toBe("#top");
    act(() => result.current[1]({ q: "", country: "all" }));
    expect(window.location.search).toBe("");
  });
});
