import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, getList, nextPage, setToken } from "./api";
import { getQueryFn, queryClient, queryURL } from "./query";

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

  it("throws '{status}: {body}' with the API's error message for users", async () => {
    const body = JSON.stringify({ error: "invalid query parameter: limit", fields: { limit: "bad" } });
    vi.stubGlobal("fetch", vi.fn(async () => new Response(body, { status: 400 })));
    const err = await getList("/api/x?limit=0").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(`400: ${body}`);
    expect((err as ApiError).serverMessage).toBe("invalid query parameter: limit");
    expect((err as ApiError).fields).toEqual({ limit: "bad" });
  });

  it("uses the status text when the body is empty", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("", { status: 502, statusText: "Bad Gateway" })));
    await expect(getList("/api/x")).rejects.toMatchObject({ message: "502: Bad Gateway", status: 502, serverMessage: undefined });
  });
});

describe("apiRequest", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it("sends credentials, the bearer token when kept, and a JSON body with its type", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response("{}"));
    vi.stubGlobal("fetch", fetch);
    await apiRequest("GET", "/api/a");
    let init = fetch.mock.calls[0][1];
    expect(init.credentials).toBe("include");
    expect(init.headers).toEqual({ Accept: "application/json" });
    expect(init.body).toBeUndefined();
    setToken("tok");
    await apiRequest("POST", "/api/b", { x: 1 });
    init = fetch.mock.calls[1][1];
    expect(init.headers).toEqual({ Accept: "application/json", "Content-Type": "application/json", Authorization: "Bearer tok" });
    expect(init.body).toBe('{"x":1}');
  });

  it("has a mode where a 401 yields null", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response('{"error":"Sign in required"}', { status: 401 })));
    const ctx = { queryKey: ["/api/auth/me"], signal: new AbortController().signal } as never;
    expect(await getQueryFn({ on401: "returnNull" })(ctx)).toBeNull();
    await expect(getQueryFn({ on401: "throw" })(ctx)).rejects.toMatchObject({ status: 401 });
  });
});

describe("query cache", () => {
  it("follows the product's cache rules", () => {
    const q = queryClient.getDefaultOptions().queries!;
    expect([q.staleTime, q.refetchOnWindowFocus, q.refetchInterval, q.retry]).toEqual([Infinity, false, false, false]);
    expect(queryClient.getDefaultOptions().mutations!.retry).toBe(false);
  });

  it("builds the URL from the key", () => {
    expect(queryURL(["/api/circulars"])).toBe("/api/circulars");
    expect(queryURL(["/api/circulars", { source: "RBI", category: "", limit: 5 }])).toBe("/api/circulars?source=RBI&limit=5");
  });
});
