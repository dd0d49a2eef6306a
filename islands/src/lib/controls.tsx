// The form controls every directory island uses, written once.
import type { ReactNode } from "react";
import pagerStrings from "../../../internal/i18n/strings/pager.json";
import { translator } from "./i18n";

const tPager = translator(pagerStrings);

const field =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const button =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800";

export function SearchBox(props: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="relative min-w-0 flex-1">
      <label htmlFor={props.id} className="sr-only">
        {props.label}
      </label>
      <input
        id={props.id}
        type="search"
        className={field}
        placeholder={props.placeholder}
        value={props.value}
        autoComplete="off"
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

export type Option = { value: string; label: string };

export function SelectBox(props: {
  id: string;
  label: string;
  value: string;
  options: Option[];
  onChange: (v: string) => void;
}) {
  return (
    <div className="min-w-0 sm:w-52">
      <label htmlFor={props.id} className="sr-only">
        {props.label}
      </label>
      <select id={props.id} className={field} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

// options makes select options from values, with an "all" entry first.
export function options(allLabel: string, values: string[], label: (v: string) => string = (v) => v): Option[] {
  return [{ value: "all", label: allLabel }, ...values.map((v) => ({ value: v, label: label(v) }))];
}

export function Button(props: { onClick: () => void; disabled?: boolean; children: ReactNode; label?: string }) {
  return (
    <button type="button" className={button} onClick={props.onClick} disabled={props.disabled} aria-label={props.label}>
      {props.children}
    </button>
  );
}

// Toolbar lays the controls out in a row on wide screens, stacked on phones.
export function Toolbar({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div role="search" aria-label={label} className="flex flex-col gap-2 sm:flex-row sm:items-center">
      {children}
    </div>
  );
}

// Pager is "Previous", "Page N of M - label" and "Next"; callers render it
// only when there is more than one page (as on /fintech-leaders).
export function Pager(props: { page: number; pages: number; label: string; onPage: (p: number) => void }) {
  const { page, pages, label, onPage } = props;
  return (
    <nav aria-label={tPager("pager.listPages", { Label: label })} className="mt-4 flex items-center justify-between gap-2">
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {tPager("pager.previous")}
      </Button>
      <span className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
        {tPager("pager.pageOf", { Page: page, Pages: pages, Label: label })}
      </span>
      <Button onClick={() => onPage(page + 1)} disabled={page >= pages}>
        {tPager("pager.next")}
      </Button>
    </nav>
  );
}
