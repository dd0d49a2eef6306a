import { describe, expect, it, vi } from "vitest";
import { initHeaderSearch, searchURL } from "./search";

describe("searchURL", () => {
  it.each([
    ["", null],
    ["   ", null],
    ["upi", "/search?q=upi"],
    ["  card tokenisation ", "/search?q=card%20tokenisation"],
    ["a&b=c", "/search?q=a%26b%3Dc"],
  ])("%j -> %s", (text, want) => expect(searchURL(text)).toBe(want));
});

describe("initHeaderSearch", () => {
  it("navigates only for non-empty text", () => {
    document.body.innerHTML = `<form data-header-search action="/search"><input name="q"><button>Go</button></form>`;
    const go = vi.fn();
    initHeaderSearch(document, go);
    const form = document.querySelector("form")!;
    const input = form.querySelector("input")!;
    input.value = "   ";
    form.requestSubmit();
    expect(go).not.toHaveBeenCalled();
    input.value = " KYC ";
    form.requestSubmit();
    expect(go).toHaveBeenCalledWith("/search?q=KYC");
  });
});
