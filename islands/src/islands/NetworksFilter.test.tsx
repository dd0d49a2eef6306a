import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
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

describe("NetworksFilter", () => {
  const card = (name: string, description: string, guidelines: string[]) =>
    `<article data-fields='${JSON.stringify({ name, description, guidelines })}'><h2>${name}</h2></article>`;

  beforeEach(() => {
    document.title = `${pageTitle} · RegPulse`;
    document.body.innerHTML = `
      <main>
        <h1>${pageTitle}</h1>
        <div id="island"></div>
        <a href="/payment-networks?q=PCI%20DSS" data-quick-search="PCI DSS">PCI DSS</a>
        <span data-count="networks">4</span>
        <div data-list="networks">
          ${card("American Express", "Charge cards.", ["Network choice: Visa and others"])}
          ${card("Mastercard", "Card network.", ["PCI DSS applies"])}
          ${card("UPI (NPCI)", "Instant payments.", ["Lite limits"])}
          ${card("Visa", "Four-party network.", ["PCI DSS applies"])}
        </div>
        <p data-empty="networks" hidden>No payment networks found</p>
      </main>`;
  });
  afterEach(() => {
    cleanup(); // unmount, so an earlier island's click listener is gone
    document.body.innerHTML = "";
    window.history.replaceState(null, "", "/");
  });

  const mount = () => render(<NetworksFilter title={pageTitle} names={names} />, { container: document.getElementById("island")! });
  const shown = () =>
    [...document.querySelectorAll<HTMLElement>("[data-list=networks] > article")].filter((e) => !e.hidden).map((e) => e.textContent);

  it("with ?filter= renames the page, pre-fills the search and shows the network first", () => {
    window.history.replaceState(null, "", "/payment-networks?filter=visa");
    mount();
    expect(document.querySelector("h1")!.textContent).toBe("Visa Payment Network");
    expect(document.title).toBe("Visa Payment Network · RegPulse");
    expect(screen.getByRole("searchbox")).toHaveProperty("value", "Visa");
    expect(shown()).toEqual(["Visa", "American Express"]);
    expect(document.querySelector("[data-count=networks]")!.textContent).toBe("2");
    expect(window.location.search).toBe("?filter=visa&q=Visa");

    // searching for something else leaves the filtered page
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "upi" } });
    expect(document.querySelector("h1")!.textContent).toBe(pageTitle);
    expect(document.title).toBe(`${pageTitle} · RegPulse`);
    expect(window.location.search).toBe("?q=upi");
    expect(shown()).toEqual(["UPI (NPCI)"]);
  });

  it("without a filter keeps the page's title", () => {
    window.history.replaceState(null, "", "/payment-networks?q=card");
    mount();
    expect(document.querySelector("h1")!.textContent).toBe(pageTitle);
    expect(document.title).toBe(`${pageTitle} · RegPulse`);
    expect(shown()).toEqual(["Mastercard", "American Express"]); // the name match first
  });

  it("a quick-reference link sets the search instead of navigating", () => {
    window.history.replaceState(null, "", "/payment-networks");
    mount();
    const link = screen.getByRole("link", { name: "PCI DSS" });
    let prevented = false;
    act(() => {
      prevented = !fireEvent.click(link);
    });
    expect(prevented).toBe(true);
    expect(screen.getByRole("searchbox")).toHaveProperty("value", "PCI DSS");
    expect(window.location.search).toBe("?q=PCI+DSS");
    expect(shown()).toEqual(["Mastercard", "Visa"]);
    expect(link.getAttribute("aria-current")).toBe("true");

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
  });
});
