import { afterEach, describe, expect, it } from "vitest";
import { format, pageLang, pagePath, translator } from "./i18n";

const area = {
  "a.plain": { en: "Search", hi: "खोज" },
  "a.count": {
    en: { one: "{{ .N }} circular", other: "{{ .N }} circulars" },
    hi: { one: "{{ .N }} परिपत्र", other: "{{ .N }} परिपत्रों" },
  },
  "a.name": { en: "Hello {{ .Name }}", hi: "नमस्ते {{ .Name }}" },
};

describe("i18n", () => {
  afterEach(() => {
    document.documentElement.lang = "en";
  });

  it("reads the page's language", () => {
    const t = translator(area);
    expect(t("a.plain")).toBe("Search");
    document.documentElement.lang = "hi";
    expect(pageLang()).toBe("hi");
    expect(t("a.plain")).toBe("खोज");
    expect(t("a.name", { Name: "आशा" })).toBe("नमस्ते आशा");
  });

  it("chooses plural forms as CLDR does (Hindi: 0 and 1 are one)", () => {
    expect(format(area["a.count"].en, "en", { Count: 1, N: "1" })).toBe("1 circular");
    expect(format(area["a.count"].en, "en", { Count: 0, N: "0" })).toBe("0 circulars");
    expect(format(area["a.count"].hi, "hi", { Count: 0, N: "0" })).toBe("0 परिपत्र");
    expect(format(area["a.count"].hi, "hi", { Count: "1,00,000", N: "1,00,000" })).toBe("1,00,000 परिपत्रों");
  });

  it("leaves a placeholder without data as it is", () => {
    expect(format("Hello {{ .Name }}", "en", {})).toBe("Hello {{ .Name }}");
  });

  it("throws on a key its area lacks", () => {
    expect(() => translator(area)("a.none")).toThrow(/no key a.none/);
  });

  it("writes page paths in the page's language", () => {
    expect(pagePath("/circulars", "en")).toBe("/circulars");
    expect(pagePath("/circulars", "hi")).toBe("/hi/circulars");
    expect(pagePath("/", "hi")).toBe("/hi/");
    expect(pagePath("https://rbi.org.in/x", "hi")).toBe("https://rbi.org.in/x");
    expect(pagePath("/api/circulars", "en")).toBe("/api/circulars");
  });
});
