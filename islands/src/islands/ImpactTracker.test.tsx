import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ImpactTracker from "./ImpactTracker";

// The static page as templates/impact-tracker.html writes it, trimmed to
// what the island reads.
const entity = (type: string, name: string, score: number, band: string) => `
  <article data-entity="${type}" data-fields='{"type":"${type}","name":"${name}"}'>
    <h3>${name}</h3>
    <div data-band="${band}"><span data-score>${score}%</span><progress data-score-bar max="100" value="${score}">${score}%</progress></div>
    <dd data-impact-count="high">1</dd><dd data-impact-count="medium">2</dd><dd data-impact-count="low">3</dd>
  </article>`;
const circular = (number: string, title: string, slug: string) =>
  `<li data-fields='{"circularNumber":"${number}","title":"${title}","id":"id-${slug}","slug":"${slug}"}'>${title}</li>`;
const page = `
  <h2 data-heading="entities">All Entity Types</h2><span data-count="entities">3</span>
  <div data-list="entities">
    ${entity("PSP", "Payment Service Providers", 100, "good")}
    ${entity("Issuer", "Card Issuers", 100, "good")}
    ${entity("Aggregator", "Payment Aggregators", 100, "good")}
  </div>
  <div data-empty="entities" hidden>No entity types found</div>
  <ul data-list="high-circulars">
    ${circular("RBI/2025-26/100", "Payment Aggregators Master Direction", "rbi-2025-09-15-payment-aggregators")}
    ${circular("NPCI/2025-26/OC-215", "P2P collect discontinued", "npci-2025-07-29-p2p-collect")}
  </ul>
  <div data-empty="high-circulars" hidden>No high impact circulars currently active</div>
  <ul data-list="medium-circulars">${circular("", "UPI Lite auto top-up", "npci-2024-08-27-upi-lite")}</ul>
  <div data-empty="medium-circulars" hidden>No medium impact circulars currently active</div>`;

const visible = (list: string) =>
  [...document.querySelectorAll<HTMLElement>(`[data-list="${list}"] > [data-fields]`)].filter((e) => !e.hidden).map((e) => e.textContent!.trim());
const emptyShown = (list: string) => !document.querySelector<HTMLElement>(`[data-empty="${list}"]`)!.hidden;
const heading = () => document.querySelector("[data-heading=entities]")!.textContent;

describe("ImpactTracker", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    document.body.innerHTML = page;
    window.history.replaceState(null, "", "/impact-tracker");
    fetchMock = vi.fn(async () => new Response("<!doctype html>", { status: 404, headers: { "Content-Type": "text/html" } }));
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.innerHTML = "";
  });

  const mount = async () => {
    const host = document.body.appendChild(document.createElement("div"));
    await act(async () => {
      render(<ImpactTracker />, { container: host });
    });
  };
  const type = async (text: string) => {
    await act(async () => {
      fireEvent.change(screen.getByRole("searchbox", { name: "Search entity types or circular IDs" }), { target: { value: text } });
    });
  };

  it("filters entity cards by type and name, and circulars by number, title and slug", async () => {
    await mount();
    expect(heading()).toBe("All Entity Types");
    expect(visible("high-circulars")).toHaveLength(2);

    await type("issuer");
    expect(heading()).toBe('Search Results for "issuer"');
    expect(visible("entities")).toEqual([expect.stringContaining("Card Issuers")]);
    expect(document.querySelector("[data-count=entities]")!.textContent).toBe("1");
    expect(window.location.search).toBe("?q=issuer");

    await type("RBI/2025-26/100"); // a circular number
    expect(visible("high-circulars")).toEqual(["Payment Aggregators Master Direction"]);
    expect(emptyShown("medium-circulars")).toBe(true);
    expect(visible("entities")).toEqual([]);
    expect(emptyShown("entities")).toBe(true);

    await type("npci-2024-08-27"); // a slug
    expect(visible("medium-circulars")).toEqual(["UPI Lite auto top-up"]);
    expect(emptyShown("high-circulars")).toBe(true);

    await type("aggregators"); // a display name and a title
    expect(visible("entities")).toEqual([expect.stringContaining("Payment Aggregators")]);
    expect(visible("high-circulars")).toEqual(["Payment Aggregators Master Direction"]);

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    });
    expect(heading()).toBe("All Entity Types");
    expect(visible("entities")).toHaveLength(3);
    expect(visible("high-circulars")).toHaveLength(2);
    expect(visible("medium-circulars")).toHaveLength(1);
    expect(window.location.search).toBe("");
  });

  it("starts from the URL's search", async () => {
    window.history.replaceState(null, "", "/impact-tracker?q=PSP");
    await mount();
    expect(heading()).toBe('Search Results for "PSP"');
    expect(visible("entities")).toEqual([expect.stringContaining("Payment Service Providers")]);
  });

  it("never asks the API: the page's scores are the generator's", async () => {
    await mount();
    await type("card");
    expect(fetchMock).not.toHaveBeenCalled();
    expect([...document.querySelectorAll("[data-score]")].map((e) => e.textContent)).toEqual(["100%", "100%", "100%"]);
  });
});
