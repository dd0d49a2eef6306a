// A circular card drawn from the API's answer, for lists the islands page
// through GET /api/circulars: the same markup and classes as
// templates/_partials/circular-card.html (and its badges), which draws the
// static pages' cards. The labels of document types and verifications are
// Go's (catalog.DocumentTypeLabel, VerificationLabel), passed in as props.
// The card's Summarize and Impact slot (data-card-actions) is filled by
// the page's CardActions island like a static card's.
import { Fragment } from "react";
import cardStrings from "../../../internal/i18n/strings/card.json";
import circularStrings from "../../../internal/i18n/strings/circular.json";
import navStrings from "../../../internal/i18n/strings/nav.json";
import type { Circular } from "./api";
import { dataCardActions } from "./contract";
import { pagePath, translator } from "./i18n";
import { contentLang, itemLang } from "./lang";
import { formatShortDate } from "./numbers";

export type CardLabels = {
  documentTypes: Record<string, string>;
  verifications: Record<string, { label: string }>;
  // the names of categories that differ from their values (a Hindi
  // page's); a category not named here shows as its value
  categories?: Record<string, string>;
};

/** categoryName is the name a page shows of category c. */
export function categoryName(c: string, labels?: CardLabels): string {
  return labels?.categories?.[c] ?? c;
}

const sourceClasses: Record<string, string> = {
  RBI: "bg-blue-100 text-blue-800 dark:bg-blue-900/60 dark:text-blue-100",
  NPCI: "bg-green-100 text-green-800 dark:bg-green-900/60 dark:text-green-100",
  SEBI: "bg-purple-100 text-purple-800 dark:bg-purple-900/60 dark:text-purple-100",
  IDRBT: "bg-orange-100 text-orange-800 dark:bg-orange-900/60 dark:text-orange-100",
};
const impactClasses: Record<string, string> = {
  high: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-100",
  medium: "bg-yellow-100 text-yellow-900 dark:bg-yellow-900/60 dark:text-yellow-100",
  low: "bg-green-100 text-green-800 dark:bg-green-900/60 dark:text-green-100",
};
const grey = "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100";
// the document types that oblige no one (doctype-badge.html)
const nonBinding = new Set(["draft", "discussion-paper", "consultation-paper", "press-release", "policy"]);
const link = "text-brand-700 hover:underline dark:text-blue-300";
// every directory card's classes (_partials/card-class.html)
export const cardClass = "min-w-0 wrap-anywhere rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900";

const tCard = translator(cardStrings);
const tCircular = translator(circularStrings);
const tNav = translator(navStrings);

// around splits a text with one placeholder at it: the text before and
// after the element put there.
export function around(text: string): [string, string] {
  const at = text.indexOf("\u0000");
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}

// impactLabel is an impact level's badge text ("high Impact"), as
// impact-badge.html writes it.
export function impactLabel(level: string): string {
  return ["high", "medium", "low"].includes(level) ? tCard(`card.impact.${level}`) : tCard("card.impactOther", { Level: level });
}

// cardDate is a date as the cards show it (2 Jan 2006).
export const cardDate = formatShortDate;

// SupersededNote names the circulars replacing c, with links, or says
// from when c is withdrawn when nothing in the catalog replaces it: the
// template's superseded-note.html.
function SupersededNote({ c }: { c: Circular }) {
  const by = c.replacements ?? [];
  if (by.length === 0 && (c.supersededBy ?? []).length === 0 && c.withdrawnOn) {
    const [before, after] = around(tCircular("circular.withEffectFrom", { Date: "\u0000" }));
    return (
      <p
        className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-100"
        data-withdrawn-note=""
      >
        <span className="font-semibold">{tCircular("circular.withdrawn")}</span> {before}
        <time dateTime={c.withdrawnOn}>{cardDate(c.withdrawnOn)}</time>
        {after}
      </p>
    );
  }
  if (by.length === 0) return null;
  return (
    <p
      className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-100"
      data-superseded=""
    >
      <span className="font-semibold">{tCircular("circular.supersededBy")}</span>
      {by.map((r, i) => (
        <Fragment key={r.slug}>
          {i > 0 && ","}{" "}
          {/* The API gives a replacement no lang of its own: its title is
              taken as written in English (the template asks the circular's). */}
          <a className="underline hover:no-underline" href={pagePath(`/circulars/${r.slug}`)} lang={contentLang()}>
            {r.circularNumber && `${r.circularNumber} - `}
            {r.title}
          </a>
        </Fragment>
      ))}
    </p>
  );
}

// The badges and date of a card: the templates' source-badge.html,
// doctype-badge.html, verification-badge.html (with icon.html's check and
// alert) and date.html.
export function SourceBadge({ source }: { source: string }) {
  return (
    <span data-source="" className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${sourceClasses[source] ?? grey}`}>
      {source}
    </span>
  );
}

export function DocTypeBadge({ type, labels }: { type: string; labels: CardLabels }) {
  return (
    <span
      className={
        nonBinding.has(type)
          ? "inline-flex items-center rounded-full border border-dashed border-amber-600 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:border-amber-400 dark:text-amber-100"
          : "inline-flex items-center rounded-full border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 dark:border-slate-600 dark:text-slate-200"
      }
      data-doctype={type}
    >
      {labels.documentTypes[type] ?? type}
    </span>
  );
}

const iconPaths = {
  check: <path d="M20 6 9 17l-5-5" />,
  alert: (
    <>
      <circle cx="12" cy="12" r="10" />
      <path d="M12 8v4M12 16h.01" />
    </>
  ),
};

export function VerificationBadge({ verification, labels }: { verification?: string | null; labels: CardLabels }) {
  const v = verification ? labels.verifications[verification] : undefined;
  if (!v) return null;
  const checked = verification === "checked";
  return (
    <span
      className={
        checked
          ? "inline-flex items-center gap-1 rounded-full border border-emerald-600 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:border-emerald-400 dark:text-emerald-100"
          : "inline-flex items-center gap-1 rounded-full border border-amber-600 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-950 dark:border-amber-400 dark:bg-amber-950/50 dark:text-amber-100"
      }
      data-verification={verification}
    >
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className="h-3 w-3"
      >
        {iconPaths[checked ? "check" : "alert"]}
      </svg>
      {v.label}
    </span>
  );
}

export function CardDate({ iso }: { iso: string }) {
  return <time dateTime={iso}>{cardDate(iso)}</time>;
}

export function CircularCard({ c, labels }: { c: Circular; labels: CardLabels }) {
  const page = pagePath(`/circulars/${c.slug}`);
  const lang = itemLang(c.lang);
  const title = lang ? <span lang={lang}>{c.title}</span> : c.title;
  return (
    <article className={cardClass} data-circular={c.slug}>
      <h3 className="text-base font-semibold leading-snug">
        {c.circularNumber && (
          <>
            <span className="text-slate-600 dark:text-slate-300">{c.circularNumber}</span> -{" "}
          </>
        )}
        {c.officialUrl ? (
          <a href={c.officialUrl} target="_blank" rel="noopener noreferrer" className="hover:underline">
            {title}
            <span className="sr-only"> {tCard("card.officialDocNewTab")}</span>
          </a>
        ) : (
          <a href={page} className="hover:underline">
            {title}
          </a>
        )}
      </h3>
      <SupersededNote c={c} />
      {c.preview && (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300" lang={lang} data-preview="">
          {c.preview}
        </p>
      )}
      {c.summary && (
        <div className="mt-3 rounded-md border-l-4 border-brand-600 bg-brand-50 p-3 text-sm dark:bg-slate-800">
          <p className="font-semibold">{tCard("card.summary")}</p>
          <p className="mt-1 text-slate-700 dark:text-slate-200" lang={contentLang()}>
            {c.summary}
          </p>
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        <SourceBadge source={c.source} />
        <DocTypeBadge type={c.documentType} labels={labels} />
        <VerificationBadge verification={c.verification} labels={labels} />
        <CardDate iso={c.publishedDate} />
        <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${impactClasses[c.impactLevel] ?? grey}`}>{impactLabel(c.impactLevel)}</span>
        <span className="text-slate-400" aria-hidden="true">
          ·
        </span>
        <span>{categoryName(c.category, labels)}</span>
      </div>
      <div className="mt-3 flex flex-wrap gap-4 text-sm font-medium">
        <a href={page} className={link}>
          {tCard("card.details")}
          <span className="sr-only">: {title}</span>
        </a>
        {c.officialUrl && (
          <a href={c.officialUrl} target="_blank" rel="noopener noreferrer" className={link}>
            {tCard("card.viewOfficial")}
            <span className="sr-only"> {tNav("nav.opensInNewTab")}</span>
          </a>
        )}
      </div>
      <div {...{ [dataCardActions]: c.id }} className="min-h-11" />
    </article>
  );
}
