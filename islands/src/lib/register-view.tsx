// The pieces of a register's page that the user's own register
// (/obligations) and an organisation's (/organisation/register) share:
// an obligation's summary, the due-date groups and the score line. The
// API decides what is in a register, each obligation's group and the
// score; these only show them.
import type { ReactNode } from "react";
import type { Schemas } from "./api";
import type { Option } from "./controls";
import { formatLongDate } from "./numbers";
import strings from "../../../internal/i18n/strings/register.json";
import { pagePath, translator } from "./i18n";

const t = translator(strings);

export type RegisterItem = Schemas["RegisterItem"];
export type ComplianceScore = Schemas["ComplianceScore"];

// RegisterOptions are the labels the page's template passes (Go's
// statuses, due-date groups, kinds and entity types).
export type RegisterOptions = { statuses: Option[]; groups: Option[]; kinds: Option[]; entityTypes: Option[] };

export const labelOf = (opts: Option[], v: string) => opts.find((o) => o.value === v)?.label ?? v;

export const longDate = formatLongDate;

// ItemSummary is what an obligation is: what it asks, when it is due,
// whom it binds, its kind, its circular (linked) and, when its Master
// Direction changed after it was written, a call to review it.
export function ItemSummary({ item, props }: { item: RegisterItem; props: RegisterOptions }) {
  const who = item.appliesTo.includes("all") ? t("register.allEntities") : item.appliesTo.map((e) => labelOf(props.entityTypes, e)).join(", ");
  const deadline = item.dueDate ? longDate(item.dueDate) : (item.deadline ?? t("register.noDeadline"));
  return (
    <>
      <p className="font-medium">{item.what}</p>
      <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
        <span>
          <span className="font-semibold">{t("register.due")}</span> {deadline}
        </span>
        <span>{who}</span>
        <span>{labelOf(props.kinds, item.kind)}</span>
        {item.origin === "extracted" && <span className="italic">{item.accepted ? t("register.acceptedExtraction") : t("register.machineExtracted")}</span>}
      </p>
      <p className="mt-1 text-xs">
        <a className="underline hover:no-underline" href={pagePath(`/circulars/${item.circularSlug}`)} data-item-circular>
          {item.source}: {item.circularTitle}
        </a>
      </p>
      {item.review && (
        <p
          className="mt-2 rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:border-amber-600 dark:bg-amber-950/50 dark:text-amber-100"
          data-obligation-review=""
        >
          <span className="font-semibold">{t("register.changedReview")}</span>{" "}
          {item.review.provisions.length > 0
            ? t("register.paragraphsOf", {
                Count: item.review.provisions.length,
                List: item.review.provisions.join(", "),
                Direction: item.cites?.directionName ?? t("register.itsDirection"),
              })
            : (item.cites?.directionName ?? t("register.itsDirectionStart"))}{" "}
          {t("register.changedFrom", { Date: longDate(item.review.since) })}{" "}
          <a className="underline hover:no-underline" href={pagePath(`${item.review.compare}/`)}>
            {t("register.compare")}
          </a>
          {t("register.fullStop")}
        </p>
      )}
    </>
  );
}

// DueGroups lists items by the API's due-date group, in the template's
// order of the groups, empty groups left out; head adds what a group
// shows above its list (the in-force group's confirmation).
export function DueGroups({
  items,
  groups,
  row,
  head,
}: {
  items: RegisterItem[];
  groups: Option[];
  row: (it: RegisterItem) => ReactNode;
  head?: (group: string, items: RegisterItem[]) => ReactNode;
}) {
  const shown = groups.map((g) => ({ ...g, items: items.filter((it) => it.dueGroup === g.value) })).filter((g) => g.items.length > 0);
  return (
    <>
      {shown.map((g) => (
        <section key={g.value} aria-labelledby={`group-${g.value}`} data-due-group={g.value}>
          <h2 id={`group-${g.value}`} className="text-lg font-semibold">
            {g.label} <span className="text-sm font-normal text-slate-600 dark:text-slate-300">({g.items.length})</span>
          </h2>
          {head?.(g.value, g.items)}
          <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">{g.items.map(row)}</ul>
        </section>
      ))}
    </>
  );
}

// ScoreLine is a register's compliance score, titled for whose it is.
export function ScoreLine({ title, score }: { title: string; score: ComplianceScore }) {
  return (
    <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900" data-register-score>
      <span className="font-semibold">{title}: </span>
      <span data-score-value>{score.score === null ? t("register.noScore") : `${score.score}%`}</span>
      <span className="text-slate-600 dark:text-slate-300">
        {" "}
        {t("register.scoreDetail", { Settled: score.settled, Applicable: score.applicable })}
      </span>
    </p>
  );
}
