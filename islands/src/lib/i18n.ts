// The islands' side of the one catalogue of strings (internal/i18n).
// An island imports the catalogue's file of its area as it is and asks
// for a key in the page's language (<html lang>, which the generator
// sets per language):
//
//   import strings from "../../../internal/i18n/strings/alerts.json";
//   const t = translator(strings);
//   t(KEY)                       e.g. KEY alerts.save: "Save alert" / "अलर्ट सहेजें"
//   t(KEY, { Count: n, N: formatCount(n) })       a plural form and a placeholder
//
// Only the areas an island imports reach its chunk. The Go test
// internal/i18n TestUsage finds every t("key") here and fails on a key
// the catalogue lacks; placeholders ({{ .Name }}) and the plural forms
// (chosen by Count, CLDR's rules through Intl.PluralRules) are filled as
// Hugo's T and Go's i18n.T fill them.

export type Message = string | { one: string; other: string };
export type Area = Record<string, Record<string, Message>>;
export type Lang = "en" | "hi";
export type Data = Record<string, string | number>;

const roots: Record<Lang, string> = { en: "", hi: "/hi" };

// pageLang is the page's language: <html lang>, English when unknown.
export function pageLang(): Lang {
  const lang = typeof document === "undefined" ? "" : document.documentElement.lang.split("-")[0];
  return lang === "hi" ? "hi" : "en";
}

// pagePath is the path of an English page path in the page's language
// (i18n.Language.Path): /circulars is /hi/circulars on a Hindi page.
export function pagePath(path: string, lang: Lang = pageLang()): string {
  const root = roots[lang];
  if (!root || !path.startsWith("/") || path.startsWith("//")) return path;
  return path === "/" ? root + "/" : root + path;
}

const plurals = new Map<Lang, Intl.PluralRules>();

function pluralOne(lang: Lang, count: unknown): boolean {
  const n = typeof count === "number" ? count : Number(String(count ?? "").replaceAll(",", ""));
  if (!Number.isFinite(n)) return false;
  let rules = plurals.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang === "hi" ? "hi-IN" : "en-IN");
    plurals.set(lang, rules);
  }
  return rules.select(n) === "one";
}

const placeholder = /\{\{ \.([A-Z][A-Za-z0-9]*) \}\}/g;

// format fills message's placeholders from data, its plural form chosen
// by data.Count.
export function format(message: Message, lang: Lang, data?: Data): string {
  let text: string;
  if (typeof message === "string") text = message;
  else text = pluralOne(lang, data?.Count) ? message.one : message.other;
  if (!data || !text.includes("{{")) return text;
  return text.replace(placeholder, (whole, name: string) => (name in data ? String(data[name]) : whole));
}

// translator is t for one area's strings, in the page's language as it
// is when t is called.
export function translator(area: Area) {
  return function t(key: string, data?: Data): string {
    const entry = area[key];
    if (!entry) throw new Error(`i18n: no key ${key} in this area`);
    const lang = pageLang();
    return format(entry[lang] ?? entry.en, lang, data);
  };
}
