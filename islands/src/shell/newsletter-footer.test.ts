import { waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { dataIslandMounted, dataNewsletterFooter, sel } from "../lib/contract";
import { loadPage, resetPage } from "../test/fixture";
import { initNewsletterFooter } from "./newsletter-footer";

describe("initNewsletterFooter", () => {
  afterEach(() => resetPage());

  it("leaves the plain form until the reader reaches for it, then mounts the island keeping the address", { timeout: 60_000 }, async () => {
    await loadPage("/news");
    initNewsletterFooter(document);
    const footer = document.querySelector<HTMLElement>(sel(dataNewsletterFooter))!;
    const input = footer.querySelector<HTMLInputElement>("input[type=email]")!;
    await new Promise((r) => setTimeout(r, 20));
    expect(footer.hasAttribute(dataIslandMounted)).toBe(false);
    input.value = "typed@example.com";
    input.focus();
    await waitFor(() => expect(footer.hasAttribute(dataIslandMounted)).toBe(true), { timeout: 20_000 });
    await waitFor(() => expect(footer.querySelector<HTMLInputElement>("input[type=email]")?.value).toBe("typed@example.com"), { timeout: 20_000 });
    expect(footer.querySelector("input[name=source]")).toBeNull(); // the island's form, not the plain one
  });
});
