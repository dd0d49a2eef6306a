// Pages that split one directory into groups (Indian and Global on
// /global-fintech and /fintech-leaders) hide a group whose list shows
// nothing, and show the page's one empty state only when every group is
// empty, so a search never leaves a heading over an empty grid.
//
// Markup contract (besides static-list.ts's; templates write data-group
// with _partials/data-group.html):
//   <section data-group="LIST">…<div data-list="LIST">…</div></section>
//   <div data-empty="NAME" hidden>…</div>  NAME is not a list's name
import { useEffect } from "react";
import { dataEmpty, dataGroup, sel, setHiddenAll } from "./contract";

export function showGroups(root: ParentNode, counts: Record<string, number>, emptyName: string) {
  let total = 0;
  for (const [name, n] of Object.entries(counts)) {
    total += n;
    setHiddenAll(root, sel(dataGroup, name), n === 0);
  }
  setHiddenAll(root, sel(dataEmpty, emptyName), total > 0);
}

export function useGroups(counts: Record<string, number>, emptyName: string) {
  // The counts object is new each render; its content is what matters.
  const key = JSON.stringify(counts);
  useEffect(() => {
    showGroups(document, JSON.parse(key) as Record<string, number>, emptyName);
  }, [key, emptyName]);
}
