// Numbers and dates as Indian readers write them, the one place islands
// format them: counts grouped in thousands, lakhs and crores (1,00,000;
// 12,34,56,789), ₹ amounts the same way, dates as "2 December 2026" (the
// pages' templates/_partials/number.html, date.html and date-long.html, and
// the Go side's internal/indian, write the same).

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

const long = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const short = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A day as "YYYY-MM-DD" or an instant as an ISO 8601 string. */
const toDate = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);

/** A date written out, as the pages write it: "2 December 2026" (the UTC day). */
export const formatLongDate = (iso: string): string => long.format(toDate(iso));

/** A date as the cards show it: "2 Dec 2026" (September is "Sept", as on the pages). */
export const formatShortDate = (iso: string): string => short.format(toDate(iso));

const dateTimeOptions: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
const dateTimeUTC = new Intl.DateTimeFormat("en-IN", { ...dateTimeOptions, timeZone: "UTC" });
const dateTimeSecondsUTC = new Intl.DateTimeFormat("en-IN", { ...dateTimeOptions, second: "2-digit", timeZone: "UTC" });

/** An instant in UTC: "2 Dec 2026, 15:04 UTC" (with seconds: "15:04:05 UTC"). */
export const formatDateTimeUTC = (iso: string, seconds = false): string =>
  `${(seconds ? dateTimeSecondsUTC : dateTimeUTC).format(new Date(iso))} UTC`;

/** An instant in the reader's time zone: "2 Dec 2026, 20:34". */
export const formatDateTimeLocal = (iso: string): string => new Intl.DateTimeFormat("en-IN", dateTimeOptions).format(new Date(iso));
