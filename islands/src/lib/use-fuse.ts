// useFuse loads fuse.js (its own chunk, ~9 KB gzip) the first time a search
// is typed, so a page that is only read never downloads it.
import { useEffect, useState } from "react";
import type { FuseClass } from "./match";

let loading: Promise<FuseClass> | undefined;

export function useFuse(wanted: boolean): FuseClass | undefined {
  const [fuse, setFuse] = useState<FuseClass>();
  useEffect(() => {
    if (!wanted || fuse) return;
    let live = true;
    loading ??= import("fuse.js").then((m) => m.default);
    loading.then(
      (F) => live && setFuse(() => F),
      (err) => console.error("fuse.js failed to load; search stays exact:", err),
    );
    return () => {
      live = false;
    };
  }, [wanted, fuse]);
  return fuse;
}
