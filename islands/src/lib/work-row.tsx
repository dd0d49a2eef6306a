// A decision as the work lists show it (/work/, the team board).
import strings from "../../../internal/i18n/strings/work.json";
import { pagePath, translator } from "./i18n";
import { dueText, labelOf, type Choice, type Decision } from "./teams";

const t = translator(strings);

// subjectName is a subject type's name (lower case: the row capitalises it).
const subjectName = (type: string) => (`work.subject.${type}` in strings ? t(`work.subject.${type}`) : type);

// WorkRow is one decision of a work list or the board: its subject
// linked to its page, its status and due date, overdue marked; extra is
// what the list adds (its organisation, its owner).
export function WorkRow({ d, statuses, extra }: { d: Decision; statuses: Choice[]; extra?: string }) {
  const title = d.subjectTitle || t("work.gone", { Type: subjectName(d.subjectType) });
  return (
    <li
      className={`grid gap-1 p-3 sm:grid-cols-[1fr_auto] sm:items-center ${d.overdue ? "border-l-4 border-red-700 bg-red-50 dark:border-red-400 dark:bg-red-950/40" : ""}`}
      data-work-item={d.subjectId}
      data-overdue={d.overdue}
    >
      <div className="min-w-0">
        <p className="font-medium">{d.subjectPath ? <a className="underline hover:no-underline" href={pagePath(d.subjectPath)}>{title}</a> : title}</p>
        <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-300">
          <span className="capitalize">{subjectName(d.subjectType)}</span>
          {extra && ` · ${extra}`} · <span data-work-status>{labelOf(statuses, d.status)}</span>
        </p>
      </div>
      <p className="text-sm sm:text-right">
        <span data-work-due>{dueText(d)}</span>
        {d.overdue && (
          <span className="ml-2 rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white" data-overdue-label>
            {t("work.overdue")}
          </span>
        )}
      </p>
    </li>
  );
}
