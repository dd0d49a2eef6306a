import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fixturePaths, loadPage, resetPage, shown, text } from "../test/fixture";
import { dataCount, dataEmpty, dataIsland, dataList, sel } from "./contract";
import { pageCount, readList, showList } from "./static-list";

// The fixture's /payment-networks: Mastercard, UPI (NPCI) and Visa, a count
// badge and an empty state.
describe("readList on /payment-networks", () => {
  beforeEach(() => loadPage("/payment-networks"));
  afterEach(resetPage);

  it("reads every card's fields, in page order", () => {
    const list = readList(document, "networks");
    expect(list.container).toBe(document.querySelector(sel(dataList, "networks")));
    expect(list.items.map((i) => i.fields.name)).toEqual(["Mastercard", "UPI (NPCI)", "Visa"]);
    expect(list.items[2].fields).toEqual({
      name: "Visa",
      description: "Global four-party card network.",
      guidelines: ["Card-on-file tokenisation", "Network choice at issuance"],
    });
  });

  it("tolerates a missing list", () => {
    expect(readList(document, "nope").items).toEqual([]);
  });
});

describe("showList on /payment-networks", () => {
  beforeEach(() => loadPage("/payment-networks"));
  afterEach(resetPage);
  const emptyHidden = () => document.querySelector<HTMLElement>(sel(dataEmpty, "networks"))!.hidden;

  it("shows the given items in the given order, and their count", () => {
    const list = readList(document, "networks");
    showList(document, list, [2, 0]);
    expect(shown("networks")).toEqual(["Visa", "Mastercard"]);
    expect(text(sel(dataCount, "networks"))).toBe("2");
    expect(emptyHidden()).toBe(true);
  });

  it("shows the empty state and hides the list when nothing matches, and undoes it", () => {
    const list = readList(document, "networks");
    showList(document, list, []);
    expect(shown("networks")).toEqual([]);
    expect(list.container!.hidden).toBe(true);
    expect(emptyHidden()).toBe(false);
    expect(text(sel(dataCount, "networks"))).toBe("0");
    showList(document, list, [0, 1, 2]);
    expect(shown("networks")).toEqual(["Mastercard", "UPI (NPCI)", "Visa"]);
    expect([list.container!.hidden, emptyHidden()]).toEqual([false, true]);
  });
});

// Every page of the fixture site with an island: each list is made of
// cards whose data-fields parse, and each count badge counts a list there.
describe("the lists of the fixture site's island pages", () => {
  afterEach(() => {
    resetPage();
    vi.restoreAllMocks();
  });

  it("hold only cards with fields, and count badges name them", async () => {
    const err = vi.spyOn(console, "error");
    let pages = 0;
    for (const path of fixturePaths) {
      await loadPage(path);
      if (!document.querySelector(sel(dataIsland))) continue;
      pages++;
      const names = [...document.querySelectorAll(sel(dataList))].map((el) => el.getAttribute(dataList)!);
      for (const name of names) {
        const list = readList(document, name);
        expect(list.items.length, `${path} ${name}`).toBe(list.container!.children.length);
        for (const it of list.items) expect(Object.keys(it.fields).length, `${path} ${name}`).toBeGreaterThan(0);
      }
      for (const el of document.querySelectorAll(sel(dataCount))) expect(names, path).toContain(el.getAttribute(dataCount));
    }
    expect(pages).toBeGreaterThanOrEqual(8);
    expect(err).not.toHaveBeenCalled();
  });
});

// Markup the fixture does not have (broken fields, 30 entries), written
// here.
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
  afterEach(() => {
    document.body.innerHTML = "";
    vi.restoreAllMocks();
  });

  it("keeps an item with broken fields, with none, and says so", () => {
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    document.body.innerHTML = `<div data-list="y"><article data-fields="{oops">a</article></div>`;
    expect(readList(document, "y").items[0].fields).toEqual({});
    expect(err).toHaveBeenCalledOnce();
  });
});

describe("showList", () => {
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
