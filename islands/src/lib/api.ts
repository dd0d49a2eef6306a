// The one client of the portal's JSON API, for every island and the
// shell's user menu: openapi-fetch's client over the types
// openapi-typescript makes of api/openapi.json, which Go generates from
// the API's declarations (npm run api-types writes api-types.gen.ts). A
// call's path, method, parameters, body and answer are checked by the
// compiler, never cast or copied by hand:
//
//	dataOf(api.GET("/circulars/{id}", { params: { path: { id } }, signal }))
//
// Every request includes credentials, asks for JSON in the page's
// language (Accept-Language: hi on a Hindi page, en on an English one:
// the API's messages, and the language a signup or a subscription
// records for the person's e-mails) and, when a token is kept
// (auth_token in localStorage), carries it as a bearer Authorization
// header; a body is sent as JSON with its content type. A query is written
// as URLSearchParams writes it, empty values left out (queryString: the
// URLs the pages link to). answered and dataOf raise a failed call as
// ApiError, whose message is "{status}: {body or status text}" (for logs)
// and whose serverMessage is the API's JSON "error" field, what users are
// shown.
import createClient from "openapi-fetch";
import type { components, paths } from "./api-types.gen";
import { pageLang } from "./i18n";
import { getToken } from "./token";

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

// queryString is a query as the API reads it: its parameters in their
// order, undefined, null and empty values left out.
export function queryString(query: object): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  }
  return q.toString();
}

// apiURL is the URL of GET path with query, for a link (a feed) or an
// export; the client sends the same.
export function apiURL(path: keyof paths, query: object = {}): string {
  const s = queryString(query);
  return "/api" + path + (s ? "?" + s : "");
}

export const api = createClient<paths>({
  baseUrl: "/api",
  credentials: "include",
  headers: { Accept: "application/json" },
  querySerializer: queryString,
  // fetch is looked up at each call (tests stub it); the token is the one
  // kept then, the language the page's then.
  fetch: (request) => {
    request.headers.set("Accept-Language", pageLang());
    const token = getToken();
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    return fetch(request);
  },
});

// multipart is the body serializer of a multipart/form-data call: its
// fields as a FormData, whose Content-Type (with the boundary) the
// browser writes.
export function multipart(body: Record<string, string | Blob>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) form.append(name, value);
  return form;
}

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

// apiError is the ApiError of a failed call's response and its body, as
// openapi-fetch read it: parsed when JSON, else text (undefined when
// empty); not JSON is a static host's 404 page.
function apiError(res: Response, body: unknown): ApiError {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const json = typeof body === "object" && body !== null ? body : {};
  const serverMessage = "error" in json && typeof json.error === "string" ? json.error : undefined;
  const fields = "fields" in json && typeof json.fields === "object" && json.fields !== null ? json.fields : {};
  const messages = Object.fromEntries(Object.entries(fields).filter(([, m]) => typeof m === "string"));
  return new ApiError(`${res.status}: ${text || res.statusText}`, res.status, serverMessage, messages);
}

// Success is the answer of a call that succeeded: openapi-fetch answers
// {data, response} then, {error, response} otherwise.
type Success<R> = Extract<R, { data: unknown }>;

function succeeded<R extends object>(r: R): r is Success<R> {
  return !("error" in r);
}

// answered is a call's data (undefined for no body) with the response it
// came in (headers, status), or its failure raised as ApiError.
export async function answered<R extends { error?: unknown; response: Response }>(call: Promise<R>): Promise<Success<R>> {
  const r = await call;
  if (succeeded(r)) return r;
  throw apiError(r.response, r.error);
}

// dataOf is a call's data, or its failure raised as ApiError: a
// TanStack Query's or mutation's function.
export async function dataOf<R extends { error?: unknown; response: Response }>(call: Promise<R>): Promise<Success<R>["data"]> {
  return (await answered(call)).data;
}

// maxPages bounds listAll: a list longer than this many pages is a bug.
const maxPages = 50;

// listAll reads every page of a list, page(offset) answering the one from
// offset (undefined: the first), until X-Total-Count's entries are in.
export async function listAll<T>(page: (offset: number | undefined) => Promise<{ data: T[]; response: Response }>): Promise<T[]> {
  const all: T[] = [];
  for (let i = 0; i < maxPages; i++) {
    const { data, response } = await page(all.length || undefined);
    all.push(...data);
    if (data.length === 0 || all.length >= Number(response.headers.get("X-Total-Count") ?? 0)) break;
  }
  return all;
}

// userMessage is what to show for a failed call: the server's message,
// else the fallback.
export function userMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : fallback;
}
