import { afterEach, describe, expect, it } from "vitest";
import { fixturePaths, loadPage, resetPage } from "../test/fixture";
import * as contract from "./contract";
import { sel, setHidden, setHiddenAll } from "./contract";

describe("sel", () => {
  it("selects by attribute, or by attribute and value", () => {
    expect(sel(contract.dataList)).toBe("[data-list]");
    expect(sel(contract.dataList, "founders-indian")).toBe('[data-list="founders-indian"]');
  });
});

describe("setHidden", () => {
  afterEach(() => (document.body.innerHTML = ""));

  it("hides and shows with the hidden attribute, not a class", () => {
    document.body.innerHTML = `<p class="flex">a</p><p class="flex">b</p><span>c</span>`;
    const [a, b] = document.querySelectorAll<HTMLElement>("p");
    setHidden(a, true);
    expect(a.hasAttribute("hidden")).toBe(true);
    expect(a.className).toBe("flex");
    setHidden(a, false);
    expect(a.hasAttribute("hidden")).toBe(false);
    setHiddenAll(document, "p", true);
    expect([a.hidden, b.hidden, document.querySelector("span")!.hidden]).toEqual([true, true, false]);
  });
});

// Every attribute of the contract but the code's own is on some page the
// generator built, so the names here are the templates' names.
describe("the fixture site", () => {
  afterEach(resetPage);

  const codeOwn: string[] = [contract.dataIslandMounted, contract.dataSkeleton, contract.dataTheme, contract.dataSearch];
  const written = (Object.values(contract) as unknown[]).filter((v): v is string => typeof v === "string" && !codeOwn.includes(v));

  it("has every attribute of the contract the templates write", async () => {
    expect(written).toContain(contract.dataList);
    const found = new Set<string>();
    for (const path of fixturePaths) {
      await loadPage(path);
      for (const a of written) if (document.querySelector(`[${a}]`)) found.add(a);
    }
    expect(written.filter((a) => !found.has(a))).toEqual([]);
  });
});
