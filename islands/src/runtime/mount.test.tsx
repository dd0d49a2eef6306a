import { afterEach, describe, expect, it, vi } from "vitest";
import { act } from "@testing-library/react";
import { dataIsland, dataIslandMounted, dataProps, sel } from "../lib/contract";
import { fixturePaths, loadPage, resetPage } from "../test/fixture";
import { islandName, islandProps, mountIslands, whenToMount, type IslandModule, type IslandImporters } from "./mount";

function Hello(props: Record<string, unknown>) {
  return <p>hello {String(props.name)}</p>;
}

describe("mountIslands", () => {
  afterEach(() => {
    document.body.innerHTML = "";
    vi.restoreAllMocks();
  });

  it("imports only the islands on the page, once each, with their props", async () => {
    document.body.innerHTML = `
      <div data-island="Hello" data-props='{"name":"RBI"}'><p>static</p></div>
      <div data-island="Hello" data-props='{"name":"NPCI"}'></div>`;
    const hello = vi.fn(async (): Promise<IslandModule> => ({ default: Hello }));
    const other = vi.fn(async (): Promise<IslandModule> => ({ default: Hello }));
    let n = 0;
    await act(async () => {
      n = await mountIslands(document, { "../islands/Hello.tsx": hello, "../islands/Other.tsx": other });
    });
    expect(n).toBe(2);
    expect(hello).toHaveBeenCalledTimes(1);
    expect(other).not.toHaveBeenCalled();
    expect(document.body.textContent).toContain("hello RBI");
    expect(document.body.textContent).toContain("hello NPCI");
    expect(document.body.textContent).not.toContain("static");
  });

  it("replaces the fallback in the same task that draws the island (no empty frame: CLS)", async () => {
    document.body.innerHTML = `<div data-island="Hello" data-props='{"name":"RBI"}'><p>static</p></div>`;
    const el = document.querySelector(sel(dataIsland))!;
    // Each observer callback sees the changes of one task and its
    // microtasks: the first must already hold the island's nodes.
    const batches: string[] = [];
    const seen = new MutationObserver(() => batches.push(el.textContent ?? ""));
    seen.observe(el, { childList: true, subtree: true, characterData: true });
    await act(async () => {
      await mountIslands(document, { "../islands/Hello.tsx": async () => ({ default: Hello }) });
    });
    seen.disconnect();
    expect(batches.length).toBeGreaterThan(0);
    expect(batches[0]).toBe("hello RBI");
    expect(el.hasAttribute(dataIslandMounted)).toBe(true);
  });

  it("renders in a transition, marking the island only once it is drawn", async () => {
    document.body.innerHTML = `<div data-island="Hello" data-props='{"name":"RBI"}'><p>static</p></div>`;
    const el = document.querySelector(sel(dataIsland))!;
    let slices = 0;
    // A transition's render is not flushed with the microtasks of the
    // mount: the page keeps its fallback (and its main thread) meanwhile.
    await mountIslands(document, { "../islands/Hello.tsx": async () => ({ default: Hello }) });
    expect(el.textContent).toBe("static");
    expect(el.hasAttribute(dataIslandMounted)).toBe(false);
    await vi.waitFor(() => {
      slices++;
      expect(el.hasAttribute(dataIslandMounted)).toBe(true);
    });
    expect(el.textContent).toBe("hello RBI");
    expect(slices).toBeGreaterThan(0);
  });

  it("logs an island that throws while rendering, and does not mark it", async () => {
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    document.body.innerHTML = `<div data-island="Boom"><p>static</p></div>`;
    const el = document.querySelector(sel(dataIsland))!;
    const Boom = () => {
      throw new Error("bad data");
    };
    await mountIslands(document, { "../islands/Boom.tsx": async () => ({ default: Boom }) });
    await vi.waitFor(() => expect(err).toHaveBeenCalledWith("island Boom:", expect.objectContaining({ message: "bad data" })));
    expect(el.hasAttribute(dataIslandMounted)).toBe(false);
  });

  it("keeps the static fallback when an island is unknown or its props are bad", async () => {
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    document.body.innerHTML = `
      <div data-island="Missing"><p>fallback one</p></div>
      <div data-island="Hello" data-props='{bad'><p>fallback two</p></div>`;
    let n = -1;
    await act(async () => {
      n = await mountIslands(document, { "../islands/Hello.tsx": async () => ({ default: Hello }) });
    });
    expect(n).toBe(0);
    expect(document.body.textContent).toContain("fallback one");
    expect(document.body.textContent).toContain("fallback two");
    expect(err).toHaveBeenCalledTimes(2);
  });

  it("mounts a data-load=visible island only once it nears the viewport", async () => {
    let notify: (entries: { isIntersecting: boolean }[]) => void = () => {};
    const observed: Element[] = [];
    vi.stubGlobal("IntersectionObserver", class {
      constructor(cb: typeof notify) { notify = cb; }
      observe(el: Element) { observed.push(el); }
      disconnect() {}
    });
    document.body.innerHTML = `<div data-island="Hello" data-load="visible" data-props='{"name":"late"}'><p>static</p></div>`;
    const hello = vi.fn(async (): Promise<IslandModule> => ({ default: Hello }));
    let done = false;
    const mounting = mountIslands(document, { "../islands/Hello.tsx": hello }).then(() => (done = true));
    await act(async () => {});
    expect(observed).toHaveLength(1);
    expect(hello).not.toHaveBeenCalled();
    expect(done).toBe(false);
    notify([{ isIntersecting: false }]);
    await act(async () => {});
    expect(hello).not.toHaveBeenCalled();
    await act(async () => {
      notify([{ isIntersecting: true }]);
      await mounting;
    });
    expect(document.body.textContent).toContain("hello late");
    vi.unstubAllGlobals();
  });

  it("mounts a data-load=idle island when the browser is idle", async () => {
    let idle: () => void = () => {};
    vi.stubGlobal("requestIdleCallback", (cb: () => void) => { idle = cb; return 1; });
    const el = document.createElement("div");
    el.setAttribute("data-load", "idle");
    let resolved = false;
    const p = whenToMount(el).then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    idle();
    await p;
    expect(resolved).toBe(true);
    // no data-load: at once
    await expect(whenToMount(document.createElement("div"))).resolves.toBeUndefined();
    vi.unstubAllGlobals();
  });

  it("names islands by file", () => {
    expect(islandName("../islands/NewsFilter.tsx")).toBe("NewsFilter");
  });
});

// Every page of the fixture site that places islands: the loader finds each
// placeholder, names an island of islands/src/islands (the files loader.ts
// globs), and hands it the props the generator wrote. Fake modules stand in
// for the islands, recording their props.
describe("mountIslands on the fixture site", () => {
  afterEach(() => {
    resetPage();
    vi.restoreAllMocks();
  });

  const files = Object.keys(import.meta.glob(["../islands/*.tsx", "!../islands/*.test.tsx"]));

  it("mounts every island a page places, with its data-props", async () => {
    const err = vi.spyOn(console, "error");
    const placed: string[] = [];
    for (const path of fixturePaths) {
      await loadPage(path);
      const placeholders = [...document.querySelectorAll<HTMLElement>(sel(dataIsland))];
      if (placeholders.length === 0) continue;
      const want = placeholders.map((el) => ({ name: el.getAttribute(dataIsland), props: JSON.parse(el.getAttribute(dataProps) ?? "") as unknown }));
      const got: { name: string; props: unknown }[] = [];
      const importers: IslandImporters = Object.fromEntries(
        files.map((f) => [f, async () => ({ default: (props: Record<string, unknown>) => (got.push({ name: islandName(f), props }), null) })]),
      );
      let n = 0;
      await act(async () => {
        n = await mountIslands(document, importers);
      });
      expect(n, path).toBe(placeholders.length);
      expect(got, path).toEqual(want);
      for (const el of placeholders) expect(el.hasAttribute(dataIslandMounted), path).toBe(true);
      placed.push(...want.map((w) => `${path}:${w.name}`));
    }
    expect(err).not.toHaveBeenCalled();
    // the directory pages, the impact tracker and the bodies' pages
    expect(placed).toContain("/pii-regulations:RegulationsFilter");
    expect(placed).toContain("/payment-body/rbi:BodyCirculars");
    expect(placed.length).toBeGreaterThanOrEqual(10);
  });

  it("islandProps reads a placeholder's props, {} without any", () => {
    document.body.innerHTML = `<div data-island="A" data-props='{"x":[1]}'></div><div data-island="B"></div>`;
    const [a, b] = document.querySelectorAll(sel(dataIsland));
    expect([islandProps(a), islandProps(b)]).toEqual([{ x: [1] }, {}]);
  });
});
