// The lang attribute of an entry's own text (a circular's or news item's
// title, preview, excerpt) when its language is not the page's. The
// language is the API's `lang` field, decided once in Go
// (internal/catalog's TextLang); this only compares it with the page's
// <html lang>, as templates/_partials/item-lang.html does for the static
// cards, so a card drawn here carries the attributes the pre-rendered one
// does.
export function itemLang(lang: string | null | undefined): string | undefined {
  if (!lang) return undefined;
  const page = document.documentElement.lang.split("-")[0] || "en";
  return lang === page ? undefined : lang;
}

// The lang attribute of content written in English that has no language
// field (a directory's entry, an ad, a Master Direction's text and the
// titles of the circulars that changed it): "en" on a page that is not in
// English, none on an English page. templates/_partials/content-lang.html
// is the same rule for the pages the generator writes. Put it on the
// smallest element that holds only the content, never on one that also
// holds translated labels.
export function contentLang(): string | undefined {
  return itemLang("en");
}
