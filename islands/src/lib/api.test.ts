import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyOf, pathOf } from "../test/fetch";
import { answered, api, ApiError, apiURL, dataOf, listAll, multipart, setToken } from "./api";
import { queryClient } from "./query";

// stub answers every request with answer and records the requests.
function stub(answer: () => Response): Request[] {
  const sent: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      sent.push(req);
      return answer();
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("apiURL", () => {
  it.each([
    ["/circulars", {}, "/api/circulars"],
    ["/circulars", { source: "RBI", category: "", limit: 5, offset: undefined, x: null }, "/api/circulars?source=RBI&limit=5"],
    ["/search", { q: "card data & more", page: 2 }, "/api/search?q=card+data+%26+more&page=2"],
  ] as const)("%s %j", (path, query, want) => {
    expect(apiURL(path, query)).toBe(want);
  });
});

describe("the client", () => {
  it("writes the query as the pages' links do: in order, empty values left out, spaces as +", async () => {
    const sent = stub(() => new Response("[]"));
    await dataOf(api.GET("/circulars", { params: { query: { source: "RBI", search: "", limit: 5, offset: undefined } } }));
    await dataOf(api.GET("/search", { params: { query: { q: "card data & more", page: 2 } } }));
    expect(sent.map(pathOf)).toEqual(["/api/circulars?source=RBI&limit=5", "/api/search?q=card+data+%26+more&page=2"]);
    expect(sent.map(pathOf)[1]).toBe(apiURL("/search", { q: "card data & more", page: 2 }));
  });

  it("encodes a path parameter whole", async () => {
    const sent = stub(() => new Response("{}"));
    await dataOf(api.POST("/circulars/{id}/summarize", { params: { path: { id: "a/b c" } } }));
    expect(pathOf(sent[0])).toBe("/api/circulars/a%2Fb%20c/summarize");
    expect(sent[0].method).toBe("POST");
  });

  it("sends credentials, asks for JSON, and the bearer token only when one is kept", async () => {
    const sent = stub(() => new Response("{}"));
    await dataOf(api.GET("/auth/me"));
    setToken("tok");
    await dataOf(api.GET("/auth/me"));
    expect(sent.map((r) => [r.credentials, r.headers.get("Accept"), r.headers.get("Authorization"), r.headers.get("Content-Type")])).toEqual([
      ["include", "application/json", null, null],
      ["include", "application/json", "Bearer tok", null],
    ]);
  });

  it("asks for the page's language: en on an English page, hi on a Hindi one", async () => {
    const sent = stub(() => new Response("{}"));
    await dataOf(api.GET("/auth/me"));
    document.documentElement.lang = "hi";
    try {
      await dataOf(api.POST("/newsletter/subscribe", { body: { email: "a@example.org" } }));
    } finally {
      document.documentElement.lang = "";
    }
    expect(sent.map((r) => r.headers.get("Accept-Language"))).toEqual(["en", "hi"]);
  });

  it("sends a body as JSON with its type, and answers the data with the response", async () => {
    const sent = stub(() => new Response('{"status":"subscribed","message":"Thanks"}', { status: 201 }));
    const { data, response } = await answered(api.POST("/newsletter/subscribe", { body: { email: "a@example.org" } }));
    expect(data).toEqual({ status: "subscribed", message: "Thanks" });
    expect(response.status).toBe(201);
    expect(sent[0].headers.get("Content-Type")).toBe("application/json");
    expect(await bodyOf(sent[0])).toEqual({ email: "a@example.org" });
  });

  it("sends a file as multipart form data, its type (with the boundary) left to fetch", async () => {
    const sent = stub(() => new Response('{"text":"x"}'));
    const file = new File(["%PDF"], "a.pdf");
    await dataOf(api.POST("/extract-pdf-text", { body: { file }, bodySerializer: multipart }));
    expect(sent[0].headers.get("Content-Type")).toMatch(/^multipart\/form-data; boundary=/);
    // (jsdom's File does not survive Node's Request: the form is read
    // before it goes)
    expect(multipart({ file }).get("file")).toBe(file);
  });

  it("answers undefined for no body (204)", async () => {
    stub(() => new Response(null, { status: 204 }));
    expect(await dataOf(api.POST("/auth/logout-all"))).toBeUndefined();
  });

  it("passes the caller's signal on", async () => {
    const sent = stub(() => new Response("{}"));
    const ctl = new AbortController();
    const call = dataOf(api.GET("/dashboard/stats", { signal: ctl.signal }));
    ctl.abort();
    await call;
    expect(sent[0].signal.aborted).toBe(true);
  });
});

describe("a failed call", () => {
  it("throws '{status}: {body}' with the API's error message and field messages", async () => {
    const body = JSON.stringify({ error: "invalid query parameter: limit", fields: { limit: "bad" } });
    stub(() => new Response(body, { status: 400 }));
    const err = await dataOf(api.GET("/circulars", { params: { query: { limit: 0 } } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: `400: ${body}`, status: 400, serverMessage: "invalid query parameter: limit", fields: { limit: "bad" } });
  });

  it.each([
    ["an empty body: the status text", new Response("", { status: 502, statusText: "Bad Gateway" }), "502: Bad Gateway"],
    ["not JSON (a static host's page): its text", new Response("<h1>404</h1>", { status: 404 }), "404: <h1>404</h1>"],
  ])("with %s", async (_, res, message) => {
    stub(() => res);
    await expect(answered(api.GET("/circulars"))).rejects.toMatchObject({ message, status: res.status, serverMessage: undefined, fields: {} });
  });
});

describe("listAll", () => {
  it("reads page after page until X-Total-Count's entries are in", async () => {
    const pages: Record<string, string[]> = {
      "/api/circulars?limit=2": ["a", "b"],
      "/api/circulars?limit=2&offset=2": ["c", "d"],
      "/api/circulars?limit=2&offset=4": ["e"],
    };
    const sent = stub(() => new Response(JSON.stringify(pages[pathOf(sent[sent.length - 1])].map((slug) => ({ slug }))), { headers: { "X-Total-Count": "5" } }));
    const all = await listAll((offset) => answered(api.GET("/circulars", { params: { query: { limit: 2, offset } } })));
    expect(all.map((c) => c.slug)).toEqual(["a", "b", "c", "d", "e"]);
    expect(sent.map(pathOf)).toEqual(Object.keys(pages));
  });
});

describe("query cache", () => {
  it("follows the product's cache rules", () => {
    const q = queryClient.getDefaultOptions().queries!;
    expect([q.staleTime, q.refetchOnWindowFocus, q.refetchInterval, q.retry]).toEqual([Infinity, false, false, false]);
    expect(queryClient.getDefaultOptions().mutations!.retry).toBe(false);
  });
});
