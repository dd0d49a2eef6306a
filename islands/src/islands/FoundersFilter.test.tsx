import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { dataCount, dataEmpty, dataGroup, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage, shown, text } from "../test/fixture";
import FoundersFilter from "./FoundersFilter";

// The fixture's /global-fintech: Indian founders "example lender" (Lending,
// founders unknown) and Razorpay (Payment Processing, Harshil Mathur and
// Shashank Kumar); Global founders "Example Wallet (Demo)" (BNPL, Ada and
// Ben Example).
const lender = "example lender";
const wallet = "Example Wallet (Demo)";

const open = async (url = "/global-fintech") => {
  await loadPage(url);
  await mountIsland("FoundersFilter", FoundersFilter);
};
const search = (q: string) => inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search founders" }), { target: { value: q } }));
const category = () => screen.getByRole("combobox", { name: "Category" });
const groupHidden = (list: string) => isHidden(sel(dataGroup, list));
const emptyShown = () => !isHidden(sel(dataEmpty, "founders"));

describe("FoundersFilter on /global-fintech", () => {
  afterEach(resetPage);

  it("searches company names and founders, not categories", async () => {
    await open();
    expect(shown("founders-indian")).toEqual([lender, "Razorpay"]);
    expect(shown("founders-global")).toEqual([wallet]);

    await search("shashank"); // a founder
    expect(shown("founders-indian")).toEqual(["Razorpay"]);
    expect(groupHidden("founders-global")).toBe(true);
    expect(text(sel(dataCount, "founders-indian"))).toBe("1");
    expect(window.location.search).toBe("?q=shashank");

    await search("wallet"); // a company name
    expect(shown("founders-global")).toEqual([wallet]);
    expect(groupHidden("founders-indian")).toBe(true);
    expect(groupHidden("founders-global")).toBe(false);

    await search("Payment Processing"); // Razorpay's category only
    expect(groupHidden("founders-indian") && groupHidden("founders-global")).toBe(true);
    expect(emptyShown()).toBe(true);
    expect(text(sel(dataEmpty, "founders"))).toContain("No founders found");
  });

  it("filters by category across both groups, and Clear Filters undoes it all", async () => {
    await open();
    const clear = screen.getByRole("button", { name: "Clear Filters" });
    expect(clear).toHaveProperty("disabled", true);
    await inAct(() => fireEvent.change(category(), { target: { value: "Lending" } }));
    expect(shown("founders-indian")).toEqual([lender]);
    expect(groupHidden("founders-global")).toBe(true);
    expect(text(sel(dataCount, "founders-indian"))).toBe("1");
    expect(window.location.search).toBe("?category=Lending");

    await search("wallet");
    expect(emptyShown()).toBe(true);
    expect(groupHidden("founders-indian") && groupHidden("founders-global")).toBe(true);

    await inAct(() => fireEvent.click(clear));
    expect(shown("founders-indian")).toEqual([lender, "Razorpay"]);
    expect(shown("founders-global")).toEqual([wallet]);
    expect(groupHidden("founders-indian") || groupHidden("founders-global")).toBe(false);
    expect(emptyShown()).toBe(false);
    expect(text(sel(dataCount, "founders-indian"))).toBe("2");
    expect(window.location.search).toBe("");
  });

  it("starts from the category in the URL", async () => {
    await open("/global-fintech?category=BNPL");
    expect(category()).toHaveProperty("value", "BNPL");
    expect(groupHidden("founders-indian")).toBe(true);
    expect(shown("founders-global")).toEqual([wallet]);
  });

  it("offers All Categories and the page's six categories", async () => {
    await open();
    const labels = [...category().querySelectorAll("option")].map((o) => o.textContent);
    expect(labels).toEqual(["All Categories", "Payment Processing", "Digital Banking", "BNPL", "Lending", "Wealth Management", "Insurance"]);
  });
});

describe("FoundersFilter in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
    resetPage();
  });

  it("names its controls in the page's language", async () => {
    document.documentElement.lang = "hi";
    await open();
    await inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "संस्थापक खोजें" }), { target: { value: "razorpay" } }));
    expect(shown("founders-indian")).toEqual(["Razorpay"]);
    expect(screen.getByRole("combobox", { name: "श्रेणी" })).toBeTruthy();
    expect(screen.getByRole("option", { name: "सभी श्रेणियाँ" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "फ़िल्टर हटाएँ" })).toBeTruthy();
  });
});
