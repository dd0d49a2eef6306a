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
