import { beforeEach, describe, expect, it } from "vitest";
import { pageCount, readList, showList } from "./static-list";

function setup(n: number) {
  document.body.innerHTML = `
    <span data-count="x">${n}</span>
    <div data-list="x">${Array.from({ length: n }, (_, i) => `<article data-fields='{"name":"item ${i}"}'>${i}</article>`).join("")}</div>
    <p data-empty="x" hidden>Nothing</p>`;
  return readList(document, "x");
}

const shownText = () =>
  [...document.querySelectorAll<HTMLElement>("[data-list=x] > article")].filter((e) => !e.hidden).map((e) => e.textContent);

describe("readList", () => {
  beforeEach(() => (document.body.innerHTML = ""));

  it("reads every item's fields", () => {
    const list = setup(3);
    expect(list.items.map((i) => i.fields.name)).toEqual(["item 0", "item 1", "item 2"]);
  });

  it("tolerates a missing list", () => {
    expect(readList(document, "nope").items).toEqual([]);
  });

  it("keeps an item with broken fields, with none", () => {
    document.body.innerHTML = `<div data-list="y"><article data-fields="{oops">a</article></div>`;
    expect(readList(document, "y").items[0].fields).toEqual({});
  });
});

describe("showList", () => {
  it("shows the given items in the given order", () => {
    const list = setup(4);
    showList(document, list, [2, 0]);
    expect(shownText()).toEqual(["2", "0"]);
    expect(document.querySelector("[data-count=x]")!.textContent).toBe("2");
    expect(document.querySelector<HTMLElement>("[data-empty=x]")!.hidden).toBe(true);
  });

  it("shows the empty state and hides the list when nothing matches", () => {
    const list = setup(2);
    showList(document, list, []);
    expect(shownText()).toEqual([]);
    expect(document.querySelector<HTMLElement>("[data-empty=x]")!.hidden).toBe(false);
    expect(list.container!.hidden).toBe(true);
    expect(document.querySelector("[data-count=x]")!.textContent).toBe("0");
  });

  it("pages, clamping the page number", () => {
    const list = setup(30);
    const all = list.items.map((_, i) => i);
    showList(document, list, all, 2, 12);
    expect(shownText()).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 12)));
    showList(document, list, all, 9, 12);
    expect(shownText()).toEqual(Array.from({ length: 6 }, (_, i) => String(i + 24)));
    showList(document, list, all, 0, 12);
    expect(shownText()[0]).toBe("0");
    // the count is of every match, not of the page
    expect(document.querySelector("[data-count=x]")!.textContent).toBe("30");
  });
});

describe("pageCount", () => {
  it.each([
    [0, 12, 1],
    [12, 12, 1],
    [13, 12, 2],
    [25, 12, 3],
    [5, 0, 1],
  ])("%i items of %i a page fill %i", (n, size, want) => {
    expect(pageCount(n, size)).toBe(want);
  });
});
