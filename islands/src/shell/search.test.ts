import { afterEach, describe, expect, it, vi } from "vitest";
import { dataHeaderSearch, sel } from "../lib/contract";
import { loadPage, resetPage } from "../test/fixture";
import { initHeaderSearch, searchURL } from "./search";

describe("searchURL", () => {
  it.each([
    ["", null],
    ["   ", null],
    ["upi", "/search?q=upi"],
    ["  card tokenisation ", "/search?q=card%20tokenisation"],
    ["a&b=c", "/search?q=a%26b%3Dc"],
  ])("%j -> %s", (text, want) => expect(searchURL(text)).toBe(want));

  it("goes to the form's search page (a Hindi page's is /hi/search)", () => {
    expect(searchURL(" upi ", "/hi/search")).toBe("/hi/search?q=upi");
  });
});

// The header of the fixture site's pages (templates/_partials/header.html).
describe("initHeaderSearch on /news", () => {
  afterEach(resetPage);

  it("searches in the page's language: the Hindi page's form goes to /hi/search", async () => {
    await loadPage("/hi/news");
    const go = vi.fn();
    initHeaderSearch(document, go);
    const form = document.querySelector<HTMLFormElement>(`form${sel(dataHeaderSearch)}`)!;
    form.querySelector<HTMLInputElement>('input[name="q"]')!.value = "केवाईसी";
    form.requestSubmit();
    expect(go).toHaveBeenCalledWith(`/hi/search?q=${encodeURIComponent("केवाईसी")}`);
  });

  it("navigates only for non-empty text", async () => {
    await loadPage("/news");
    const go = vi.fn();
    initHeaderSearch(document, go);
    const form = document.querySelector<HTMLFormElement>(`form${sel(dataHeaderSearch)}`)!;
    const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
    input.value = "   ";
    form.requestSubmit();
    expect(go).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(input);
    input.value = " KYC ";
    form.requestSubmit();
    expect(go).toHaveBeenCalledWith("/search?q=KYC");
  });
});
