// The page's one query cache, shared by every island and the user menu
// (a module is evaluated once per page). Its options are the product's
// cache rules: data never goes stale, no refetch on window focus, no
// polling (a query may ask for its own: a long scan's job), no retries of
// queries or mutations. Every query says how it fetches (a call of
// api.ts's client, typed by the API's path).
import { QueryClient } from "@tanstack/react-query";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: { retry: false },
  },
});

// fetchBuilt reads a JSON file the build wrote beside the pages (not the
// API): /search's offline index, the impact tracker's entries.
export async function fetchBuilt<T>(path: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(path, { signal });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}
