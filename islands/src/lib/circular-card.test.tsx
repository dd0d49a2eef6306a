import { render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { loadPage, resetPage } from "../test/fixture";
import type { Schemas } from "./api";
import { CircularCard } from "./circular-card";

const labels = { documentTypes: { circular: "Circular" }, verifications: {} };
const slug = "rbi-2021-09-07-tokenisation";

describe("CircularCard", () => {
  afterEach(resetPage);

  it("shows the API's preview as the pre-rendered card does (same element and classes)", async () => {
    await loadPage("/circulars");
    const card = document.querySelector(`[data-circular="${slug}"]`)!;
    const staticPreview = card.querySelector("[data-preview]")!;
    expect(staticPreview.textContent?.length).toBeGreaterThan(20);
    const c = {
      id: slug,
      slug,
      title: card.querySelector("h3 a")!.textContent,
      preview: staticPreview.textContent,
      source: "RBI",
      category: "Security",
      documentType: "circular",
      impactLevel: "high",
      publishedDate: "2021-09-07",
    } as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    const drawn = container.querySelector("[data-preview]")!;
    expect(drawn.outerHTML).toBe(staticPreview.outerHTML);
  });

  it("draws no empty preview when the answer has none", () => {
    const c = { id: "x", slug: "x", title: "X", source: "RBI", category: "UPI", documentType: "circular", impactLevel: "low", publishedDate: "2024-01-02" } as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    expect(container.querySelector("[data-preview]")).toBeNull();
  });
});
