import { describe, expect, it } from "vitest";
import { initLanguageSwitch } from "./language";

describe("language switch", () => {
  it("keeps the query and the fragment", () => {
    window.history.replaceState(null, "", "/search?q=kyc&source=RBI#results");
    document.body.innerHTML = `<a href="/hi/search" data-language-switch><span lang="hi">हिन्दी</span></a>`;
    initLanguageSwitch();
    const link = document.querySelector("a")!;
    link.addEventListener("click", (e) => e.preventDefault());
    link.querySelector("span")!.click();
    expect(new URL(link.href).pathname + new URL(link.href).search + new URL(link.href).hash).toBe(
      "/hi/search?q=kyc&source=RBI#results",
    );
  });

  it("leaves a link alone when the page has no query", () => {
    window.history.replaceState(null, "", "/circulars");
    document.body.innerHTML = `<a href="/hi/circulars" data-language-switch>हिन्दी</a>`;
    const link = document.querySelector("a")!;
    link.addEventListener("click", (e) => e.preventDefault());
    link.click();
    expect(link.getAttribute("href")).toBe("/hi/circulars");
  });
});
