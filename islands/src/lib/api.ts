// The one client of the portal's JSON API, for every island and the
// shell's user menu. Every request includes credentials and, when a token
// is kept (auth_token in localStorage), a bearer Authorization header; a
// body is sent as JSON with its content type. A non-OK answer is raised as
// ApiError, whose message is "{status}: {body text or status text}" and
// whose serverMessage is the API's JSON "error" field, what users are
// shown. The types of what the API answers are generated from
// api/openapi.json (npm run api-types), which Go derives from the types
// the API writes: never copy them by hand.
import type { components } from "./api-types.gen";

export type Schemas = components["schemas"];
export type Circular = Schemas["Circular"];
export type CircularSort = Schemas["CircularSort"];
export type User = Schemas["User"];
export type Preferences = Schemas["Preferences"];

// tokenKey is where the sign-in token is kept.
export const tokenKey = "auth_token";

export function getToken(): string | null {
  try {
    return localStorage.getItem(tokenKey);
  } catch {
    return null;
  }
}

export function setToken(token: string | null) {
  try {
    if (token === null) localStorage.removeItem(tokenKey);
    else localStorage.setItem(tokenKey, token);
  } catch {
    // storage disabled: the session lasts as long as the page
  }
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
// undefined) and returns the response, raising ApiError when not OK.
export async function apiRequest(method: string, url: string, data?: unknown, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (data !== undefined) headers["Content-Type"] = "application/json";
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, {
    method,
    headers,
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: "include",
    signal,
  });
  await throwIfNotOk(res);
  return res;
}

export async function getJSON<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await (await apiRequest("GET", path, undefined, signal)).json()) as T;
}

// sendJSON sends data and returns the JSON answer (undefined for 204).
export async function sendJSON<T>(method: string, path: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, path, data);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

// userMessage is what to show for a failed call: the server's message,
// else the fallback.
export function userMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : fallback;
}

// maxPages bounds getList: a list longer than this many pages is a bug.
const maxPages = 50;

// getList fetches every page of a list call: the API answers a page and,
// while entries follow, names the next page in its Link header (rel="next").
export async function getList<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  let next: string | null = path;
  for (let i = 0; next !== null && i < maxPages; i++) {
    const res = await apiRequest("GET", next, undefined, signal);
    all.push(...((await res.json()) as T[]));
    next = nextPage(res.headers.get("Link"));
  }
  return all;
}

// nextPage is the rel="next" target of an RFC 8288 Link header, or null.
export function nextPage(link: string | null): string | null {
  for (const part of (link ?? "").split(",")) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(m[2])) return m[1];
  }
  return null;
}
