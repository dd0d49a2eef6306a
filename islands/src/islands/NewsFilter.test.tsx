import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import NewsFilter from "./NewsFilter";

// templates/news.html, trimmed to what the island reads.
const card = (title: string, category: string, day: string) =>
  `<article data-fields='{"title":"${title}","excerpt":"About ${title}.","category":"${category}"}'><span data-age="${day}"></span>${title}</article>`;
const page = `
  <div data-news-top><article><span data-age="2025-11-13"></span>top card</article></div>
  <section data-news-results>
    <h2 data-news-heading>All news (3 articles)</h2>
    <div data-list="news">
      ${card("DPDP Rules notified", "Regulations", "2025-11-13")}
      ${card("UPI collect requests end", "Payment Systems", "2025-07-29")}
      ${card("Digital rupee pilot", "CBDC", "2022-11-29")}
    </div>
  </section>
  <div data-empty="news" hidden>No news articles found</div>`;

const shown = (sel: string) => !document.querySelector<HTMLElement>(sel)!.hidden;
const titles = () =>
  [...document.querySelectorAll<HTMLElement>("[data-list=news] > article")].filter((e) => !e.hidden).map((e) => e.textContent!.replace(/^\d+ (hours?|days?) ago/, ""));

describe("NewsFilter", () => {
  beforeEach(() => {
    document.body.innerHTML = page;
    window.history.replaceState(null, "", "/news");
  });
  afterEach(() => (document.body.innerHTML = ""));

  const mount = async () => {
    const host = document.body.appendChild(document.createElement("div"));
    await act(async () => {
      render(<NewsFilter categories={["Payment Systems", "CBDC", "Sandbox", "Digital Banking", "Regulations"]} />, { container: host });
    });
  };

  it("shows the top blocks unfiltered and fills every relative age", async () => {
    await mount();
    expect(shown("[data-news-top]")).toBe(true);
    expect(shown("[data-news-results]")).toBe(false);
    for (const el of document.querySelectorAll("[data-age]")) expect(el.textContent).toMatch(/^\d+ (hours?|days?) ago$/);
  });

  it("switches to the results list for a search or a category, and back on Clear Filters", async () => {
    await mount();
    await act(async () => {
      fireEvent.change(screen.getByRole("searchbox", { name: "Search news" }), { target: { value: "upi" } });
    });
    expect(shown("[data-news-top]")).toBe(false);
    expect(titles()).toEqual(["UPI collect requests end"]);
    expect(document.querySelector("[data-news-heading]")!.textContent).toBe("Search Results (1 article)");

    await act(async () => {
      fireEvent.change(screen.getByRole("searchbox", { name: "Search news" }), { target: { value: "" } });
      fireEvent.change(screen.getByRole("combobox", { name: "Category" }), { target: { value: "CBDC" } });
    });
    expect(titles()).toEqual(["Digital rupee pilot"]);
    expect(window.location.search).toBe("?category=CBDC");

    await act(async () => {
      fireEvent.change(screen.getByRole("searchbox", { name: "Search news" }), { target: { value: "regulations" } });
    });
    expect(titles()).toEqual([]);
    expect(shown("[data-empty=news]")).toBe(true);
    expect(document.querySelector("[data-news-heading]")!.textContent).toBe("Search Results (0 articles)");

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Clear Filters" }));
    });
    expect(shown("[data-news-top]")).toBe(true);
    expect(shown("[data-news-results]")).toBe(false);
    expect(shown("[data-empty=news]")).toBe(false);
    expect(window.location.search).toBe("");
  });
});
