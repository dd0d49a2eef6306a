// The fixture site: the pages the Go generator builds from its own test
// content (generator/testdata/content) with templates/, which
// `make islands-test` writes to islands/.fixture-site before running the
// tests. Tests load those pages instead of hand-written markup, so a
// template change that breaks the data-* contract (lib/contract.ts) between
// the pages and the islands fails them.
import { queryClient } from "../lib/query";
import { act, cleanup, render } from "@testing-library/react";
import type { ComponentType } from "react";
import { vi } from "vitest";
import { setToken } from "../lib/api";
import { removeToaster } from "../lib/toast";
import { dataIsland, dataList, sel } from "../lib/contract";
import { islandProps } from "../runtime/mount";

// Keyed by "/.fixture-site/{path}/index.html"; read only when a test asks.
const pages = import.meta.glob<string>("/.fixture-site/**/*.html", { query: "?raw", import: "default" });

if (Object.keys(pages).length === 0) {
  throw new Error(
    "The fixture site islands/.fixture-site is missing: run `make islands-test` " +
      "(it builds the site from generator/testdata/content, then runs these tests).",
  );
}

// fixturePaths are the site paths of every page of the fixture site
// ("/news", "/payment-body/404.html", "/" for the home page).
export const fixturePaths: string[] = Object.keys(pages)
  .map((f) => f.replace(/^\/\.fixture-site/, "").replace(/\/index\.html$/, ""))
  .map((p) => p || "/")
  .sort();

function fileOf(path: string): string {
  const p = path.replace(/\/$/, "");
  return p.endsWith(".html") ? `/.fixture-site${p}` : `/.fixture-site${p}/index.html`;
}

// loadPage makes the fixture page at url (a site path, with a query when
// the test needs one) the current document: its body (without scripts and
// preload links, which jsdom need not fetch), its title, and its URL.
export async function loadPage(url: string): Promise<void> {
  const { pathname } = new URL(url, "http://fixture.test");
  const load = pages[fileOf(pathname)];
  if (!load) throw new Error(`the fixture site has no page ${pathname} (pages: ${fixturePaths.join(", ")})`);
  const page = new DOMParser().parseFromString(await load(), "text/html");
  for (const el of page.body.querySelectorAll("script, link")) el.remove();
  document.title = page.title;
  document.body.innerHTML = page.body.innerHTML;
  window.history.replaceState(null, "", url);
}

// mountIsland renders Island over the page's placeholder for it
// ([data-island=name]) with the props the generator wrote into its
// data-props, as runtime/mount.ts does, and waits for its effects.
export async function mountIsland<P extends object>(name: string, Island: ComponentType<P>): Promise<HTMLElement> {
  const el = document.querySelector<HTMLElement>(sel(dataIsland, name));
  if (!el) throw new Error(`the page has no ${name} island`);
  const props = islandProps(el) as P;
  el.replaceChildren();
  await act(async () => {
    render(<Island {...props} />, { container: el });
  });
  return el;
}

// resetPage unmounts what the test rendered (so no listener of an earlier
// island stays on the document), forgets every answer the page's query
// cache kept and empties the document.
export function resetPage(): void {
  cleanup();
  queryClient.clear();
  document.body.replaceChildren();
  document.title = "";
  window.history.replaceState(null, "", "/");
}

// resetSignedInPage ends a test of an island that signs in, stubs the
// API or the location and toasts: mocks and stubs undone, signed out,
// the toast region gone, the page reset (resetPage).
export function resetSignedInPage(): void {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setToken(null);
  act(() => removeToaster());
  resetPage();
}

// inAct runs a change (an event, typing) inside act and waits for what it
// starts, e.g. the first search loading fuse.js.
export async function inAct(change: () => unknown): Promise<void> {
  await act(async () => {
    change();
  });
}

// shown lists the heading of each visible card of a data-list, in page
// order: what a reader sees of the list.
export function shown(list: string): string[] {
  const container = document.querySelector<HTMLElement>(sel(dataList, list));
  if (!container) throw new Error(`no list ${list} on the page`);
  if (container.hidden) return [];
  return [...container.children]
    .filter((el) => el instanceof HTMLElement && !el.hidden)
    .map((el) => (el.querySelector("h2, h3")?.textContent ?? "").replace(/\s+/g, " ").trim());
}

// isHidden reports whether the one element matching selector is hidden.
export function isHidden(selector: string): boolean {
  const all = document.querySelectorAll<HTMLElement>(selector);
  if (all.length !== 1) throw new Error(`${all.length} elements match ${selector}, want 1`);
  return all[0].hidden;
}

// text is the text of the one element matching selector, spaces collapsed.
export function text(selector: string): string {
  const all = document.querySelectorAll(selector);
  if (all.length !== 1) throw new Error(`${all.length} elements match ${selector}, want 1`);
  return (all[0].textContent ?? "").replace(/\s+/g, " ").trim();
}
