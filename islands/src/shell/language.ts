// The language switcher (templates/baseof.html)
// links the same page in the other language; following it keeps what the
// reader had set on this one: the query (a search, a filter, a page of a
// list) and the fragment.
export function initLanguageSwitch(doc: Document = document): void {
  doc.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.("a[data-language-switch]") as HTMLAnchorElement | null;
    if (!link) return;
    const { search, hash } = doc.location;
    if (!search && !hash) return;
    const url = new URL(link.href, doc.location.href);
    url.search = search;
    url.hash = hash;
    link.href = url.toString();
  });
}
