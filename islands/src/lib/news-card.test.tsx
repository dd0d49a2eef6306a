import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { NewsCard } from "./news-card";

const item = {
  id: "n1", slug: "n1", title: "NPCI changes UPI transaction IDs", excerpt: "", source: "NPCI", category: "Payment Systems",
  region: "India", publishedDate: "2024-03-28", sourceUrl: "https://example.test/", content: "", circular: null, lang: "en",
} as const;

describe("NewsCard", () => {
  afterEach(() => {
    cleanup();
    document.documentElement.lang = "";
  });

  it("names the category and the region as the page does, in English", () => {
    render(<NewsCard n={item} />);
    expect(screen.getByText("Payment Systems")).toBeTruthy();
    expect(document.querySelector("[data-region]")?.textContent).toBe("India");
  });

  it("names them in Hindi on a Hindi page: the region from the catalogue, the category from the page's names", () => {
    document.documentElement.lang = "hi";
    render(<NewsCard n={item} categoryNames={{ "Payment Systems": "भुगतान प्रणालियाँ" }} />);
    expect(screen.getByText("भुगतान प्रणालियाँ")).toBeTruthy();
    expect(document.querySelector("[data-region]")?.textContent).toBe("भारत");
  });
});
