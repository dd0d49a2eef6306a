// Directory pages render every entry in the static HTML; islands only hide,
// reorder and page those elements, so there is one rendering of a card (the
// generator's) and the page works without JavaScript.
//
// Markup contract (contract.ts names the attributes; templates write them
// with _partials/data-list.html, data-fields.html, count-badge.html and
// empty-state.html):
//   <div data-list="NAME">  <article data-fields='{"name":"..."}'>…</article> … </div>
//   <span data-count="NAME">N</span>      shown count, any number of them
//   <div data-empty="NAME" hidden>…</div> shown when nothing matches
import { dataCount, dataEmpty, dataFields, dataList, sel, setHidden, setHiddenAll } from "./contract";
import type { Fields } from "./match";
import { formatCount } from "./numbers";

export type StaticItem = { el: HTMLElement; fields: Fields };
export type StaticList = { name: string; container: HTMLElement | null; items: StaticItem[] };

export function readList(root: ParentNode, name: string): StaticList {
  const container = root.querySelector<HTMLElement>(sel(dataList, name));
  const items: StaticItem[] = [];
  for (const el of container?.querySelectorAll<HTMLElement>(`:scope > ${sel(dataFields)}`) ?? []) {
    let fields: Fields = {};
    try {
      fields = JSON.parse(el.getAttribute(dataFields) ?? "{}") as Fields;
    } catch {
      console.error(`list ${name}: bad ${dataFields}`, el);
    }
    items.push({ el, fields });
  }
  return { name, container, items };
}

// pageCount is how many pages n entries fill; at least 1.
export function pageCount(n: number, size: number): number {
  return size > 0 ? Math.max(1, Math.ceil(n / size)) : 1;
}

// showList shows the items at the given indexes in that order (one page of
// them when size > 0), hides the rest, and updates counts and the empty
// state. page is 1-based and clamped.
export function showList(root: ParentNode, list: StaticList, order: number[], page = 1, size = 0) {
  const { container, items, name } = list;
  if (!container) return;
  const p = Math.min(Math.max(1, page), pageCount(order.length, size));
  const visible = size > 0 ? order.slice((p - 1) * size, p * size) : order;
  const shown = new Set(visible);
  // Append in the wanted order (appendChild moves the element), then the
  // hidden rest, so the DOM order is the reading order.
  for (const i of visible) {
    setHidden(items[i].el, false);
    container.appendChild(items[i].el);
  }
  items.forEach((it, i) => {
    if (!shown.has(i)) {
      setHidden(it.el, true);
      container.appendChild(it.el);
    }
  });
  showCount(root, name, order.length);
  setHidden(container, order.length === 0);
}

// showCount writes n in the list's counts and shows its empty state when
// n is 0.
export function showCount(root: ParentNode, name: string, n: number) {
  for (const el of root.querySelectorAll<HTMLElement>(sel(dataCount, name))) el.textContent = formatCount(n);
  setHiddenAll(root, sel(dataEmpty, name), n > 0);
}
