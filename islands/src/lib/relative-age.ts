// A news item's age, computed in the browser because the HTML is built
// ahead of reading: under 24 hours "N hours ago", otherwise "N days ago"
// (in the page's language).
import strings from "../../../internal/i18n/strings/date.json";
import { dataAge, sel } from "./contract";
import { translator } from "./i18n";

const hour = 3_600_000;

const t = translator(strings);

// relativeAge says how long before now the day began. day is YYYY-MM-DD, a
// calendar date without a time, taken as midnight in the reader's time
// zone; a day later than now counts as 0 hours. "" for a malformed day.
export function relativeAge(day: string, now: Date): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return "";
  const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const hours = Math.max(0, Math.floor((now.getTime() - start.getTime()) / hour));
  if (hours < 24) return t("date.hoursAgo", { Count: hours, N: hours });
  const days = Math.floor(hours / 24);
  return t("date.daysAgo", { Count: days, N: days });
}

// fillAges writes the age into every [data-age="YYYY-MM-DD"] element.
export function fillAges(root: ParentNode, now: Date) {
  for (const el of root.querySelectorAll<HTMLElement>(sel(dataAge))) {
    el.textContent = relativeAge(el.getAttribute(dataAge) ?? "", now);
  }
}
