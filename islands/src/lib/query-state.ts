// Filter state lives in the URL query, so a filtered view can be shared and
// survives a reload. Values equal to their default are left out of the URL.
import { useCallback, useEffect, useRef, useState } from "react";

export type QueryState = Record<string, string>;

export function readQuery<T extends QueryState>(search: string, defaults: T): T {
  const params = new URLSearchParams(search);
  const out: QueryState = { ...defaults };
  for (const k of Object.keys(defaults)) {
    const v = params.get(k);
    if (v !== null) out[k] = v;
  }
  return out as T;
}

// queryString returns search with the state's keys replaced, other
// parameters kept as they were.
export function queryString(search: string, state: QueryState, defaults: QueryState): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(state)) {
    if (v === defaults[k] || v === "") params.delete(k);
    else params.set(k, v);
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

// useQueryState keeps T in the URL query. With history "replace" (the
// directories' filters) a change rewrites the current entry; with "push"
// (the search page) each change is an entry of its own, so Back and
// Forward step through searches. Either way Back and Forward set the state.
export function useQueryState<T extends QueryState>(
  defaults: T,
  history: "replace" | "push" = "replace",
): [T, (patch: Partial<T>) => void] {
  const [state, setState] = useState<T>(() => readQuery(window.location.search, defaults));
  const current = useRef(state);
  current.current = state;
  const update = useCallback(
    (patch: Partial<T>) => {
      const next = { ...current.current, ...patch } as T;
      const qs = queryString(window.location.search, next, defaults);
      const url = window.location.pathname + qs + window.location.hash;
      if (history === "push" && qs !== window.location.search) window.history.pushState(window.history.state, "", url);
      else window.history.replaceState(window.history.state, "", url);
      current.current = next;
      setState(next);
    },
    // defaults are a literal per island; their identity does not matter
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [history],
  );
  useEffect(() => {
    const onPop = () => setState(readQuery(window.location.search, defaults));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return [state, update];
}
