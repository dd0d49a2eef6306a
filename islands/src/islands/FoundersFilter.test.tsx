import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import FoundersFilter from "./FoundersFilter";

function page() {
  const card = (name: string, founder: string, category: string) =>
    `<article data-fields='${JSON.stringify({ name, founder, category })}'>${name}</article>`;
  document.body.innerHTML = `
    <div id="island"></div>
    <section data-group="founders-indian"><span data-count="founders-indian">2</span><div data-list="founders-indian">
      ${card("Razorpay", "Harshil Mathur, Shashank Kumar", "Payment Processing")}${card("Groww", "Lalit Keshre", "Wealth Management")}
    </div></section>
    <section data-group="founders-global"><span data-count="founders-global">2</span><div data-list="founders-global">
      ${card("Klarna", "Sebastian Siemiatkowski", "BNPL")}${card("Stripe", "Patrick Collison, John Collison", "Payment Processing")}
    </div></section>
    <div data-empty="founders" hidden>No founders found</div>`;
  return document.getElementById("island")!;
}

const shown = () => [...document.querySelectorAll<HTMLElement>("[data-list] > article")].filter((e) => !e.hidden).map((e) => e.textContent);
const hidden = (sel: string) => document.querySelector<HTMLElement>(sel)!.hidden;
const categories = ["Payment Processing", "Digital Banking", "BNPL", "Lending", "Wealth Management", "Insurance"];

describe("FoundersFilter", () => {
  beforeEach(() => window.history.replaceState(null, "", "/global-fintech"));
  afterEach(() => {
    cleanup();
    document.body.innerHTML = "";
  });

  it("searches company names and founders, not categories", () => {
    render(<FoundersFilter categories={categories} />, { container: page() });
    fireEvent.change(screen.getByRole("searchbox", { name: "Search founders" }), { target: { value: "collison" } });
    expect(shown()).toEqual(["Stripe"]);
    expect(hidden("[data-group=founders-indian]")).toBe(true);
    expect(document.querySelector("[data-count=founders-global]")!.textContent).toBe("1");
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "Gro" } });
    expect(shown()).toEqual(["Groww"]);
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "BNPL" } });
    expect(shown()).toEqual([]);
  });

  it("filters by category across both groups, and Clear Filters undoes it all", () => {
    render(<FoundersFilter categories={categories} />, { container: page() });
    const clear = screen.getByRole("button", { name: "Clear Filters" });
    expect(clear).toHaveProperty("disabled", true);
    fireEvent.change(screen.getByRole("combobox", { name: "Category" }), { target: { value: "Payment Processing" } });
    expect(shown()).toEqual(["Razorpay", "Stripe"]);
    expect(window.location.search).toBe("?category=Payment+Processing");
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "klarna" } });
    expect(shown()).toEqual([]);
    expect(hidden("[data-empty=founders]")).toBe(false);
    expect(hidden("[data-group=founders-indian]") && hidden("[data-group=founders-global]")).toBe(true);
    fireEvent.click(clear);
    expect(shown()).toEqual(["Razorpay", "Groww", "Klarna", "Stripe"]);
    expect(hidden("[data-empty=founders]")).toBe(true);
    expect(window.location.search).toBe("");
  });

  it("offers All Categories and the six SPEC categories", () => {
    render(<FoundersFilter categories={categories} />, { container: page() });
    const labels = [...screen.getByRole("combobox", { name: "Category" }).querySelectorAll("option")].map((o) => o.textContent);
    expect(labels).toEqual(["All Categories", ...categories]);
  });
});
