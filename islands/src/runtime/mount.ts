// Finds island placeholders and mounts each with its props. Kept apart from
// loader.ts (which binds the real island modules) so it can be tested with
// fake modules.
import { createElement, startTransition, useLayoutEffect, type ComponentType, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { dataIsland, dataIslandMounted, dataLoad, dataProps, sel } from "../lib/contract";

export type IslandModule = { default: ComponentType<Record<string, unknown>> };
export type IslandImporters = Record<string, () => Promise<IslandModule>>;

export function islandName(path: string): string {
  return path.replace(/^.*\//, "").replace(/\.tsx$/, "");
}

// islandProps are the props the page gives the island at el (its
// data-props JSON; none: {}). It throws on JSON that does not parse.
export function islandProps(el: Element): Record<string, unknown> {
  const raw = el.getAttribute(dataProps);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

// whenToMount resolves when el's island should mount (its data-load, as
// Astro's client:visible and client:idle): "visible" once it comes within
// 200 px of the viewport, "idle" when the browser is idle (or after 2 s),
// anything else at once. Without the browser API it resolves at once.
export function whenToMount(el: Element): Promise<void> {
  const load = el.getAttribute(dataLoad);
  if (load === "visible" && typeof IntersectionObserver === "function") {
    return new Promise((resolve) => {
      const io = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            io.disconnect();
            resolve();
          }
        },
        { rootMargin: "200px" },
      );
      io.observe(el);
    });
  }
  if (load === "idle" && typeof requestIdleCallback === "function") {
    return new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 }));
  }
  return Promise.resolve();
}

// Committed calls done once React has committed its children.
function Committed({ done, children }: { done: () => void; children?: ReactNode }) {
  useLayoutEffect(done, [done]);
  return children;
}

// renderOver renders node into el over el's static fallback, and marks el
// (data-island-mounted) once it is on the page. React clears the fallback
// in the commit that draws the island, so no frame shows neither (CLS).
// The render is a transition: React renders in slices of a few
// milliseconds and gives the main thread back between them, so a large
// island (a dashboard list, a page of card actions) is not one long task
// (Total Blocking Time); a synchronous render of the dashboard's islands
// took 100 to 280 ms on a throttled phone.
function renderOver(el: Element, name: string, node: ReactNode) {
  const root = createRoot(el, { onUncaughtError: (err) => console.error(`island ${name}:`, err) });
  const done = () => el.setAttribute(dataIslandMounted, "");
  startTransition(() => root.render(createElement(Committed, { done }, node)));
}

// mountIslands imports only the islands present in root, once each, and
// renders them over their static fallback, each when whenToMount says. A
// bad island is logged: an unknown name or bad props leave the fallback.
// It resolves with the number of islands given to React (each is marked
// once drawn).
export async function mountIslands(root: ParentNode, importers: IslandImporters): Promise<number> {
  const byName = new Map<string, () => Promise<IslandModule>>();
  for (const [path, load] of Object.entries(importers)) byName.set(islandName(path), load);

  const placeholders = [...root.querySelectorAll<HTMLElement>(sel(dataIsland))];
  const loads = new Map<string, Promise<IslandModule>>();
  let mounted = 0;
  await Promise.all(
    placeholders.map(async (el) => {
      const name = el.getAttribute(dataIsland) ?? "";
      const load = byName.get(name);
      if (!load) {
        console.error(`island ${name}: no such island`);
        return;
      }
      await whenToMount(el);
      if (!loads.has(name)) loads.set(name, load());
      try {
        const mod = await loads.get(name)!;
        const props = islandProps(el);
        renderOver(el, name, createElement(mod.default, props));
        mounted++;
      } catch (err) {
        console.error(`island ${name}:`, err);
      }
    }),
  );
  return mounted;
}
