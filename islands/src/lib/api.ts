// A small client for the portal's JSON API. Every API failure is JSON
// {"error": "..."}; ApiError carries its message. The types of what the API
// answers are generated from api/openapi.json (npm run api-types), which Go
// derives from the types the API writes: never copy them by hand.
import type { components } from "./api-types.gen";

export type Schemas = components["schemas"];
export type Circular = Schemas["Circular"];
export type CircularSort = Schemas["CircularSort"];
export type ExtractResult = Schemas["ExtractResult"];
export type ExtractJob = Schemas["ExtractJob"];

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function fetchJSON(path: string, signal?: AbortSignal, init?: RequestInit): Promise<Response> {
  const res = await fetch(path, { ...init, headers: { Accept: "application/json", ...init?.headers }, signal });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as { error?: string };
      if (body.error) message = body.error;
    } catch {
      // not JSON (a static host's 404 page): keep the status line
    }
    throw new ApiError(message, res.status);
  }
  return res;
}

export async function getJSON<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await (await fetchJSON(path, signal)).json()) as T;
}

// postJSON sends body as JSON and answers the reply's JSON.
export async function postJSON<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const init = { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } };
  return (await (await fetchJSON(path, signal, init)).json()) as T;
}

// postForm sends a multipart form (an upload: the browser writes the
// Content-Type with its boundary, so none is set here). It answers the
// status with the JSON body and the Location header, so a caller can tell
// a result (200) from a job to poll (202).
export async function postForm<T>(
  path: string,
  form: FormData,
  signal?: AbortSignal,
): Promise<{ status: number; body: T; location: string | null }> {
  const res = await fetchJSON(path, signal, { method: "POST", body: form });
  return { status: res.status, body: (await res.json()) as T, location: res.headers.get("Location") };
}

// maxPages bounds getList: a list longer than this many pages is a bug.
const maxPages = 50;

// getList fetches every page of a list call: the API answers a page and,
// while entries follow, names the next page in its Link header (rel="next").
export async function getList<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  let next: string | null = path;
  for (let i = 0; next !== null && i < maxPages; i++) {
    const res = await fetchJSON(next, signal);
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
