// Any date, or any two dates, of a Master Direction (templates/direction.html):
// the static pages have its text on each version's date and each version
// compared with the one before and the latest; this island asks the API
// for the text on another day (GET /master-directions/{slug}/text) or
// what changed between two (GET .../compare), and shows the answer as the
// pages do: provisions in order, and word redlines whose insertions and
// deletions a screen reader announces. Everything shown is the API's
// (the kinds' labels are the build's); nothing is recomputed here.
import { useQuery } from "@tanstack/react-query";
import { Fragment, useId, useState, type FormEvent, type ReactNode } from "react";
import strings from "../../../internal/i18n/strings/directions.json";
import { api, ApiError, dataOf, type Schemas } from "../lib/api";
import { contentLang } from "../lib/lang";
import { pagePath, translator } from "../lib/i18n";
import { withQuery } from "../lib/providers";
import { formatCount, formatLongDate } from "../lib/numbers";

type Segment = Schemas["Segment"];
type Change = Schemas["Change"];

export type Props = {
  slug: string;
  // the first day there is a text, and today (the build's)
  issued: string;
  today: string;
  // the change kinds' labels, as the static pages write them
  labels: Record<string, string>;
};

const long = formatLongDate;
const t = translator(strings);

// fill is the text of key with some placeholders filled by elements (a
// date's <time>, links): the text in the page's language, split where
// each element goes.
function fill(key: string, nodes: Record<string, ReactNode>): ReactNode[] {
  const mark = "\u0000";
  const text = t(key, Object.fromEntries(Object.keys(nodes).map((k) => [k, mark + k + mark])));
  return text.split(mark).map((part, i) => <Fragment key={i}>{i % 2 === 1 && part in nodes ? nodes[part] : part}</Fragment>);
}

export function Redline({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.op === "insert" ? (
          <ins key={i} data-redline="insert" className="rounded-sm bg-emerald-100 px-0.5 text-emerald-950 underline decoration-2 underline-offset-2 dark:bg-emerald-900/60 dark:text-emerald-50">
            <span className="sr-only">{t("directions.srInserted")}</span>
            <span lang={contentLang()}>{s.text}</span>
            <span className="sr-only">]</span>
          </ins>
        ) : s.op === "delete" ? (
          <del key={i} data-redline="delete" className="rounded-sm bg-rose-100 px-0.5 text-rose-950 line-through decoration-2 dark:bg-rose-900/60 dark:text-rose-50">
            <span className="sr-only">{t("directions.srDeleted")}</span>
            <span lang={contentLang()}>{s.text}</span>
            <span className="sr-only">]</span>
          </del>
        ) : (
          <span key={i} lang={contentLang()}>
            {s.text}
          </span>
        ),
      )}
    </>
  );
}

function amendedBy(c: Change) {
  return c.by.map((a) => {
    const names = [...a.circulars.map((s) => ({ title: s, url: pagePath(`/circulars/${s}`) })), ...(a.amending ? [{ title: a.amending.title, url: pagePath(a.amending.url ?? "") }] : [])];
    return (
      <span key={a.date}>
        {fill(names.length > 0 ? "directions.changedOnBy" : "directions.changedOn", {
          Date: <time dateTime={a.date}>{long(a.date)}</time>,
          By: names.map((n, i) => (
            <span key={i}>
              {i > 0 && "; "}
              {n.url ? (
                <a className="underline hover:no-underline" href={n.url} lang={contentLang()}>
                  {n.title}
                </a>
              ) : (
                <span lang={contentLang()}>{n.title}</span>
              )}
            </span>
          )),
        })}{" "}
      </span>
    );
  });
}

function DirectionDates({ slug, issued, today, labels }: Props) {
  const id = useId();
  const [asked, setAsked] = useState<{ kind: "text"; date: string } | { kind: "compare"; from: string; to: string } | null>(null);
  const text = useQuery({
    queryKey: ["direction-text", slug, asked],
    enabled: asked?.kind === "text",
    queryFn: ({ signal }) =>
      dataOf(api.GET("/master-directions/{slug}/text", { params: { path: { slug }, query: { date: asked?.kind === "text" ? asked.date : undefined } }, signal })),
  });
  const compare = useQuery({
    queryKey: ["direction-compare", slug, asked],
    enabled: asked?.kind === "compare",
    queryFn: ({ signal }) =>
      dataOf(
        api.GET("/master-directions/{slug}/compare", {
          params: { path: { slug }, query: asked?.kind === "compare" ? { from: asked.from, to: asked.to } : { from: today } },
          signal,
        }),
      ),
  });
  const submitText = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const date = String(new FormData(e.currentTarget).get("date") ?? "");
    if (date) setAsked({ kind: "text", date });
  };
  const submitCompare = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const from = String(f.get("from") ?? ""), to = String(f.get("to") ?? "");
    if (from && to) setAsked({ kind: "compare", from, to });
  };
  const input = "mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-900";
  const button = "rounded-md bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-800 dark:bg-blue-600 dark:hover:bg-blue-500";
  const error = text.error ?? compare.error;
  const errorText = error instanceof ApiError ? (error.serverMessage ?? error.message) : error?.message;
  return (
    <div className="space-y-4" data-direction-dates>
      <div className="flex flex-wrap gap-6">
        <form onSubmit={submitText} className="flex flex-wrap items-end gap-2" aria-label={t("directions.formText")}>
          <label className="text-sm font-medium">
            {t("directions.dateOfText")}
            <input className={input} type="date" name="date" min={issued} required defaultValue={today} id={`${id}-date`} />
          </label>
          <button className={button} type="submit">{t("directions.showText")}</button>
        </form>
        <form onSubmit={submitCompare} className="flex flex-wrap items-end gap-2" aria-label={t("directions.formCompare")}>
          <label className="text-sm font-medium">
            {t("directions.from")}
            <input className={input} type="date" name="from" min={issued} required defaultValue={issued} />
          </label>
          <label className="text-sm font-medium">
            {t("directions.to")}
            <input className={input} type="date" name="to" min={issued} required defaultValue={today} />
          </label>
          <button className={button} type="submit">{t("directions.compare")}</button>
        </form>
      </div>
      <div aria-live="polite" data-direction-answer>
        {(text.isFetching || compare.isFetching) && <p className="text-sm">{t("directions.loading")}</p>}
        {error && <p className="text-sm text-rose-800 dark:text-rose-200" role="alert">{t("directions.loadFailed", { Error: errorText ?? "" })}</p>}
        {asked?.kind === "text" && text.data && (
          <section aria-label={t("directions.textOn", { Date: long(text.data.date) })}>
            <p className="text-sm font-medium" data-direction-answer-summary>
              {text.data.provisions.length === 0
                ? t("directions.notYetIssued", { Date: long(text.data.date) })
                : t(text.data.inForce ? "directions.textInForce" : "directions.textLastInForce", { Date: long(text.data.date), N: formatCount(text.data.provisions.length) })}
            </p>
            <ol className="mt-2 space-y-2">
              {text.data.provisions.map((p) => (
                <li key={p.id} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" data-provision={p.id}>
                  <p className="font-semibold" lang={contentLang()}>
                    {p.id}
                    {p.heading ? ` ${p.heading}` : ""}
                  </p>
                  <p className="mt-1" lang={contentLang()}>
                    {p.text}
                  </p>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{p.wording === "digest" ? t("directions.digestWording") : t("directions.officialWording")}</p>
                </li>
              ))}
            </ol>
          </section>
        )}
        {asked?.kind === "compare" && compare.data && (
          <section aria-label={t("directions.changesTitle", { From: long(compare.data.from), To: long(compare.data.to) })}>
            <p className="text-sm font-medium" data-direction-answer-summary>
              {t("directions.compareAnswer", {
                From: long(compare.data.from),
                To: long(compare.data.to),
                Changed: formatCount(compare.data.changed),
                Added: formatCount(compare.data.added),
                Removed: formatCount(compare.data.removed),
              })}
              {compare.data.unknown.length > 0 && " " + t("directions.unknownAnswer", { Dates: compare.data.unknown.map((u) => long(u.date)).join(", ") })}
            </p>
            <ol className="mt-2 space-y-2">
              {compare.data.changes.map((c) => (
                <li key={c.anchor} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" data-change={c.kind} data-provision={c.provision}>
                  <p className="font-semibold">
                    <span className="mr-2 rounded border border-slate-400 px-1.5 py-0.5 text-xs uppercase">{labels[c.kind] ?? c.kind}</span>
                    {c.provision}
                    {c.was ? t("directions.was", { Was: c.was }) : ""}
                  </p>
                  <p className="mt-1">
                    <Redline segments={c.redline} />
                  </p>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{amendedBy(c)}</p>
                </li>
              ))}
            </ol>
          </section>
        )}
      </div>
    </div>
  );
}

export default withQuery(DirectionDates);
