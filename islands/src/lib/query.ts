// The page's one query cache, shared by every island and the user menu
// (a module is evaluated once per page). Its options are the product's
// cache rules: data never goes stale, no refetch on window focus, no
// polling, no retries of queries or mutations.
import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { apiRequest } from "./api";

type On401 = "returnNull" | "throw";

// queryURL is a query key's URL: the first element, with the non-empty
// fields of an object second element as query parameters.
export function queryURL(key: readonly unknown[]): string {
  const url = String(key[0]);
  const params = key[1];
  if (!params || typeof params !== "object") return url;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params as Record<string, unknown>)) {
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `${url}${url.includes("?") ? "&" : "?"}${s}` : url;
}

// getQueryFn fetches a query key's URL; with on401 "returnNull" a 401
// answers null instead of failing (the current-user call).
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    try {
      return (await (await apiRequest("GET", queryURL(queryKey), undefined, signal)).json()) as T;
    } catch (err) {
      if (on401 === "returnNull" && (err as { status?: number }).status === 401) return null;
      throw err;
    }
  };
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: "throw" }),
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: { retry: false },
  },
});
