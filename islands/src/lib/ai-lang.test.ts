import { afterEach, describe, expect, it } from "vitest";
import { aiQuery } from "./ai-lang";

describe("aiQuery", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("asks for nothing on an English page (the API's default)", () => {
    expect(aiQuery()).toEqual({});
    document.documentElement.lang = "en-IN";
    expect(aiQuery()).toEqual({});
  });

  it("asks for Hindi on a Hindi page", () => {
    document.documentElement.lang = "hi-IN";
    expect(aiQuery()).toEqual({ lang: "hi" });
    expect(aiQuery("en")).toEqual({});
  });
});
