// A small client for the portal's JSON API (SPEC.md section 7). Every API
// failure is JSON {"error": "..."}; ApiError carries its message.
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
