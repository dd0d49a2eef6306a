import { beforeEach, describe, expect, it } from "vitest";
import { showGroups } from "./groups";

describe("showGroups", () => {
  beforeEach(() => {
    document.body.innerHTML = `
      <section data-group="a"><div data-list="a"></div></section>
      <section data-group="b"><div data-list="b"></div></section>
      <div data-empty="all" hidden>Nothing found</div>`;
  });
  const hidden = (sel: string) => document.querySelector<HTMLElement>(sel)!.hidden;

  it("shows every group with entries and no empty state", () => {
    showGroups(document, { a: 2, b: 1 }, "all");
    expect([hidden("[data-group=a]"), hidden("[data-group=b]"), hidden("[data-empty=all]")]).toEqual([false, false, true]);
  });

  it("hides a group with no entries", () => {
    showGroups(document, { a: 0, b: 3 }, "all");
    expect([hidden("[data-group=a]"), hidden("[data-group=b]"), hidden("[data-empty=all]")]).toEqual([true, false, true]);
  });

  it("shows the empty state only when every group is empty, and undoes it", () => {
    showGroups(document, { a: 0, b: 0 }, "all");
    expect([hidden("[data-group=a]"), hidden("[data-group=b]"), hidden("[data-empty=all]")]).toEqual([true, true, false]);
    showGroups(document, { a: 1, b: 0 }, "all");
    expect([hidden("[data-group=a]"), hidden("[data-group=b]"), hidden("[data-empty=all]")]).toEqual([false, true, true]);
  });
});
