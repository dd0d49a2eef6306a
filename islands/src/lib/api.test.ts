import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, getList, nextPage } from "./api";

describe("nextPage", () => {
  it.each([
    [null, null],
    ["", null],
    ['</api/circulars?limit=2&offset=2>; rel="next"', "/api/circulars?limit=2&offset=2"],
    ['</a>; rel="prev", </b>; rel="next"', "/b"],
    ["</b>; rel=next", "/b"],
    ['</b>; title="x"; rel="next last"', "/b"],
    ['</a>; rel="prev"', null],
    ['</a>; rel="nextish"', null],
  ])("%j", (link, want) => {
    expect(nextPage(link)).toBe(want);
  });
});

describe("getList", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("follows rel=next until the last page", async () => {
    const pages: Record<string, [number[], string | null]> = {
      "/api/x?limit=2": [[1, 2], '</api/x?limit=2&offset=2>; rel="next"'],
      "/api/x?limit=2&offset=2": [[3, 4], '</api/x?limit=2&offset=4>; rel="next"'],
      "/api/x?limit=2&offset=4": [[5], null],
    };
    const fetch = vi.fn(async (url: string) => {
      const [body, link] = pages[url];
      return new Response(JSON.stringify(body), { headers: link ? { Link: link } : {} });
    });
    vi.stubGlobal("fetch", fetch);
    expect(await getList<number>("/api/x?limit=2")).toEqual([1, 2, 3, 4, 5]);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("throws the API's error message", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ error: "invalid query parameter: limit" }), { status: 400 })));
    await expect(getList("/api/x?limit=0")).rejects.toEqual(new ApiError("invalid query parameter: limit", 400));
  });
});
