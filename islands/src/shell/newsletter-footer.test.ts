import { act, waitFor } from "@testing-library/react";
import type { Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { dataIslandMounted, dataNewsletterFooter, dataNewsletterSrc, sel } from "../lib/contract";
import { removeToaster } from "../lib/toast";
import { loadPage, resetPage } from "../test/fixture";
import { initNewsletterFooter } from "./newsletter-footer";
import { mountFooter } from "./newsletter-footer-island";

const footer = () => document.querySelector<HTMLElement>(sel(dataNewsletterFooter))!;
const added = () => [...document.head.querySelectorAll<HTMLScriptElement>("script[type=module]")].map((s) => s.getAttribute("src"));

describe("the footer's newsletter form", () => {
  let root: Root | undefined;
  afterEach(() => {
    // nothing the island started may outlive the test's document
    act(() => {
      root?.unmount();
      removeToaster();
    });
    root = undefined;
    document.head.querySelectorAll("script").forEach((s) => s.remove());
    resetPage();
  });

  it("loads the footer's entry only when the reader reaches for the form, once", async () => {
    await loadPage("/news");
    initNewsletterFooter(document);
    const src = footer().getAttribute(dataNewsletterSrc);
    expect(src).toMatch(/^\/assets\/newsletterFooter-[^/]+\.js$/);
    expect(added()).toEqual([]);
    footer().querySelector("input")!.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    footer().dispatchEvent(new Event("pointerenter"));
    expect(added()).toEqual([src]);
  });

  it("mounts the island over the plain form, keeping the address typed", { timeout: 60_000 }, async () => {
    await loadPage("/news");
    footer().querySelector<HTMLInputElement>("input[type=email]")!.value = "typed@example.com";
    root = mountFooter(document);
    expect(footer().hasAttribute(dataIslandMounted)).toBe(true);
    await waitFor(() => expect(footer().querySelector<HTMLInputElement>("input[type=email]")?.value).toBe("typed@example.com"), { timeout: 20_000 });
    expect(footer().querySelector("input[name=source]")).toBeNull(); // the island's form, not the plain one
  });

  it("draws the island in the task that takes the plain form away, its field focused", { timeout: 60_000 }, async () => {
    await loadPage("/news");
    const plain = footer().querySelector<HTMLInputElement>("input[type=email]")!;
    plain.value = "typ";
    plain.focus();
    root = mountFooter(document);
    // no await: a key typed next must find the island's field, focused
    const field = footer().querySelector<HTMLInputElement>("input[type=email]");
    expect(field).not.toBeNull();
    expect(field).not.toBe(plain);
    expect(field!.value).toBe("typ");
    expect(document.activeElement).toBe(field);
  });
});
