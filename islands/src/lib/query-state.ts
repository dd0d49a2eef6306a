// Filter state lives in the URL query, so a filtered view can be shared and
// survives a reload. Values equal to their default are left out of the URL.
import { useCallback, useState } from "react";

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

export function useQueryState<T extends QueryState>(defaults: T): [T, (patch: Partial<T>) => void] {
  const [state, setState] = useState<T>(() => readQuery(window.location.search, defaults));
  const update = useCallback(
    (patch: Partial<T>) => {
      setState((prev) => {
        const next = { ...prev, ...patch } as T;
        const qs = queryString(window.location.search, next, defaults);
        window.history.replaceState(window.history.state, "", window.location.pathname + qs + window.location.hash);
        return next;
      });
    },
    // defaults are a literal per island; their identity does not matter
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return [state, update];
}
