import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import { dataCount, dataEmpty, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage, shown, text } from "../test/fixture";
import NetworksFilter, { filterLabel, nameFirst, prefill, titleFor } from "./NetworksFilter";

const names = ["American Express", "Mastercard", "UPI (NPCI)", "Visa"];
const pageTitle = "Payment Networks & Card Schemes";

describe("filterLabel", () => {
  it.each([
    ["visa", "Visa"],
    ["american express", "American Express"],
    ["  MASTERCARD ", "Mastercard"],
    ["upi", "UPI"], // the name without its "(NPCI)"
    ["upi (npci)", "UPI (NPCI)"],
    ["diners club", "Diners Club"], // not in the list: capital initials
  ])("%j is %j", (filter, want) => {
    expect(filterLabel(filter, names)).toBe(want);
  });
});

describe("titleFor", () => {
  it("names the filtered network, else keeps the page's title", () => {
    expect(titleFor("american express", names, pageTitle)).toBe("American Express Payment Network");
    expect(titleFor("", names, pageTitle)).toBe(pageTitle);
    expect(titleFor("  ", names, pageTitle)).toBe(pageTitle);
  });
});

describe("titleFor in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("names the filtered network in the page's language", () => {
    document.documentElement.lang = "hi";
    expect(titleFor("american express", names, pageTitle)).toBe("American Express भुगतान नेटवर्क");
  });
});

describe("prefill", () => {
  it("copies the filter into the search, keeping the other parameters", () => {
    expect(prefill("?filter=visa", names)).toBe("?filter=visa&q=Visa");
    expect(prefill("?filter=american%20express&x=1", names)).toBe("?filter=american+express&x=1&q=American+Express");
  });
  it("leaves a URL without a filter, or with a search already, alone", () => {
    expect(prefill("", names)).toBeNull();
    expect(prefill("?filter=", names)).toBeNull();
    expect(prefill("?filter=visa&q=emv", names)).toBeNull();
    expect(prefill("?filter=visa&q=", names)).toBeNull();
  });
});

describe("nameFirst", () => {
  const cards = ["American Express", "Mastercard", "UPI (NPCI)", "Visa"];
  it("puts name matches first, each group in list order", () => {
    expect(nameFirst([0, 1, 3], cards, "visa")).toEqual([3, 0, 1]);
    expect(nameFirst([0, 1, 2, 3], cards, "A")).toEqual([0, 1, 3, 2]);
  });
  it("keeps the order for an empty query or no name match", () => {
    expect(nameFirst([2, 0], cards, " ")).toEqual([2, 0]);
    expect(nameFirst([0, 1], cards, "pci dss")).toEqual([0, 1]);
  });
});

// The fixture's /payment-networks: Mastercard (whose guidelines name PCI
// DSS and Visa), UPI (NPCI) and Visa, in that order.
describe("NetworksFilter on /payment-networks", () => {
  afterEach(resetPage); // unmounts, so an earlier island's click listener is gone

  const open = async (url: string) => {
    await loadPage(url);
    await mountIsland("NetworksFilter", NetworksFilter);
  };
  const searchbox = () => screen.getByRole("searchbox", { name: "Search payment networks" });
  const search = (q: string) => inAct(() => fireEvent.change(searchbox(), { target: { value: q } }));
  const h1 = () => text("main h1");
  const count = () => text(sel(dataCount, "networks"));

  it("with ?filter= renames the page, pre-fills the search and shows the network first", async () => {
    await open("/payment-networks?filter=visa");
    expect(h1()).toBe("Visa Payment Network");
    expect(document.title).toBe("Visa Payment Network · RegPulse");
    expect(searchbox()).toHaveProperty("value", "Visa");
    expect(shown("networks")).toEqual(["Visa", "Mastercard"]);
    expect(count()).toBe("2");
    expect(window.location.search).toBe("?filter=visa&q=Visa");

    // searching for something else leaves the filtered page
    await search("upi");
    expect(h1()).toBe(pageTitle);
    expect(document.title).toBe(`${pageTitle} · RegPulse`);
    expect(window.location.search).toBe("?q=upi");
    expect(shown("networks")).toEqual(["UPI (NPCI)"]);
    expect(count()).toBe("1");
  });

  it("names a filtered network as the page's own list spells it", async () => {
    await open("/payment-networks?filter=upi");
    expect(h1()).toBe("UPI Payment Network");
    expect(shown("networks")).toEqual(["UPI (NPCI)"]);
  });

  it("without a filter keeps the page's title and puts name matches first", async () => {
    await open("/payment-networks?q=visa");
    expect(h1()).toBe(pageTitle);
    expect(document.title).toBe(`${pageTitle} · RegPulse`);
    expect(shown("networks")).toEqual(["Visa", "Mastercard"]); // Mastercard only mentions Visa
  });

  it("a quick-reference link sets the search instead of navigating", async () => {
    await open("/payment-networks");
    expect(shown("networks")).toEqual(["Mastercard", "UPI (NPCI)", "Visa"]);
    const link = screen.getByRole("link", { name: "PCI DSS" });
    let prevented = false;
    await inAct(() => {
      prevented = !fireEvent.click(link);
    });
    expect(prevented).toBe(true);
    expect(searchbox()).toHaveProperty("value", "PCI DSS");
    expect(window.location.search).toBe("?q=PCI+DSS");
    expect(shown("networks")).toEqual(["Mastercard"]);
    expect(link.getAttribute("aria-current")).toBe("true");

    // a quick search nothing matches: the empty state
    const jcb = screen.getByRole("link", { name: "JCB" });
    await inAct(() => fireEvent.click(jcb));
    expect(shown("networks")).toEqual([]);
    expect(count()).toBe("0");
    expect(isHidden(sel(dataEmpty, "networks"))).toBe(false);
    expect(text(sel(dataEmpty, "networks"))).toContain("No payment networks found");
    expect([link.getAttribute("aria-current"), jcb.getAttribute("aria-current")]).toEqual([null, "true"]);

    // a modified click is left to the browser (e.g. a new tab); the window
    // listener sees it untouched, then stops jsdom's navigation
    let leftAlone = false;
    const stop = (e: MouseEvent) => {
      leftAlone = !e.defaultPrevented;
      e.preventDefault();
    };
    window.addEventListener("click", stop);
    fireEvent.click(link, { ctrlKey: true });
    window.removeEventListener("click", stop);
    expect(leftAlone).toBe(true);
    expect(searchbox()).toHaveProperty("value", "JCB");
  });
});
