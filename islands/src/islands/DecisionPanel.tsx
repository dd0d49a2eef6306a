// The team's decision on a circular (issue 44), at the end of its page:
// shown only to a signed-in member of an organisation (one picked when
// several). It shows the decision (applicability, reason and note,
// deferred date, owner, due date, status, version), its comments and its
// evidence, and offers only what the API says the user's role may: an
// organisation's canDecide (change the decision, comment, attach
// evidence) and canReviewEvidence (accept or reject evidence), Go's
// teams rules. A change sends the version read; a stale one (409) is
// said in plain words with a way to reload. The values and their names
// are Go's (generator: teamWork); every refusal is the API's message.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { api, ApiError, dataOf, multipart, type Schemas } from "../lib/api";
import { useCurrentUser } from "../lib/auth";
import { inputClass, secondaryButton } from "../lib/styles";
import { dueText, failed, labelOf, longDate, useMembers, useOrganisations, type Choice, type Decision, type Organisation } from "../lib/teams";
import { withProviders } from "../lib/providers";
import { queryClient } from "../lib/query";
import { saveFile } from "../lib/save-file";
import { toast } from "../lib/toast";

// Subject is what the decision is about, as the API's query names it.
type Subject = { type: Decision["subjectType"]; subject: string; provision?: string };
type Evidence = Schemas["Evidence"];
type Comment = Schemas["Comment"];
type Props = Subject & { applicabilities: Choice[]; reasons: Choice[]; statuses: Choice[]; evidenceStates: Choice[]; reopenReasons: Choice[]; maxEvidenceBytes: number };

const muted = "text-sm text-slate-600 dark:text-slate-300";
const label = "block text-sm font-medium";

const subjectQuery = (s: Subject) => ({ type: s.type, subject: s.subject, provision: s.provision });
const decisionKey = (org: string, s: Subject) => ["/organisations/{id}/decision", org, s.type, s.subject, s.provision ?? ""] as const;
const commentsKey = (org: string, s: Subject) => ["/organisations/{id}/decision/comments", org, s.type, s.subject, s.provision ?? ""] as const;
const evidenceKey = (org: string, s: Subject) => ["/organisations/{id}/decision/evidence", org, s.type, s.subject, s.provision ?? ""] as const;

// none is a 404 of a read of the decision: no decision yet.
const none = (err: unknown) => err instanceof ApiError && err.status === 404;

// size writes a file's size: bytes, KB or MB (of 1024), one decimal
// at most.
export function size(n: number): string {
  const one = (x: number) => x.toFixed(1).replace(/\.0$/, "");
  if (n < 1024) return `${n} ${n === 1 ? "byte" : "bytes"}`;
  if (n < 1048576) return `${one(n / 1024)} KB`;
  return `${one(n / 1048576)} MB`;
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

// Current is the decision as stored, in words.
function Current({ d, props, nameOf }: { d: Decision; props: Props; nameOf: (id: string | null) => string }) {
  const r = d.reopened;
  return (
    <>
      {r && (
        <div className="mb-3 rounded-md border border-amber-600 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-400 dark:bg-amber-950/50 dark:text-amber-100" data-decision-reopened>
          <p>
            <span className="font-semibold">Reopened on {longDate(r.at)}:</span> {labelOf(props.reopenReasons, r.reason)}.
          </p>
          {r.replacedBy.length > 0 && (
            <p className="mt-1">
              Replaced by{" "}
              {r.replacedBy.map((c, i) => (
                <span key={c.slug}>
                  {i > 0 && ", "}
                  <a className="underline hover:no-underline" href={`/circulars/${c.slug}`}>
                    {c.circularNumber || c.title}
                  </a>
                </span>
              ))}
              .
            </p>
          )}
        </div>
      )}
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2" data-decision-current data-version={d.version}>
      <Row term="Applies?">
        <span data-decision-applicability>{labelOf(props.applicabilities, d.applicability)}</span>
        {d.reason && <span data-decision-reason>: {labelOf(props.reasons, d.reason)}</span>}
      </Row>
      {d.deferredUntil && <Row term="Decide again on">{longDate(d.deferredUntil)}</Row>}
      <Row term="Status">
        <span data-decision-status>{labelOf(props.statuses, d.status)}</span>
      </Row>
      <Row term="Owner">
        <span data-decision-owner>{d.ownerId ? nameOf(d.ownerId) : "Nobody yet"}</span>
      </Row>
      <Row term="Due">
        <span data-decision-due>{dueText(d)}</span>
        {d.overdue && (
          <span className="ml-2 rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white" data-overdue>
            Overdue
          </span>
        )}
      </Row>
      <Row term="Version">
        {d.version}, by {nameOf(d.decidedBy)} on {longDate(d.decidedAt)}
      </Row>
      {d.note && (
        <div className="sm:col-span-2">
          <dt className="text-slate-600 dark:text-slate-400">Note</dt>
          <dd className="whitespace-pre-line" data-decision-note>
            {d.note}
          </dd>
        </div>
      )}
    </dl>
    </>
  );
}

type Draft = { applicability: string; reason: string; note: string; deferredUntil: string; ownerId: string; due: string; status: string };

const draftOf = (d: Decision | undefined): Draft => ({
  applicability: d?.applicability ?? "applicable",
  reason: d?.reason ?? "",
  note: d?.note ?? "",
  deferredUntil: d?.deferredUntil ?? "",
  ownerId: d?.ownerId ?? "",
  due: d?.due ?? "",
  status: d?.status ?? "new",
});

// DecideForm changes the decision (or makes the first), sending the
// version read.
function DecideForm({ org, s, d, props }: { org: Organisation; s: Subject; d: Decision | undefined; props: Props }) {
  const members = useMembers(org.id);
  const [draft, setDraft] = useState<Draft>(() => draftOf(d));
  const [stale, setStale] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  useEffect(() => setDraft(draftOf(d)), [d]);
  const set = (patch: Partial<Draft>) => setDraft((x) => ({ ...x, ...patch }));
  const save = useMutation({
    mutationFn: () =>
      dataOf(
        api.PUT("/organisations/{id}/decision", {
          params: { path: { id: org.id }, query: subjectQuery(s) },
          body: {
            applicability: draft.applicability as Decision["applicability"],
            reason: draft.applicability === "not-applicable" ? draft.reason : undefined,
            note: draft.note || undefined,
            deferredUntil: draft.applicability === "deferred" ? draft.deferredUntil || null : undefined,
            ownerId: draft.ownerId || undefined,
            due: draft.due || undefined,
            status: draft.status,
            version: d?.version ?? 0,
          },
        }),
      ),
    onSuccess: (saved) => {
      setStale(false);
      setFields({});
      queryClient.setQueryData(decisionKey(org.id, s), saved);
      toast({ title: "Decision saved", description: `Version ${saved.version}.` });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) {
        setStale(true);
        return;
      }
      if (err instanceof ApiError) setFields(err.fields);
      failed("Could not save the decision")(err);
    },
  });
  const reload = () => {
    setStale(false);
    void queryClient.invalidateQueries({ queryKey: decisionKey(org.id, s) });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const err = (f: string) =>
    fields[f] ? (
      <p id={`decide-${f}-error`} className="text-sm text-red-700 dark:text-red-400" data-field-error>
        {fields[f]}
      </p>
    ) : null;
  const invalid = (f: string) => (fields[f] ? { "aria-invalid": true, "aria-describedby": `decide-${f}-error` } : {});
  return (
    <form noValidate className="mt-4 grid gap-4 sm:grid-cols-2" onSubmit={submit} data-decide-form aria-label="Change the decision">
      {stale && (
        <div className="rounded-md border border-amber-600 bg-amber-50 px-3 py-2 text-sm text-amber-950 sm:col-span-2 dark:border-amber-400 dark:bg-amber-950/50 dark:text-amber-100" role="alert" data-stale>
          Someone else changed this decision after you opened it, so yours was not saved. Reload it to see their change, then decide again.{" "}
          <button type="button" className="font-semibold underline" onClick={reload}>
            Reload the decision
          </button>
        </div>
      )}
      <div className="space-y-1">
        <label htmlFor="decide-applicability" className={label}>
          Does it apply?
        </label>
        <select id="decide-applicability" className={inputClass} value={draft.applicability} onChange={(e) => set({ applicability: e.target.value })} {...invalid("applicability")}>
          {props.applicabilities.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        {err("applicability")}
      </div>
      {draft.applicability === "not-applicable" && (
        <div className="space-y-1">
          <label htmlFor="decide-reason" className={label}>
            Reason
          </label>
          <select id="decide-reason" className={inputClass} value={draft.reason} onChange={(e) => set({ reason: e.target.value })} {...invalid("reason")}>
            <option value="">Choose a reason</option>
            {props.reasons.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          {err("reason")}
        </div>
      )}
      {draft.applicability === "deferred" && (
        <div className="space-y-1">
          <label htmlFor="decide-deferred" className={label}>
            Decide again on
          </label>
          <input id="decide-deferred" type="date" className={inputClass} value={draft.deferredUntil} onChange={(e) => set({ deferredUntil: e.target.value })} {...invalid("deferredUntil")} />
          {err("deferredUntil")}
        </div>
      )}
      <div className="space-y-1">
        <label htmlFor="decide-status" className={label}>
          Status
        </label>
        <select id="decide-status" className={inputClass} value={draft.status} onChange={(e) => set({ status: e.target.value })} {...invalid("status")}>
          {props.statuses.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        {err("status")}
      </div>
      <div className="space-y-1">
        <label htmlFor="decide-owner" className={label}>
          Owner
        </label>
        <select id="decide-owner" className={inputClass} value={draft.ownerId} onChange={(e) => set({ ownerId: e.target.value })} {...invalid("ownerId")}>
          <option value="">Nobody yet</option>
          {members.data?.map((m) => (
            <option key={m.userId} value={m.userId}>
              {members.nameOf(m.userId)} (@{m.username})
            </option>
          ))}
        </select>
        {err("ownerId")}
      </div>
      <div className="space-y-1">
        <label htmlFor="decide-due" className={label}>
          Due
        </label>
        <input id="decide-due" className={inputClass} value={draft.due} onChange={(e) => set({ due: e.target.value })} aria-describedby="decide-due-hint" autoComplete="off" {...invalid("due")} />
        <p id="decide-due-hint" className="text-xs text-slate-600 dark:text-slate-300">
          A date (2027-03-31) or days from the circular&apos;s effective date (effective+30d).
        </p>
        {err("due")}
      </div>
      <div className="space-y-1 sm:col-span-2">
        <label htmlFor="decide-note" className={label}>
          Note
        </label>
        <textarea id="decide-note" rows={3} className={inputClass} value={draft.note} onChange={(e) => set({ note: e.target.value })} {...invalid("note")} />
        {err("note")}
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className={secondaryButton} disabled={save.isPending}>
          {save.isPending ? "Saving..." : d ? "Save the decision" : "Record the decision"}
        </button>
      </div>
    </form>
  );
}

// Mentions shows a comment's @usernames of members in bold.
function Body({ text }: { text: string }) {
  const parts = text.split(/(@[\w.-]+)/g);
  return <>{parts.map((p, i) => (i % 2 ? <strong key={i}>{p}</strong> : p))}</>;
}

function Comments({ org, s }: { org: Organisation; s: Subject }) {
  const members = useMembers(org.id);
  const [body, setBody] = useState("");
  const list = useQuery({
    queryKey: commentsKey(org.id, s),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/decision/comments", { params: { path: { id: org.id }, query: subjectQuery(s) }, signal })),
  });
  const add = useMutation({
    mutationFn: () => dataOf(api.POST("/organisations/{id}/decision/comments", { params: { path: { id: org.id }, query: subjectQuery(s) }, body: { body } })),
    onSuccess: (c: Comment) => {
      setBody("");
      void queryClient.invalidateQueries({ queryKey: commentsKey(org.id, s) });
      toast({ title: "Comment added", description: c.mentions.length ? `Mentioned: ${c.mentions.map((id) => members.nameOf(id)).join(", ")}.` : "No one was mentioned." });
    },
    onError: failed("Could not add the comment"),
  });
  return (
    <section className="mt-6" aria-labelledby="decision-comments-heading" data-decision-comments>
      <h3 id="decision-comments-heading" className="text-base font-semibold">
        Comments
      </h3>
      {list.isPending && <p className={muted}>Loading the comments...</p>}
      {list.data?.length === 0 && <p className={muted}>No comments yet.</p>}
      {list.data && list.data.length > 0 && (
        <ol className="mt-2 space-y-2">
          {list.data.map((c) => (
            <li key={c.id} className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700" data-comment>
              <p className="text-xs text-slate-600 dark:text-slate-300">
                {members.nameOf(c.authorId)} on {longDate(c.createdAt)}
              </p>
              <p className="mt-1 whitespace-pre-line">
                <Body text={c.body} />
              </p>
            </li>
          ))}
        </ol>
      )}
      {org.canDecide && (
        <form
          className="mt-3 space-y-2"
          data-comment-form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <label htmlFor="comment-body" className={label}>
            Add a comment
          </label>
          <textarea id="comment-body" rows={2} className={inputClass} value={body} onChange={(e) => setBody(e.target.value)} aria-describedby="comment-hint" />
          <p id="comment-hint" className="text-xs text-slate-600 dark:text-slate-300">
            Mention a member with @ and their username{members.data && members.data.length > 0 ? `: ${members.data.map((m) => "@" + m.username).join(", ")}` : ""}.
          </p>
          <button type="submit" className={secondaryButton} disabled={add.isPending}>
            {add.isPending ? "Adding..." : "Add comment"}
          </button>
        </form>
      )}
    </section>
  );
}

// download saves a file of evidence: the call carries the sign-in, which
// a plain link would not.
async function download(org: string, e: Evidence) {
  try {
    const blob = await dataOf(api.GET("/organisations/{id}/evidence/{evidence}/file", { params: { path: { id: org, evidence: e.id } }, parseAs: "blob" }));
    saveFile(blob as Blob, e.name ?? "evidence");
  } catch (err) {
    failed("Could not download the file")(err);
  }
}

const stateClass: Record<string, string> = {
  pending: "border-slate-400 text-slate-800 dark:text-slate-100",
  accepted: "border-green-700 text-green-800 dark:border-green-400 dark:text-green-300",
  rejected: "border-red-700 text-red-800 dark:border-red-400 dark:text-red-300",
};

function Review({ org, s, e }: { org: Organisation; s: Subject; e: Evidence }) {
  const [note, setNote] = useState("");
  const review = useMutation({
    mutationFn: (decision: "accepted" | "rejected") =>
      dataOf(api.POST("/organisations/{id}/evidence/{evidence}/review", { params: { path: { id: org.id, evidence: e.id } }, body: { decision, note: note || undefined } })),
    onSuccess: (r) => {
      setNote("");
      void queryClient.invalidateQueries({ queryKey: evidenceKey(org.id, s) });
      toast({ title: r.state === "accepted" ? "Evidence accepted" : "Evidence rejected", description: r.reviewNote ?? "" });
    },
    onError: failed("Could not review the evidence"),
  });
  const id = `review-note-${e.id}`;
  return (
    <div className="mt-2 flex flex-wrap items-end gap-2" data-review>
      <div className="min-w-48 flex-1 space-y-1">
        <label htmlFor={id} className="block text-xs font-medium">
          Review note (required to reject)
        </label>
        <input id={id} className={inputClass} value={note} onChange={(ev) => setNote(ev.target.value)} autoComplete="off" />
      </div>
      <button type="button" className={secondaryButton} disabled={review.isPending} onClick={() => review.mutate("accepted")}>
        Accept
      </button>
      <button type="button" className={secondaryButton} disabled={review.isPending} onClick={() => review.mutate("rejected")}>
        Reject
      </button>
    </div>
  );
}

function AddEvidence({ org, s, maxBytes }: { org: Organisation; s: Subject; maxBytes: number }) {
  const [kind, setKind] = useState<"file" | "link">("file");
  const [file, setFile] = useState<File | null>(null);
  const [link, setLink] = useState("");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState("");
  const [inputKey, setInputKey] = useState(0);
  const add = useMutation({
    mutationFn: () =>
      kind === "file"
        ? dataOf(api.POST("/organisations/{id}/decision/evidence", { params: { path: { id: org.id }, query: subjectQuery(s) }, body: note ? { file: file!, note } : { file: file! }, bodySerializer: multipart }))
        : dataOf(api.POST("/organisations/{id}/decision/evidence", { params: { path: { id: org.id }, query: subjectQuery(s) }, body: { link, note: note || undefined } })),
    onSuccess: (e) => {
      setFile(null);
      setLink("");
      setNote("");
      setInputKey((k) => k + 1);
      void queryClient.invalidateQueries({ queryKey: evidenceKey(org.id, s) });
      toast({ title: "Evidence attached", description: e.sha256 ? `SHA-256 ${e.sha256}` : "The link waits for review." });
    },
    onError: (err) => {
      if (err instanceof ApiError) setProblem(err.fields.file ?? err.fields.link ?? "");
      failed("Could not attach the evidence")(err);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProblem("");
    if (kind === "file" && !file) return setProblem("Choose a file.");
    // The limit is Go's (decisions.MaxEvidenceBytes), checked here only to
    // spare uploading what the API would refuse (413).
    if (kind === "file" && file && file.size > maxBytes) return setProblem(`The file is larger than ${size(maxBytes)}.`);
    add.mutate();
  };
  return (
    <form className="mt-3 space-y-3" onSubmit={submit} data-evidence-form aria-label="Attach evidence">
      <fieldset className="flex gap-4 text-sm">
        <legend className="mb-1 text-sm font-medium">Attach evidence</legend>
        <label className="inline-flex items-center gap-2">
          <input type="radio" name="evidence-kind" checked={kind === "file"} onChange={() => setKind("file")} className="accent-brand-700" />A file
        </label>
        <label className="inline-flex items-center gap-2">
          <input type="radio" name="evidence-kind" checked={kind === "link"} onChange={() => setKind("link")} className="accent-brand-700" />A link
        </label>
      </fieldset>
      {kind === "file" ? (
        <div className="space-y-1">
          <label htmlFor="evidence-file" className={label}>
            File (up to {size(maxBytes)})
          </label>
          <input key={inputKey} id="evidence-file" type="file" className="block text-sm" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
      ) : (
        <div className="space-y-1">
          <label htmlFor="evidence-link" className={label}>
            Link (http or https)
          </label>
          <input id="evidence-link" type="url" className={inputClass} value={link} onChange={(e) => setLink(e.target.value)} autoComplete="off" />
        </div>
      )}
      <div className="space-y-1">
        <label htmlFor="evidence-note" className={label}>
          What it shows (optional)
        </label>
        <input id="evidence-note" className={inputClass} value={note} onChange={(e) => setNote(e.target.value)} autoComplete="off" />
      </div>
      {problem && (
        <p className="text-sm text-red-700 dark:text-red-400" role="alert" data-evidence-problem>
          {problem}
        </p>
      )}
      <button type="submit" className={secondaryButton} disabled={add.isPending}>
        {add.isPending ? "Attaching..." : "Attach evidence"}
      </button>
    </form>
  );
}

function EvidenceList({ org, s, maxBytes, states }: { org: Organisation; s: Subject; maxBytes: number; states: Choice[] }) {
  const members = useMembers(org.id);
  const list = useQuery({
    queryKey: evidenceKey(org.id, s),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/decision/evidence", { params: { path: { id: org.id }, query: subjectQuery(s) }, signal })),
  });
  return (
    <section className="mt-6" aria-labelledby="decision-evidence-heading" data-decision-evidence>
      <h3 id="decision-evidence-heading" className="text-base font-semibold">
        Evidence
      </h3>
      {list.isPending && <p className={muted}>Loading the evidence...</p>}
      {list.data?.length === 0 && <p className={muted}>No evidence yet.</p>}
      {list.data && list.data.length > 0 && (
        <ol className="mt-2 space-y-2">
          {list.data.map((e) => (
            <li key={e.id} className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700" data-evidence={e.id} data-evidence-state={e.state}>
              <div className="flex flex-wrap items-center gap-2">
                {e.kind === "file" ? (
                  <button type="button" className="font-medium text-brand-700 underline hover:no-underline dark:text-blue-300" onClick={() => void download(org.id, e)}>
                    {e.name}
                  </button>
                ) : (
                  <a className="font-medium underline hover:no-underline" href={e.link ?? "#"} rel="noopener noreferrer" target="_blank">
                    {e.link}
                  </a>
                )}
                {e.kind === "file" && <span className="text-xs text-slate-600 dark:text-slate-300">{size(e.size)}</span>}
                <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${stateClass[e.state] ?? ""}`} data-evidence-state-label>
                  {labelOf(states, e.state)}
                </span>
              </div>
              {e.sha256 && (
                <p className="mt-1 text-xs">
                  SHA-256{" "}
                  <code className="break-all" data-evidence-sha256>
                    {e.sha256}
                  </code>
                </p>
              )}
              {e.note && <p className="mt-1">{e.note}</p>}
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                Added by {members.nameOf(e.addedBy)} on {longDate(e.addedAt)}
                {e.reviewedAt && `; ${labelOf(states, e.state).toLowerCase()} by ${members.nameOf(e.reviewedBy)} on ${longDate(e.reviewedAt)}`}
                {e.reviewNote && `: ${e.reviewNote}`}
              </p>
              {org.canReviewEvidence && <Review org={org} s={s} e={e} />}
            </li>
          ))}
        </ol>
      )}
      {org.canDecide && <AddEvidence org={org} s={s} maxBytes={maxBytes} />}
    </section>
  );
}

function ForOrganisation({ org, props }: { org: Organisation; props: Props }) {
  const s: Subject = { type: props.type, subject: props.subject, provision: props.provision };
  const members = useMembers(org.id);
  const decision = useQuery({
    queryKey: decisionKey(org.id, s),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/decision", { params: { path: { id: org.id }, query: subjectQuery(s) }, signal })),
    retry: false,
  });
  const d = decision.data;
  const noneYet = decision.isError && none(decision.error);
  return (
    <div data-decision-org={org.id} data-can-decide={org.canDecide} data-can-review={org.canReviewEvidence}>
      {decision.isPending && <p className={muted}>Loading the decision...</p>}
      {decision.isError && !noneYet && <p className="text-sm text-red-700 dark:text-red-300">Could not load the decision.</p>}
      {noneYet && (
        <p className={muted} data-no-decision>
          {org.name} has not decided on this circular yet.
          {org.canDecide ? "" : " Only an admin or a member decides."}
        </p>
      )}
      {d && <Current d={d} props={props} nameOf={members.nameOf} />}
      {org.canDecide && (d || noneYet) && <DecideForm org={org} s={s} d={d} props={props} />}
      {!org.canDecide && (d || noneYet) && (
        <p className={`mt-3 ${muted}`} data-read-only>
          Your role in {org.name} is {org.role}: you {org.canReviewEvidence ? "read the decision and review its evidence" : "read the decision"}.
        </p>
      )}
      {d && <Comments org={org} s={s} />}
      {d && <EvidenceList org={org} s={s} maxBytes={props.maxEvidenceBytes} states={props.evidenceStates} />}
    </div>
  );
}

export function DecisionPanel(props: Props) {
  const { user } = useCurrentUser();
  const orgs = useOrganisations(!!user);
  const [picked, setPicked] = useState("");
  if (!user || !orgs.data || orgs.data.length === 0) return null;
  const org = orgs.data.find((o) => o.id === picked) ?? orgs.data[0];
  return (
    <section className="mt-10 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900" aria-labelledby="decision-heading" data-decision-panel>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="decision-heading" className="text-lg font-semibold">
          Your team&apos;s decision
        </h2>
        {orgs.data.length > 1 ? (
          <label className="text-sm">
            Organisation{" "}
            <select className={`${inputClass} mt-1`} value={org.id} onChange={(e) => setPicked(e.target.value)} data-decision-org-picker>
              {orgs.data.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className={muted}>{org.name}</span>
        )}
      </div>
      <ForOrganisation key={org.id} org={org} props={props} />
      <p className={`mt-4 ${muted}`}>
        <a className="underline hover:no-underline" href="/work/">
          My work
        </a>{" "}
        ·{" "}
        <a className="underline hover:no-underline" href={`/organisation/board/?id=${encodeURIComponent(org.id)}`}>
          Team board
        </a>
      </p>
    </section>
  );
}

export default withProviders(DecisionPanel);
