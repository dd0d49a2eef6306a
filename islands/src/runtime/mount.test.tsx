import { afterEach, describe, expect, it, vi } from "vitest";
import { act } from "react";
import { islandName, mountIslands, type IslandModule } from "./mount";

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

  it("names islands by file", () => {
    expect(islandName("../islands/NewsFilter.tsx")).toBe("NewsFilter");
  });
});
