import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { dataEmpty, sel } from "../lib/contract";
import { inAct, isHidden, loadPage, mountIsland, resetPage, shown, text } from "../test/fixture";
import RegulationsFilter from "./RegulationsFilter";

// The fixture's /pii-regulations: an Indian draft bill and the EU's GDPR
// (active), in that order.
const bill = "Example Personal Data Bill";
const gdpr = "General Data Protection Regulation (GDPR)";

const open = async (url = "/pii-regulations") => {
  await loadPage(url);
  await mountIsland("RegulationsFilter", RegulationsFilter);
};
const search = (q: string) => inAct(() => fireEvent.change(screen.getByRole("searchbox", { name: "Search regulations" }), { target: { value: q } }));
const choose = (name: string, value: string) => inAct(() => fireEvent.change(screen.getByRole("combobox", { name }), { target: { value } }));
const optionLabels = (name: string) => [...screen.getByRole("combobox", { name }).querySelectorAll("option")].map((o) => o.textContent);
const clear = () => screen.getByRole("button", { name: "Clear Filters" });
const empty = sel(dataEmpty, "regulations");
const emptyShown = () => !isHidden(empty);

describe("RegulationsFilter on /pii-regulations", () => {
  afterEach(resetPage);

  it("shows every regulation and offers the page's countries and statuses", async () => {
    await open();
    expect(shown("regulations")).toEqual([bill, gdpr]);
    expect(emptyShown()).toBe(false);
    expect(clear()).toHaveProperty("disabled", true);
    expect(screen.getByRole("searchbox", { name: "Search regulations" })).toHaveProperty("placeholder", "Search regulations...");
    expect(optionLabels("Country")).toEqual(["All Countries", "European Union", "India", "Canada", "United States", "Australia"]);
    expect(optionLabels("Status")).toEqual(["All Statuses", "Active", "Draft", "Proposed"]);
  });

  it("searches names, descriptions and countries, keeping the search in the URL", async () => {
    await open();
    await search("protection"); // GDPR's name
    expect(shown("regulations")).toEqual([gdpr]);
    expect(window.location.search).toBe("?q=protection");
    await search("made-up"); // the bill's description
    expect(shown("regulations")).toEqual([bill]);
    await search("european union"); // GDPR's country, not in its name or description
    expect(shown("regulations")).toEqual([gdpr]);
    expect(clear()).toHaveProperty("disabled", false);
    await search("");
    expect(shown("regulations")).toEqual([bill, gdpr]);
    expect(window.location.search).toBe("");
  });

  it("filters by country and status, shows 'No regulations found' when nothing is left, and Clear Filters undoes it all", async () => {
    await open();
    await choose("Country", "India");
    expect(shown("regulations")).toEqual([bill]);
    expect(window.location.search).toBe("?country=India");
    await choose("Status", "active");
    expect(shown("regulations")).toEqual([]);
    expect(emptyShown()).toBe(true);
    expect(text(empty)).toContain("No regulations found");
    expect(window.location.search).toBe("?country=India&status=active");

    await inAct(() => fireEvent.click(clear()));
    expect(shown("regulations")).toEqual([bill, gdpr]);
    expect(emptyShown()).toBe(false);
    expect(window.location.search).toBe("");
    expect(screen.getByRole("combobox", { name: "Country" })).toHaveProperty("value", "all");
    expect(screen.getByRole("combobox", { name: "Status" })).toHaveProperty("value", "all");
    expect(clear()).toHaveProperty("disabled", true);
  });

  it("starts from the filters in the URL", async () => {
    await open("/pii-regulations?status=draft&q=bill");
    expect(shown("regulations")).toEqual([bill]);
    expect(screen.getByRole("searchbox", { name: "Search regulations" })).toHaveProperty("value", "bill");
    expect(screen.getByRole("combobox", { name: "Status" })).toHaveProperty("value", "draft");
    await choose("Status", "all");
    expect(window.location.search).toBe("?q=bill");
  });
});
