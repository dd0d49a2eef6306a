import { render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { loadPage, resetPage } from "../test/fixture";
import type { Schemas } from "./api";
import { CircularCard } from "./circular-card";
import template from "../../../templates/_partials/superseded-note.html?raw";

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

  it("marks a Hindi circular's title and preview lang=hi from the API's lang, as circular-card.html does", () => {
    const c = {
      id: "h", slug: "h", title: "डिजिटल भुगतान सुरक्षा", preview: "सभी विनियमित संस्थाएँ", lang: "hi",
      source: "RBI", category: "Security", documentType: "circular", impactLevel: "low", publishedDate: "2021-02-10",
    } as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    const marked = [...container.querySelectorAll("[lang]")].map((e) => `${e.tagName}:${e.getAttribute("lang")}:${e.textContent}`);
    // the title, the preview, and the title Details names for screen readers; the English chrome none
    expect(marked).toEqual(["SPAN:hi:डिजिटल भुगतान सुरक्षा", "P:hi:सभी विनियमित संस्थाएँ", "SPAN:hi:डिजिटल भुगतान सुरक्षा"]);
    const english = render(<CircularCard c={{ ...c, lang: "en", title: "Digital payment security" }} labels={labels} />);
    expect(english.container.querySelector("[lang]")).toBeNull();
  });

  it("marks an English circular lang=en on a Hindi page", () => {
    document.documentElement.lang = "hi";
    try {
      const c = { id: "e", slug: "e", title: "UPI", preview: "All banks", lang: "en", source: "NPCI", category: "UPI", documentType: "circular", impactLevel: "low", publishedDate: "2024-01-02" } as Schemas["Circular"];
      const { container } = render(<CircularCard c={c} labels={labels} />);
      expect(container.querySelector("[data-preview]")!.getAttribute("lang")).toBe("en");
    } finally {
      document.documentElement.lang = "en";
    }
  });

  it("draws no empty preview when the answer has none", () => {
    const c = { id: "x", slug: "x", title: "X", source: "RBI", category: "UPI", documentType: "circular", impactLevel: "low", publishedDate: "2024-01-02" } as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    expect(container.querySelector("[data-preview]")).toBeNull();
  });

  it("names the circulars replacing it, in the template's note (superseded-note.html)", () => {
    const classOf = (tag: string) => new RegExp(`<${tag} class="([^"]+)"`).exec(template)?.[1];
    const c = {
      id: "x", slug: "x", title: "X", source: "RBI", category: "UPI", documentType: "circular", impactLevel: "low", publishedDate: "2024-01-02",
      replacements: [
        { slug: "rbi-2025-01-02-a", circularNumber: "RBI/2024-25/1", title: "A" },
        { slug: "rbi-2025-02-03-b", circularNumber: null, title: "B" },
      ],
    } as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    const note = container.querySelector("[data-superseded]")!;
    expect(note.tagName).toBe("P");
    expect(note.getAttribute("class")).toBe(classOf("p"));
    expect(note.textContent?.replace(/\s+/g, " ").trim()).toBe("Superseded by RBI/2024-25/1 - A, B");
    const links = [...note.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["/circulars/rbi-2025-01-02-a", "/circulars/rbi-2025-02-03-b"]);
    expect(links.every((a) => a.getAttribute("class") === classOf("a"))).toBe(true);
    // before the preview, as on the site's cards
    expect(note.previousElementSibling?.tagName).toBe("H3");
  });

  it("says from when a circular withdrawn without a successor is, as the template's note does", () => {
    const c = {
      id: "x", slug: "x", title: "X", source: "RBI", category: "UPI", documentType: "circular", impactLevel: "low", publishedDate: "2017-07-06",
      supersededBy: [], replacements: [], withdrawnOn: "2025-11-28",
    } as unknown as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    const note = container.querySelector("[data-withdrawn-note]")!;
    expect(note.textContent?.replace(/\s+/g, " ").trim()).toBe("Withdrawn with effect from 28 Nov 2025");
    expect(note.getAttribute("class")).toBe(/<p class="([^"]+)" data-withdrawn-note/.exec(template)?.[1]);
    expect(container.querySelector("[data-superseded]")).toBeNull();
  });

  it("draws no note when nothing replaces it", () => {
    const c = { id: "x", slug: "x", title: "X", source: "RBI", category: "UPI", documentType: "circular", impactLevel: "low", publishedDate: "2024-01-02", replacements: [] } as unknown as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    expect(container.querySelector("[data-superseded]")).toBeNull();
  });
});

describe("CircularCard on a Hindi page", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("writes its words, its date and its links in Hindi", () => {
    document.documentElement.lang = "hi";
    const c = {
      id: "x", slug: "x", title: "Card tokenisation", preview: "All entities", summary: "A summary",
      source: "RBI", category: "Security", documentType: "circular", impactLevel: "high", publishedDate: "2021-09-07",
      withdrawnOn: "2022-01-01",
    } as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    const text = container.textContent ?? "";
    for (const want of ["विवरण", "सारांश", "उच्च प्रभाव", "7 सित॰ 2021", "वापस लिया गया", "1 जन॰ 2022 से प्रभावी"]) expect(text).toContain(want);
    expect(container.querySelector('a[href="/hi/circulars/x"]')).not.toBeNull();
  });

  it("marks its English summary and a replacement's title lang=en, not its labels", () => {
    document.documentElement.lang = "hi";
    const c = {
      id: "x", slug: "x", title: "Card tokenisation", preview: "All entities", summary: "A summary", lang: "en",
      source: "RBI", category: "Security", documentType: "circular", impactLevel: "high", publishedDate: "2021-09-07",
      replacements: [{ slug: "rbi-2025-01-02-a", circularNumber: "RBI/2024-25/1", title: "A newer circular" }],
    } as Schemas["Circular"];
    const { container } = render(<CircularCard c={c} labels={labels} />);
    const english = [...container.querySelectorAll('[lang="en"]')].map((e) => e.textContent?.trim());
    expect(english).toEqual(expect.arrayContaining(["A summary", "RBI/2024-25/1 - A newer circular"]));
    for (const e of english) expect(e).not.toMatch(/[\u0900-\u097F]/);
  });
});

