// Hooks shared by the directory islands: read a static list once, compute
// which entries match, and show them.
import { useEffect, useMemo, useState } from "react";
import { fuzzyMinLength, search, type Fields } from "./match";
import { readList, showList, type StaticList } from "./static-list";
import { useFuse } from "./use-fuse";

export function useStaticList(name: string): StaticList {
  const [list] = useState(() => readList(document, name));
  return list;
}

// useMatches returns the indexes of the list's items that pass the filter
// and match the query (substring first, then fuzzy).
export function useMatches(list: StaticList, keys: string[], query: string, filter?: (f: Fields) => boolean): number[] {
  const Fuse = useFuse(query.trim().length >= fuzzyMinLength);
  return useMemo(() => {
    const kept: number[] = [];
    list.items.forEach((it, i) => {
      if (!filter || filter(it.fields)) kept.push(i);
    });
    const found = search(
      kept.map((i) => list.items[i].fields),
      keys,
      query,
      Fuse,
    );
    return found.map((j) => kept[j]);
    // keys and filter are derived from the state passed in deps by callers
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list, query, Fuse, filter]);
}

// useShowList applies the matches to the page after each change.
export function useShowList(list: StaticList, order: number[], page = 1, size = 0) {
  useEffect(() => {
    showList(document, list, order, page, size);
  }, [list, order, page, size]);
}

// useDebounced is value once it has stayed the same for ms (compared by
// its JSON), and the value before until then.
export function useDebounced<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}
