// Numbers and dates as Indian readers write them, the one place islands
// format them: counts grouped in thousands, lakhs and crores (1,00,000;
// 12,34,56,789), ₹ amounts the same way, dates as "2 December 2026" (the
// pages' templates/_partials/number.html, date.html and date-long.html, and
// the Go side's internal/indian, write the same).

import { type Lang, pageLang } from "./i18n";

const whole = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
const rupee = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** A count: 1,00,000. */
export const formatCount = (n: number): string => whole.format(n);

/** An amount in rupees: ₹12,34,567.5 → "₹12,34,567.50"; whole rupees without paise ("₹1,00,000"). */
export const formatRupees = (rupees: number): string => {
  const s = rupee.format(rupees);
  // two digits of paise when there are any ("₹5.5" → "₹5.50")
  return /\.\d$/.test(s) ? `${s}0` : s;
};

// The dates' formats by language: month names follow the page's
// language (<html lang>: "2 December 2026" in English, "2 दिसंबर 2026" in
// Hindi, as Hugo writes them on the pages); the digits stay Latin.
const tags: Record<Lang, string> = { en: "en-IN", hi: "hi-IN" };
const formats = new Map<string, Intl.DateTimeFormat>();

function format(name: string, options: Intl.DateTimeFormatOptions, lang: Lang = pageLang()): Intl.DateTimeFormat {
  const key = `${lang} ${name}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(tags[lang], options);
    formats.set(key, f);
  }
  return f;
}

const longOptions: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
const shortOptions: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };

/** A day as "YYYY-MM-DD" or an instant as an ISO 8601 string. */
const toDate = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);

/** A date written out, as the pages write it: "2 December 2026" (the UTC day); on a Hindi page "2 दिसंबर 2026". */
export const formatLongDate = (iso: string): string => format("long", longOptions).format(toDate(iso));

/** A date as the cards show it: "2 Dec 2026" (September is "Sept", as on the pages); on a Hindi page "2 दिस॰ 2026". */
export const formatShortDate = (iso: string): string => format("short", shortOptions).format(toDate(iso));

const dateTimeOptions: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
const dateTimeUTCOptions: Intl.DateTimeFormatOptions = { ...dateTimeOptions, timeZone: "UTC" };
const dateTimeSecondsUTCOptions: Intl.DateTimeFormatOptions = { ...dateTimeOptions, second: "2-digit", timeZone: "UTC" };

/** An instant in UTC: "2 Dec 2026, 15:04 UTC" (with seconds: "15:04:05 UTC"). */
export const formatDateTimeUTC = (iso: string, seconds = false): string =>
  `${(seconds ? format("dateTimeSecondsUTC", dateTimeSecondsUTCOptions) : format("dateTimeUTC", dateTimeUTCOptions)).format(new Date(iso))} UTC`;

/** An instant in the reader's time zone: "2 Dec 2026, 20:34". */
export const formatDateTimeLocal = (iso: string): string => new Intl.DateTimeFormat(tags[pageLang()], dateTimeOptions).format(new Date(iso));
