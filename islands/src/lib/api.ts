// The one client of the portal's JSON API, for every island and the
// shell's user menu: call (and apiQuery for TanStack Query) are typed by
// path and method from api/openapi.json, which Go generates from the
// API's declarations (npm run api-types turns it into api-types.gen.ts):
// the parameters a call takes, its body and what it answers are checked
// by the compiler, never cast or copied by hand. Every request includes
// credentials and, when a token is kept (auth_token in localStorage), a
// bearer Authorization header; a body is sent as JSON with its content
// type. A non-OK answer is raised as ApiError, whose message is
// "{status}: {body text or status text}" and whose serverMessage is the
// API's JSON "error" field, what users are shown.
import type { components, paths } from "./api-types.gen";

export type Schemas = components["schemas"];
export type Circular = Schemas["Circular"];
export type CircularSort = Schemas["CircularSort"];
export type SubscribeRequest = Schemas["SubscribeRequest"];
export type SubscribeResponse = Schemas["SubscribeResponse"];
export type NewsletterSource = Schemas["NewsletterSource"];
export type User = Schemas["User"];
export type Preferences = Schemas["Preferences"];
export type ExtractResult = Schemas["ExtractResult"];
export type ExtractJob = Schemas["ExtractJob"];

// The kept sign-in token (lib/token.ts, small enough for an island to
// check before it loads the client).
export { getToken, setToken, tokenKey } from "./token";
import { getToken } from "./token";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    // the API's "error" field, when the body is JSON with one
    readonly serverMessage?: string,
    // the API's "fields": one message per request field at fault
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => "");
  let serverMessage: string | undefined;
  let fields: Record<string, string> = {};
  try {
    const body = JSON.parse(text) as { error?: string; fields?: Record<string, string> };
    serverMessage = body.error;
    fields = body.fields ?? {};
  } catch {
    // not JSON (a static host's 404 page)
  }
  throw new ApiError(`${res.status}: ${text || res.statusText}`, res.status, serverMessage, fields);
}

// apiRequest sends method url with data as its JSON body (none when
// undefined; a FormData goes as multipart, its Content-Type with the
// boundary written by the browser) and returns the response, raising
// ApiError when not OK.
export async function apiRequest(method: string, url: string, data?: unknown, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const form = data instanceof FormData;
  if (data !== undefined && !form) headers["Content-Type"] = "application/json";
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, {
    method,
    headers,
    body: data === undefined ? undefined : form ? data : JSON.stringify(data),
    credentials: "include",
    signal,
  });
  await throwIfNotOk(res);
  return res;
}

type Method = "get" | "put" | "post" | "delete";

// PathsWith are the API's paths that answer method.
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: infer O } ? ([O] extends [undefined] ? never : P) : never;
}[keyof paths];

// Op is the operation of method on path.
export type Op<M extends Method, P extends PathsWith<M>> = NonNullable<paths[P][M]>;

type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type PathOf<O> = O extends { parameters: { path: infer Q } } ? Q : never;
type BodyOf<O> = O extends { requestBody?: { content: infer C } }
  ? C extends { "application/json": infer B }
    ? B
    : C extends { "multipart/form-data": unknown }
      ? FormData
      : never
  : never;
type JSONOf<R> = R extends { content: { "application/json": infer T } } ? T : never;
type Responses<O> = O extends { responses: infer R } ? R : never;
type Successes<R> = JSONOf<R[200 & keyof R]> | JSONOf<R[201 & keyof R]> | JSONOf<R[202 & keyof R]>;

// Data is what a call of operation O answers when it succeeds (undefined
// for a call that answers no body).
export type Data<O> = [Successes<Responses<O>>] extends [never] ? undefined : Successes<Responses<O>>;

// CallOptions are a call's parameters (query and path, as its operation
// declares them), its body and a signal to cancel it.
export type CallOptions<O> = (O extends { parameters: { query: object } } ? { query: QueryOf<O> } : { query?: QueryOf<O> }) &
  (O extends { parameters: { path: object } } ? { path: PathOf<O> } : { path?: never }) & {
    body?: BodyOf<O>;
    signal?: AbortSignal;
  };

// Answer is a call's data with the response it came in (headers, status).
export type Answer<O> = { data: Data<O>; response: Response };

// apiURL is the URL of path under /api with its path parameters filled in
// and its query parameters (in their order; empty, null and undefined
// values left out).
export function apiURL(path: string, params: { query?: object; path?: object } = {}): string {
  let url = "/api" + path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String((params.path as Record<string, unknown>)[name])));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params.query ?? {})) {
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  }
  const s = q.toString();
  if (s) url += "?" + s;
  return url;
}

// call sends method path with the options' parameters and body and
// answers the data (JSON; undefined for no body) with the response.
export async function call<M extends Method, P extends PathsWith<M>>(
  method: M,
  path: P,
  ...[opts]: object extends CallOptions<Op<M, P>> ? [CallOptions<Op<M, P>>?] : [CallOptions<Op<M, P>>]
): Promise<Answer<Op<M, P>>> {
  const o = (opts ?? {}) as { query?: object; path?: object; body?: unknown; signal?: AbortSignal };
  const res = await apiRequest(method.toUpperCase(), apiURL(path, o), o.body, o.signal);
  const text = res.status === 204 ? "" : await res.text();
  return { data: (text ? JSON.parse(text) : undefined) as Data<Op<M, P>>, response: res };
}

// apiQuery is a TanStack Query of GET path: its key (the path and the
// query) and its function, typed by the path.
export function apiQuery<P extends PathsWith<"get">>(path: P, ...[opts]: object extends CallOptions<Op<"get", P>> ? [CallOptions<Op<"get", P>>?] : [CallOptions<Op<"get", P>>]) {
  const o = (opts ?? {}) as CallOptions<Op<"get", P>>;
  return {
    queryKey: [path, o] as const,
    queryFn: async ({ signal }: { signal: AbortSignal }) =>
      (await call("get", path, ...([{ ...o, signal }] as unknown as [CallOptions<Op<"get", P>>]))).data,
  };
}

// maxPages bounds listAll: a list longer than this many pages is a bug.
const maxPages = 50;

// listAll reads every page of a list call, limit entries a page, until
// X-Total-Count's entries are in.
export async function listAll<P extends PathsWith<"get">>(path: P, query: QueryOf<Op<"get", P>> & { limit: number }, signal?: AbortSignal) {
  const all: Data<Op<"get", P>>[] = [];
  for (let i = 0, offset = 0; i < maxPages; i++) {
    const { data, response } = await call("get", path, ...([{ query: { ...query, offset: offset || undefined }, signal }] as unknown as [CallOptions<Op<"get", P>>]));
    const page = data as unknown as Data<Op<"get", P>>[];
    all.push(...page);
    offset += page.length;
    if (page.length === 0 || offset >= Number(response.headers.get("X-Total-Count") ?? 0)) break;
  }
  return all as unknown as Data<Op<"get", P>>;
}

// userMessage is what to show for a failed call: the server's message,
// else the fallback.
export function userMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : fallback;
}

// nextPage is the rel="next" target of an RFC 8288 Link header, or null.
export function nextPage(link: string | null): string | null {
  for (const part of (link ?? "").split(",")) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(m[2])) return m[1];
  }
  return null;
}
