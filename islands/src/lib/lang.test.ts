import { afterEach, describe, expect, it } from "vitest";
import { contentLang, itemLang } from "./lang";

describe("lang", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("marks nothing on an English page", () => {
    document.documentElement.lang = "en";
    expect(contentLang()).toBeUndefined();
    expect(itemLang("en")).toBeUndefined();
    expect(itemLang("hi")).toBe("hi");
    document.documentElement.lang = "";
    expect(contentLang()).toBeUndefined();
  });

  it("marks English content on a Hindi page", () => {
    document.documentElement.lang = "hi";
    expect(contentLang()).toBe("en");
    expect(itemLang("en")).toBe("en");
    expect(itemLang("hi")).toBeUndefined();
    expect(itemLang(null)).toBeUndefined();
  });
});
