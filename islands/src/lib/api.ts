// A small client for the portal's JSON API. Every API failure is JSON
// {"error": "..."}; ApiError carries its message. The types of what the API
// answers are generated from api/openapi.json (npm run api-types), which Go
// derives from the types the API writes: never copy them by hand.
import type { components } from "./api-types.gen";

export type Schemas = components["schemas"];
export type Circular = Schemas["Circular"];
export type CircularSort = Schemas["CircularSort"];
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function getJSON<T>(path: string, signal?: AbortSignal): Promise<T> {
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
  return (await res.json()) as T;
}
