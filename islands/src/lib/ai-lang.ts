// The AI calls' language (the API's `lang` query parameter): the page's.
// A Hindi page asks for Hindi, so that with a model configured the summary
// and the impact's reasons are written in Hindi; an English page sends
// nothing (English is the API's default), so its requests are as before.
import { pageLang, type Lang } from "./i18n";

export function aiQuery(lang: Lang = pageLang()): { lang?: Lang } {
  return lang === "en" ? {} : { lang };
}
