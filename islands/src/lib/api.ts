// A small client for the portal's JSON API. Every API failure is JSON
// {"error": "..."}; ApiError carries its message. The types of what the API
// answers are generated from api/openapi.json (npm run api-types), which Go
// derives from the types the API writes: never copy them by hand.
import type { components } from "./api-types.gen";

export type Schemas = components["schemas"];
export type Circular = Schemas["Circular"];
export type CircularSort = Schemas["CircularSort"];
export type SubscribeRequest = Schemas["SubscribeRequest"];
export type SubscribeResponse = Schemas["SubscribeResponse"];
export type NewsletterSource = Schemas["NewsletterSource"];

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function fetchJSON(path: string, signal?: AbortSignal): Promise<Response> {
  const res = await fetch(path, { headers: { Accept: "application/json" }, signal });
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

// sendJSON sends data as method path's JSON body and returns the JSON
// answer (undefined for 204), raising ApiError with the API's message.
export async function sendJSON<T>(method: string, path: string, data?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: data === undefined ? undefined : JSON.stringify(data),
  });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as { error?: string };
      if (body.error) message = body.error;
    } catch {
      // not JSON (a static host answering a POST): keep the status line
    }
    throw new ApiError(message, res.status);
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
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
