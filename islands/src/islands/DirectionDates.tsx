// Any date, or any two dates, of a Master Direction (templates/direction.html):
// the static pages have its text on each version's date and each version
// compared with the one before and the latest; this island asks the API
// for the text on another day (GET /master-directions/{slug}/text) or
// what changed between two (GET .../compare), and shows the answer as the
// pages do: provisions in order, and word redlines whose insertions and
// deletions a screen reader announces. Everything shown is the API's
// (the kinds' labels are the build's); nothing is recomputed here.
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, type Schemas } from "../lib/api";
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

export function Redline({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.op === "insert" ? (
          <ins key={i} data-redline="insert" className="rounded-sm bg-emerald-100 px-0.5 text-emerald-950 underline decoration-2 underline-offset-2 dark:bg-emerald-900/60 dark:text-emerald-50">
            <span className="sr-only">[inserted: </span>
            {s.text}
            <span className="sr-only">]</span>
          </ins>
        ) : s.op === "delete" ? (
          <del key={i} data-redline="delete" className="rounded-sm bg-rose-100 px-0.5 text-rose-950 line-through decoration-2 dark:bg-rose-900/60 dark:text-rose-50">
            <span className="sr-only">[deleted: </span>
            {s.text}
            <span className="sr-only">]</span>
          </del>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

function amendedBy(c: Change) {
  return c.by.map((a) => {
    const names = [...a.circulars.map((s) => ({ title: s, url: `/circulars/${s}` })), ...(a.amending ? [{ title: a.amending.title, url: a.amending.url ?? "" }] : [])];
    return (
      <span key={a.date}>
        Changed <time dateTime={a.date}>{long(a.date)}</time>
        {names.length > 0 && " by "}
        {names.map((n, i) => (
          <span key={i}>
            {i > 0 && "; "}
            {n.url ? <a className="underline hover:no-underline" href={n.url}>{n.title}</a> : n.title}
          </span>
        ))}
        .{" "}
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
        <form onSubmit={submitText} className="flex flex-wrap items-end gap-2" aria-label="The text on a date">
          <label className="text-sm font-medium">
            Date of the text
            <input className={input} type="date" name="date" min={issued} required defaultValue={today} id={`${id}-date`} />
          </label>
          <button className={button} type="submit">Show the text</button>
        </form>
        <form onSubmit={submitCompare} className="flex flex-wrap items-end gap-2" aria-label="Compare two dates">
          <label className="text-sm font-medium">
            From
            <input className={input} type="date" name="from" min={issued} required defaultValue={issued} />
          </label>
          <label className="text-sm font-medium">
            To
            <input className={input} type="date" name="to" min={issued} required defaultValue={today} />
          </label>
          <button className={button} type="submit">Compare</button>
        </form>
      </div>
      <div aria-live="polite" data-direction-answer>
        {(text.isFetching || compare.isFetching) && <p className="text-sm">Loading…</p>}
        {error && <p className="text-sm text-rose-800 dark:text-rose-200" role="alert">Could not load it: {errorText}</p>}
        {asked?.kind === "text" && text.data && (
          <section aria-label={`The text on ${long(text.data.date)}`}>
            <p className="text-sm font-medium" data-direction-answer-summary>
              {text.data.provisions.length === 0
                ? `Not yet issued on ${long(text.data.date)}.`
                : `The text in force on ${long(text.data.date)}${text.data.inForce ? "" : " (no longer in force: its last text)"}: ${formatCount(text.data.provisions.length)} provisions.`}
            </p>
            <ol className="mt-2 space-y-2">
              {text.data.provisions.map((p) => (
                <li key={p.id} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" data-provision={p.id}>
                  <p className="font-semibold">
                    {p.id}
                    {p.heading ? ` ${p.heading}` : ""}
                  </p>
                  <p className="mt-1">{p.text}</p>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{p.wording === "digest" ? "Digest, not the official wording." : "Official wording."}</p>
                </li>
              ))}
            </ol>
          </section>
        )}
        {asked?.kind === "compare" && compare.data && (
          <section aria-label={`Changes from ${long(compare.data.from)} to ${long(compare.data.to)}`}>
            <p className="text-sm font-medium" data-direction-answer-summary>
              From {long(compare.data.from)} to {long(compare.data.to)}: {formatCount(compare.data.changed)} changed, {formatCount(compare.data.added)} inserted and {formatCount(compare.data.removed)} deleted.
              {compare.data.unknown.length > 0 && ` Updates whose changes are not recorded: ${compare.data.unknown.map((u) => long(u.date)).join(", ")}.`}
            </p>
            <ol className="mt-2 space-y-2">
              {compare.data.changes.map((c) => (
                <li key={c.anchor} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" data-change={c.kind} data-provision={c.provision}>
                  <p className="font-semibold">
                    <span className="mr-2 rounded border border-slate-400 px-1.5 py-0.5 text-xs uppercase">{labels[c.kind] ?? c.kind}</span>
                    {c.provision}
                    {c.was ? ` (was ${c.was})` : ""}
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
