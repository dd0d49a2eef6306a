// /obligations: the signed-in user's register. The API decides what is in
// it (the user's entity types), each obligation's due-date group and the
// score; this island shows them, sets statuses and notes, filters and
// searches (in the URL), shows each obligation's history and exports the
// register as CSV. While the server proposes the obligations of new
// circulars (after a sync, in the background), it says so and reloads the
// register when that is done. Signed out, it sends the user to /login and
// back.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { answered, api, dataOf, listAll, userMessage, type Schemas } from "../lib/api";
import { ownScoreQuery, preferencesQuery, useCurrentUser } from "../lib/auth";
import { SearchBox, SelectBox, Toolbar, options } from "../lib/controls";
import { inputClass, primaryButton, secondaryButton } from "../lib/forms";
import strings from "../../../internal/i18n/strings/obligations.json";
import { pagePath, translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { DueGroups, ItemSummary, labelOf, longDate, ScoreLine, type RegisterOptions } from "../lib/register-view";
import { queryClient } from "../lib/query";
import { useQueryState } from "../lib/query-state";
import { toast } from "../lib/toast";
import { saveFile } from "../lib/save-file";
import { formatCount, formatDateTimeLocal } from "../lib/numbers";

const t = translator(strings);

type Item = Schemas["RegisterItem"];
type Props = RegisterOptions;

const defaults = { status: "all", group: "all", q: "" };


// registerQuery is the register's query as the API takes it.
function registerQuery(s: typeof defaults) {
  return { status: s.status === "all" ? undefined : (s.status as Item["status"]), group: s.group === "all" ? undefined : (s.group as Item["dueGroup"]), search: s.q.trim() || undefined };
}

// refresh reloads what a status change moves: the register and the score.
function refresh() {
  void queryClient.invalidateQueries({ queryKey: ["/user/obligations"] });
  void queryClient.invalidateQueries({ queryKey: ["/user/compliance-score"] });
}

function History({ id }: { id: string }) {
  const h = useQuery({ queryKey: ["/user/obligations/{id}/history", id], queryFn: ({ signal }) => dataOf(api.GET("/user/obligations/{id}/history", { params: { path: { id } }, signal })) });
  if (h.isPending) return <p className="text-xs text-slate-600 dark:text-slate-300">{t("obligations.loadingHistory")}</p>;
  if (h.isError) return <p className="text-xs text-red-700 dark:text-red-300">{t("obligations.historyNotLoaded")}</p>;
  if (h.data.length === 0) return <p className="text-xs text-slate-600 dark:text-slate-300">{t("obligations.noChanges")}</p>;
  return (
    <ol className="space-y-1 text-xs text-slate-700 dark:text-slate-300" data-history>
      {h.data.map((c, i) => (
        <li key={i}>
          <time dateTime={c.changedAt}>{formatDateTimeLocal(c.changedAt)}</time>: {c.status}
          {c.note ? ` - ${c.note}` : ""}
        </li>
      ))}
    </ol>
  );
}

function Row({ item, props }: { item: Item; props: Props }) {
  const [note, setNote] = useState(item.note);
  const [history, setHistory] = useState(false);
  useEffect(() => setNote(item.note), [item.note]);
  const save = useMutation({
    mutationFn: (body: Schemas["ObligationStatusRequest"]) => dataOf(api.PUT("/user/obligations/{id}", { params: { path: { id: item.id } }, body })),
    onSuccess: (it) => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: ["/user/obligations/{id}/history"] });
      toast({ title: t("obligations.saved"), description: `${labelOf(props.statuses, it.status)}: ${it.what}` });
    },
    onError: (err) => toast({ title: t("obligations.notSaved"), description: userMessage(err, t("obligations.somethingWrong")), variant: "destructive" }),
  });
  const sid = `status-${item.id}`;
  const nid = `note-${item.id}`;
  return (
    <li className="grid gap-3 p-4 md:grid-cols-[1fr_14rem]" data-register-item={item.id} data-status={item.status}>
      <div className="min-w-0">
        <ItemSummary item={item} props={props} />
        <button type="button" className="mt-2 text-xs underline hover:no-underline" aria-expanded={history} onClick={() => setHistory(!history)}>
          {history ? t("obligations.hideHistory") : t("obligations.showHistory")}
        </button>
        {history && (
          <div className="mt-1">
            <History id={item.id} />
          </div>
        )}
      </div>
      <div className="space-y-2">
        <label htmlFor={sid} className="block text-xs font-medium">
          {t("obligations.status")}
        </label>
        <select id={sid} className={inputClass} value={item.status} disabled={save.isPending} onChange={(e) => save.mutate({ status: e.target.value as Item["status"], note })}>
          {props.statuses.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <label htmlFor={nid} className="block text-xs font-medium">
          {t("obligations.note")}
        </label>
        <textarea id={nid} rows={2} maxLength={2000} className={inputClass} value={note} onChange={(e) => setNote(e.target.value)} />
        <button type="button" className={secondaryButton} disabled={save.isPending || note === item.note} onClick={() => save.mutate({ status: item.status, note })}>
          {t("obligations.saveNote")}
        </button>
      </div>
    </li>
  );
}

// extractionPoll is how often the extraction's progress is asked while it
// runs.
export const extractionPoll = 2000;

// Extraction says the server is reading new circulars for obligations,
// how far it is, and reloads the register and the score when it ends.
function Extraction() {
  const e = useQuery({
    queryKey: ["/obligations/extraction"],
    queryFn: ({ signal }) => dataOf(api.GET("/obligations/extraction", { signal })),
    refetchInterval: (q) => (q.state.data?.running ? extractionPoll : false),
  });
  const running = e.data?.running ?? false;
  const was = useRef(running);
  useEffect(() => {
    if (was.current && !running) refresh();
    was.current = running;
  }, [running]);
  if (!e.data?.running) return null;
  const { done, total } = e.data;
  return (
    <p className="rounded-md border border-sky-600 px-3 py-2 text-sm dark:border-sky-400" role="status" data-extraction>
      {t("obligations.extraction", { Done: formatCount(done), Total: formatCount(total) })}
    </p>
  );
}

function Score() {
  const s = useQuery(ownScoreQuery);
  if (!s.data) return null;
  return <ScoreLine title={t("obligations.yourScore")} score={s.data} />;
}

// ConfirmInForce is the in-force group's one-time confirmation: what fell
// due before the register began tracking is not overdue, and the user
// says once, with a note, that the business complies (the API marks
// each done and records it in its history).
function ConfirmInForce({ items, since }: { items: Item[]; since?: string }) {
  const [note, setNote] = useState("");
  const open = items.filter((it) => it.status !== "done" && it.status !== "not-applicable").length;
  const confirm = useMutation({
    mutationFn: (body: Schemas["ConfirmInForceRequest"]) => dataOf(api.POST("/user/obligations/confirm", { body })),
    onSuccess: (r) => {
      refresh();
      setNote("");
      toast({ title: t("obligations.confirmed"), description: t("obligations.confirmedDetail", { Count: r.confirmed, N: r.confirmed }) });
    },
    onError: (err) => toast({ title: t("obligations.notConfirmed"), description: userMessage(err, t("obligations.somethingWrong")), variant: "destructive" }),
  });
  return (
    <div className="mt-2 space-y-2 rounded-md border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900" data-confirm-in-force>
      <p>
        {since ? t("obligations.inForceSince", { Date: longDate(since.slice(0, 10)) }) : t("obligations.inForce")}
      </p>
      {open > 0 ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            confirm.mutate({ note: note.trim() });
          }}
        >
          <label className="grow text-xs font-medium">
            {t("obligations.noteForEach")}
            <input className={`${inputClass} mt-1`} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} placeholder={t("obligations.notePlaceholder")} />
          </label>
          <button type="submit" className={primaryButton} disabled={confirm.isPending}>
            {confirm.isPending ? t("obligations.confirming") : t("obligations.confirmAll", { N: formatCount(open) })}
          </button>
        </form>
      ) : (
        <p className="text-slate-600 dark:text-slate-300" data-confirmed>
          {t("obligations.allConfirmed")}
        </p>
      )}
    </div>
  );
}

async function exportCSV(query: ReturnType<typeof registerQuery>) {
  try {
    const csv = await dataOf(api.GET("/user/obligations.csv", { params: { query }, parseAs: "blob" }));
    saveFile(csv, "regpulse-my-obligations.csv");
  } catch (err) {
    toast({ title: t("obligations.notExported"), description: userMessage(err, t("obligations.somethingWrong")), variant: "destructive" });
  }
}

function ObligationsRegister(props: Props) {
  const { user, isLoading } = useCurrentUser();
  const [state, set] = useQueryState(defaults);
  const [q, setQ] = useState(state.q);
  useEffect(() => {
    if (!isLoading && !user) window.location.replace(pagePath("/login") + "?next=" + pagePath("/obligations"));
  }, [isLoading, user]);
  // The search waits for a pause in typing before it asks the API.
  useEffect(() => {
    const t = setTimeout(() => set({ q }), 250);
    return () => clearTimeout(t);
  }, [q, set]);
  const query = registerQuery(state);
  const prefs = useQuery({ ...preferencesQuery, enabled: !!user });
  const items = useQuery({
    queryKey: ["/user/obligations", { query }] as const,
    queryFn: ({ signal }) => listAll((offset) => answered(api.GET("/user/obligations", { params: { query: { ...query, limit: 100, offset } }, signal }))),
    enabled: !!user,
  });
  if (!user) return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">{t("obligations.loadingAccount")}</p>;
  const noTypes = prefs.data && prefs.data.entityTypes.length === 0;
  return (
    <div className="space-y-6" data-register>
      {noTypes && (
        <p className="rounded-md border border-amber-600 px-3 py-2 text-sm dark:border-amber-400" data-no-entity-types>
          {t("obligations.noTypes")}{" "}
          <a className="underline" href={pagePath("/profile")}>
            {t("obligations.chooseBusiness")}
          </a>
          {t("obligations.fullStop")}
        </p>
      )}
      <Extraction />
      <Score />
      <Toolbar label={t("obligations.filter")}>
        <SearchBox id="register-search" label={t("obligations.search")} placeholder={t("obligations.searchPlaceholder")} value={q} onChange={setQ} />
        <SelectBox id="register-status" label={t("obligations.status")} value={state.status} options={options(t("obligations.allStatuses"), props.statuses.map((s) => s.value), (v) => labelOf(props.statuses, v))} onChange={(status) => set({ status })} />
        <SelectBox id="register-group" label={t("obligations.due")} value={state.group} options={options(t("obligations.anyDue"), props.groups.map((g) => g.value), (v) => labelOf(props.groups, v))} onChange={(group) => set({ group })} />
        <button type="button" className={secondaryButton} onClick={() => void exportCSV(query)}>
          {t("obligations.exportCsv")}
        </button>
      </Toolbar>
      {items.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">{t("obligations.loading")}</p>}
      {items.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(items.error, t("obligations.notLoaded"))}</p>}
      {items.data && (
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite" data-register-count>
          {t("obligations.count", { Count: items.data.length, N: formatCount(items.data.length) })}
        </p>
      )}
      {items.data && items.data.length === 0 && <p className="text-sm">{t("obligations.noMatch")}</p>}
      <DueGroups
        items={items.data ?? []}
        groups={props.groups}
        head={(g, its) => g === "in-force" && <ConfirmInForce items={its} since={user.createdAt} />}
        row={(it) => <Row key={it.id} item={it} props={props} />}
      />
    </div>
  );
}

export default withProviders(ObligationsRegister);
