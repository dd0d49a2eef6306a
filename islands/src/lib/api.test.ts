import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiQuery, apiRequest, apiURL, call, listAll, setToken } from "./api";
import { queryClient } from "./query";

describe("apiURL", () => {
  it.each([
    ["/circulars", {}, "/api/circulars"],
    ["/circulars", { query: { source: "RBI", category: "", limit: 5, offset: undefined, x: null } }, "/api/circulars?source=RBI&limit=5"],
    ["/search", { query: { q: "card data & more" } }, "/api/search?q=card+data+%26+more"],
    ["/circulars/{id}/summarize", { path: { id: "a/b c" } }, "/api/circulars/a%2Fb%20c/summarize"],
  ])("%s %j", (path, params, want) => {
    expect(apiURL(path, params)).toBe(want);
  });
});

describe("call", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the operation's parameters and body, and answers the data with the response", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response('{"status":"subscribed","message":"Thanks"}', { status: 201 }));
    vi.stubGlobal("fetch", fetch);
    const { data, response } = await call("post", "/newsletter/subscribe", { body: { email: "a@example.org" } });
    expect(data).toEqual({ status: "subscribed", message: "Thanks" });
    expect(response.status).toBe(201);
    expect(fetch.mock.calls[0][0]).toBe("/api/newsletter/subscribe");
    expect(fetch.mock.calls[0][1].method).toBe("POST");
    expect(fetch.mock.calls[0][1].body).toBe('{"email":"a@example.org"}');
  });

  it("answers undefined for no body (204)", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(null, { status: 204 })));
    expect((await call("post", "/auth/logout-all")).data).toBeUndefined();
  });

  it("throws '{status}: {body}' with the API's error message for users", async () => {
    const body = JSON.stringify({ error: "invalid query parameter: limit", fields: { limit: "bad" } });
    vi.stubGlobal("fetch", vi.fn(async () => new Response(body, { status: 400 })));
    const err = await call("get", "/circulars", { query: { limit: 0 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(`400: ${body}`);
    expect((err as ApiError).serverMessage).toBe("invalid query parameter: limit");
    expect((err as ApiError).fields).toEqual({ limit: "bad" });
  });

  it("uses the status text when the body is empty", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("", { status: 502, statusText: "Bad Gateway" })));
    await expect(call("get", "/circulars")).rejects.toMatchObject({ message: "502: Bad Gateway", status: 502, serverMessage: undefined });
  });
});

describe("listAll", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("reads page after page until X-Total-Count's entries are in", async () => {
    const pages: Record<string, string[]> = {
      "/api/circulars?limit=2": ["a", "b"],
      "/api/circulars?limit=2&offset=2": ["c", "d"],
      "/api/circulars?limit=2&offset=4": ["e"],
    };
    const fetch = vi.fn(async (url: string) =>
      new Response(JSON.stringify(pages[url].map((slug) => ({ slug }))), { headers: { "X-Total-Count": "5" } }),
    );
    vi.stubGlobal("fetch", fetch);
    expect((await listAll("/circulars", { limit: 2 })).map((c) => c.slug)).toEqual(["a", "b", "c", "d", "e"]);
    expect(fetch).toHaveBeenCalledTimes(3);
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

});

describe("query cache", () => {
  it("follows the product's cache rules", () => {
    const q = queryClient.getDefaultOptions().queries!;
    expect([q.staleTime, q.refetchOnWindowFocus, q.refetchInterval, q.retry]).toEqual([Infinity, false, false, false]);
    expect(queryClient.getDefaultOptions().mutations!.retry).toBe(false);
  });

  it("keys an API query by its path and options", () => {
    expect(apiQuery("/circulars", { query: { source: "RBI" } }).queryKey).toEqual(["/circulars", { query: { source: "RBI" } }]);
  });
});
