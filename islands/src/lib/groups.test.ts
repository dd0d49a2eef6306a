import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isHidden, loadPage, resetPage } from "../test/fixture";
import { dataEmpty, dataGroup, sel } from "./contract";
import { showGroups } from "./groups";

// The fixture's /global-fintech: the Indian and Global founder groups and
// the page's one "No founders found" block.
describe("showGroups on /global-fintech", () => {
  beforeEach(() => loadPage("/global-fintech"));
  afterEach(resetPage);
  const state = () => [isHidden(sel(dataGroup, "founders-indian")), isHidden(sel(dataGroup, "founders-global")), isHidden(sel(dataEmpty, "founders"))];

  it("starts with every group shown and no empty state", () => {
    expect(state()).toEqual([false, false, true]);
  });

  it("hides a group with no entries", () => {
    showGroups(document, { "founders-indian": 0, "founders-global": 1 }, "founders");
    expect(state()).toEqual([true, false, true]);
  });

  it("shows the empty state only when every group is empty, and undoes it", () => {
    showGroups(document, { "founders-indian": 0, "founders-global": 0 }, "founders");
    expect(state()).toEqual([true, true, false]);
    showGroups(document, { "founders-indian": 2, "founders-global": 0 }, "founders");
    expect(state()).toEqual([false, true, true]);
  });
});
