import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { dataCount, dataEmpty, dataFields, dataGroup, dataList, dataPager, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage, shown, text } from "../test/fixture";
import LeadersFilter from "./LeadersFilter";

// The fixture's /fintech-leaders: Indian "example lender" (no founders, so
// the company is the heading) and Harshil Mathur of Razorpay; Global Ada
// Example of Example Wallet (Demo), category BNPL.
const open = async (url = "/fintech-leaders", indianCards = 0) => {
  await loadPage(url);
  if (indianCards) fill("leaders-indian", indianCards);
  await mountIsland("LeadersFilter", LeadersFilter);
};

// fill grows a list to n cards, for paging (the fixture has two Indian
// leaders; a page holds 12): copies of the list's first card, the
// generator's markup, each named "Leader N" of "Company N" in its heading
// and its fields. Run before the island reads the page.
function fill(list: string, n: number) {
  const container = document.querySelector(sel(dataList, list))!;
  const model = container.firstElementChild!;
  for (let i = container.children.length + 1; i <= n; i++) {
    const card = model.cloneNode(true) as HTMLElement;
    const fields = JSON.parse(card.getAttribute(dataFields)!) as Record<string, string>;
    card.setAttribute(dataFields, JSON.stringify({ ...fields, name: `Company ${i}`, person: `Leader ${i}` }));
    card.removeAttribute("id");
    card.querySelector("h3")!.textContent = `Leader ${i}`;
    container.append(card);
  }
}

const leaders = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `Leader ${from + i}`);
const pager = (list: string) => text(sel(dataPager, list));
const search = (q: string) => inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search leaders" }), { target: { value: q } }));
const click = (name: string) => inAct(() => fireEvent.click(screen.getByRole("button", { name })));

describe("LeadersFilter on /fintech-leaders", () => {
  afterEach(resetPage);

  it("shows every leader, with no pager while a list fits on one page", async () => {
    await open();
    expect(shown("leaders-indian")).toEqual(["example lender", "Harshil Mathur"]);
    expect(shown("leaders-global")).toEqual(["Ada Example"]);
    expect([pager("leaders-indian"), pager("leaders-global")]).toEqual(["", ""]);
    expect(screen.getByRole("searchbox", { name: "Search leaders" })).toHaveProperty("placeholder", "Search leaders by name or company...");
  });

  it("searches people, companies and categories across both lists", async () => {
    await open();
    await search("harshil");
    expect(shown("leaders-indian")).toEqual(["Harshil Mathur"]);
    expect(text(sel(dataCount, "leaders-indian"))).toBe("1");
    expect(isHidden(sel(dataGroup, "leaders-global"))).toBe(true);
    expect(window.location.search).toBe("?q=harshil");

    await search("bnpl"); // Example Wallet's category
    expect(isHidden(sel(dataGroup, "leaders-indian"))).toBe(true);
    expect(shown("leaders-global")).toEqual(["Ada Example"]);
    expect(isHidden(sel(dataEmpty, "leaders"))).toBe(true);

    // Two characters: exact matching only, so nothing matches.
    await search("zq");
    expect(isHidden(sel(dataGroup, "leaders-indian")) && isHidden(sel(dataGroup, "leaders-global"))).toBe(true);
    expect(isHidden(sel(dataEmpty, "leaders"))).toBe(false);
    expect(text(sel(dataEmpty, "leaders"))).toContain("No leaders found");
  });

  it("shows 12 per page, with a pager under the list that needs one", async () => {
    await open("/fintech-leaders", 14);
    expect(shown("leaders-indian")).toEqual(["example lender", "Harshil Mathur", ...leaders(3, 12)]);
    expect(pager("leaders-indian")).toContain("Page 1 of 2 - Indian Leaders");
    expect(text(sel(dataCount, "leaders-indian"))).toBe("14");
    expect(shown("leaders-global")).toEqual(["Ada Example"]);
    expect(pager("leaders-global")).toBe("");
  });

  it("pages with Next and Previous, keeping the page in the URL", async () => {
    await open("/fintech-leaders", 14);
    expect(screen.getByRole("button", { name: "Previous" })).toHaveProperty("disabled", true);
    await click("Next");
    expect(shown("leaders-indian")).toEqual(leaders(13, 14));
    expect(pager("leaders-indian")).toContain("Page 2 of 2 - Indian Leaders");
    expect(window.location.search).toBe("?ip=2");
    expect(screen.getByRole("button", { name: "Next" })).toHaveProperty("disabled", true);
    await click("Previous");
    expect(shown("leaders-indian")).toHaveLength(12);
    expect(window.location.search).toBe("");
  });

  it("starts from the page in the URL, clamped to the pages there are", async () => {
    await open("/fintech-leaders?ip=2&gp=5", 14);
    expect(shown("leaders-indian")).toEqual(leaders(13, 14));
    expect(shown("leaders-global")).toEqual(["Ada Example"]);
  });

  it("a new search starts both lists again at page 1", async () => {
    await open("/fintech-leaders?ip=2", 14);
    await search("Leader 1");
    // "Leader 10".."Leader 14": one page, so no pager
    expect(shown("leaders-indian")).toEqual(leaders(10, 14));
    expect(pager("leaders-indian")).toBe("");
    expect(window.location.search).toBe("?q=Leader+1");
    expect(text(sel(dataCount, "leaders-indian"))).toBe("5");
  });
});
