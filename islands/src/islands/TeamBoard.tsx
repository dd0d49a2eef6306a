// /organisation/board/: an organisation's decisions (GET
// /organisations/{id}/decisions), by due date as the API orders them,
// filtered by status, owner and due before a day, a page at a time; the
// filters and the page are in the URL (?id=&status=&owner=&due_before=&page=).
// A member's work is the board filtered by that owner. An admin (the
// organisation's canManageMembers: Go's rule, which the reassignment
// call checks) moves every open item of one member to another in one
// call and is told how many moved. Any member exports the register for
// an inspection (XLSX or PDF) and sees the file's SHA-256. Another organisation's board is the
// API's 404, in its words. Signed out, it sends the user to sign in.
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { answered, api, dataOf, userMessage } from "../lib/api";
import { useCurrentUser } from "../lib/auth";
import { Pager } from "../lib/controls";
import strings from "../../../internal/i18n/strings/board.json";
import orgStrings from "../../../internal/i18n/strings/organisation.json";
import { pagePath, translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { queryClient } from "../lib/query";
import { fileName, saveFile } from "../lib/save-file";
import { useQueryState } from "../lib/query-state";
import { inputClass, secondaryButton } from "../lib/styles";
import { failed, useMembers, useOrganisations, type Choice, type Decision, type Organisation } from "../lib/teams";
import { toast } from "../lib/toast";
import { WorkRow } from "../lib/work-row";
import { formatCount } from "../lib/numbers";

const t = translator(strings);
const tOrg = translator(orgStrings);

// roleName is a role as the reassignment's choices name it, in lower case.
const roleName = (r: string) => (`organisation.role.${r}` in orgStrings ? tOrg(`organisation.role.${r}`).toLowerCase() : r);

type Props = { statuses: Choice[] };

// pageSize is the board's page: well under the API's largest.
export const pageSize = 20;

const muted = "text-sm text-slate-600 dark:text-slate-300";
const defaults = { id: "", status: "", owner: "", due_before: "", page: "1" };
type Filters = typeof defaults;

const boardKey = (id: string) => ["/organisations/{id}/decisions", id] as const;

function Reassign({ org }: { org: Organisation }) {
  const members = useMembers(org.id);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [moved, setMoved] = useState("");
  const move = useMutation({
    mutationFn: () => dataOf(api.POST("/organisations/{id}/reassign", { params: { path: { id: org.id } }, body: { from, to } })),
    onSuccess: (r) => {
      const text = t("board.moved", { Count: r.reassigned, N: r.reassigned, From: members.nameOf(from), To: members.nameOf(to) });
      setMoved(text);
      void queryClient.invalidateQueries({ queryKey: boardKey(org.id) });
      void queryClient.invalidateQueries({ queryKey: ["/user/work"] });
      toast({ title: t("board.reassigned"), description: text });
    },
    onError: failed(t("board.notReassigned")),
  });
  const select = (id: string, text: string, value: string, set: (v: string) => void) => (
    <div className="min-w-48 flex-1 space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {text}
      </label>
      <select id={id} className={inputClass} value={value} onChange={(e) => set(e.target.value)}>
        <option value="">{t("board.chooseMember")}</option>
        {members.data?.map((m) => (
          <option key={m.userId} value={m.userId}>
            {members.nameOf(m.userId)} ({roleName(m.role)})
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900" aria-labelledby="reassign-heading" data-reassign>
      <h2 id="reassign-heading" className="text-base font-semibold">
        {t("board.reassignHeading")}
      </h2>
      <p className={`mt-1 ${muted}`}>{t("board.reassignLead")}</p>
      <form
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setMoved("");
          move.mutate();
        }}
      >
        {select("reassign-from", t("board.from"), from, setFrom)}
        {select("reassign-to", t("board.to"), to, setTo)}
        <button type="submit" className={secondaryButton} disabled={move.isPending || !from || !to}>
          {move.isPending ? t("board.moving") : t("board.reassign")}
        </button>
      </form>
      <p className="mt-2 min-h-5 text-sm font-medium" role="status" data-reassigned>
        {moved}
      </p>
    </section>
  );
}

// Export downloads the organisation's register for an inspection (GET
// /organisations/{id}/export, any member) as XLSX or PDF, and shows the
// file's SHA-256 as the API's X-Export-Sha256 gives it: the hash its
// audit trail records.
function Export({ org }: { org: Organisation }) {
  const [done, setDone] = useState<{ name: string; sha256: string } | null>(null);
  const run = useMutation({
    mutationFn: async (format: "xlsx" | "pdf") => {
      const { data, response } = await answered(api.GET("/organisations/{id}/export", { params: { path: { id: org.id }, query: { format } }, parseAs: "blob" }));
      return { blob: data as Blob, name: fileName(response.headers.get("Content-Disposition"), `register.${format}`), sha256: response.headers.get("X-Export-Sha256") ?? "" };
    },
    onSuccess: (f) => {
      saveFile(f.blob, f.name);
      setDone({ name: f.name, sha256: f.sha256 });
    },
    onError: failed(t("board.notExported")),
  });
  return (
    <div className="flex flex-col items-start gap-1" data-board-export>
      <div className="flex gap-2">
        <button type="button" className={secondaryButton} disabled={run.isPending} onClick={() => run.mutate("xlsx")}>
          {t("board.exportXlsx")}
        </button>
        <button type="button" className={secondaryButton} disabled={run.isPending} onClick={() => run.mutate("pdf")}>
          {t("board.exportPdf")}
        </button>
      </div>
      {run.isPending && <p className={muted}>{t("board.preparing")}</p>}
      {done && (
        <p className="text-xs" role="status" data-export-done>
          {done.name}: SHA-256{" "}
          <code className="break-all" data-export-sha256>
            {done.sha256}
          </code>
        </p>
      )}
    </div>
  );
}

function Board({ org, statuses, state, set }: { org: Organisation; statuses: Choice[]; state: Filters; set: (p: Partial<Filters>) => void }) {
  const members = useMembers(org.id);
  const page = Math.max(1, Number.parseInt(state.page, 10) || 1);
  const board = useQuery({
    queryKey: [...boardKey(org.id), state.status, state.owner, state.due_before, page],
    queryFn: async ({ signal }) => {
      const { data, response } = await answered(
        api.GET("/organisations/{id}/decisions", {
          params: {
            path: { id: org.id },
            query: {
              status: (state.status || undefined) as Decision["status"] | undefined,
              owner: state.owner || undefined,
              due_before: state.due_before || undefined,
              limit: pageSize,
              offset: (page - 1) * pageSize || undefined,
            },
          },
          signal,
        }),
      );
      return { items: data, total: Number(response.headers.get("X-Total-Count") ?? data.length) };
    },
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((board.data?.total ?? 0) / pageSize));
  const ownerName = state.owner ? members.nameOf(state.owner) : "";
  return (
    <section className="space-y-3" aria-labelledby="board-heading" data-board={org.id}>
      <h2 id="board-heading" className="text-lg font-semibold">
        {ownerName ? t("board.ownerWork", { Owner: ownerName, Org: org.name }) : t("board.decisionsOf", { Org: org.name })}
      </h2>
      <Export org={org} />
      <form className="grid gap-3 sm:grid-cols-3" role="search" aria-label={t("board.filter")} onSubmit={(e) => e.preventDefault()}>
        <div className="space-y-1">
          <label htmlFor="board-status" className="block text-sm font-medium">
            {t("board.status")}
          </label>
          <select id="board-status" className={inputClass} value={state.status} onChange={(e) => set({ status: e.target.value, page: "1" })}>
            <option value="">{t("board.everyStatus")}</option>
            {statuses.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="board-owner" className="block text-sm font-medium">
            {t("board.owner")}
          </label>
          <select id="board-owner" className={inputClass} value={state.owner} onChange={(e) => set({ owner: e.target.value, page: "1" })}>
            <option value="">{t("board.everyMember")}</option>
            {members.data?.map((m) => (
              <option key={m.userId} value={m.userId}>
                {members.nameOf(m.userId)}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="board-due" className="block text-sm font-medium">
            {t("board.dueBefore")}
          </label>
          <input id="board-due" type="date" className={inputClass} value={state.due_before} onChange={(e) => set({ due_before: e.target.value, page: "1" })} />
        </div>
      </form>
      {board.isPending && <p className={muted}>{t("board.loading")}</p>}
      {board.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(board.error, t("board.notLoaded"))}</p>}
      {board.data && (
        <>
          <p className={muted} aria-live="polite" data-board-total>
            {board.data.total === 0 ? t("board.noMatch") : t("board.count", { Count: board.data.total, N: formatCount(board.data.total) })}
          </p>
          {board.data.items.length > 0 && (
            <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" data-board-list>
              {board.data.items.map((d) => (
                <WorkRow key={`${d.subjectType}/${d.subjectId}/${d.provision ?? ""}`} d={d} statuses={statuses} extra={d.ownerId ? t("board.ownerIs", { Name: members.nameOf(d.ownerId) }) : t("board.noOwner")} />
              ))}
            </ol>
          )}
          {pages > 1 && <Pager page={page} pages={pages} label={t("board.decisions")} onPage={(p) => set({ page: String(p) })} />}
        </>
      )}
    </section>
  );
}

function Selected({ id, statuses, state, set }: { id: string; statuses: Choice[]; state: Filters; set: (p: Partial<Filters>) => void }) {
  const org = useQuery({
    queryKey: ["/organisations/{id}", id],
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}", { params: { path: { id } }, signal })),
    retry: false,
  });
  if (org.isPending) return <p className={muted}>{t("board.loadingOrg")}</p>;
  if (org.isError)
    return (
      <p className="rounded-md border border-red-600 px-3 py-2 text-sm text-red-700 dark:border-red-400 dark:text-red-300" role="alert" data-board-error>
        {userMessage(org.error, t("board.orgNotLoaded"))}
      </p>
    );
  return (
    <div className="space-y-6">
      <Board org={org.data} statuses={statuses} state={state} set={set} />
      {org.data.canManageMembers && <Reassign org={org.data} />}
    </div>
  );
}

function TeamBoard({ statuses }: Props) {
  const { user, isLoading } = useCurrentUser();
  const [state, set] = useQueryState(defaults);
  useEffect(() => {
    if (!isLoading && !user) window.location.replace(pagePath("/login") + "?next=" + encodeURIComponent(pagePath("/organisation/board/")));
  }, [isLoading, user]);
  const orgs = useOrganisations(!!user);
  const id = state.id || orgs.data?.[0]?.id || "";
  if (!user) return <p className={muted} role="status">{t("board.loadingAccount")}</p>;
  return (
    <div className="space-y-6" data-team-board>
      {orgs.data && orgs.data.length > 1 && (
        <nav aria-label={t("board.yourOrgs")} className="flex flex-wrap gap-2">
          {orgs.data.map((o) => (
            <a
              key={o.id}
              href={pagePath(`/organisation/board/?id=${encodeURIComponent(o.id)}`)}
              aria-current={o.id === id ? "page" : undefined}
              className="rounded-md border border-slate-300 px-3 py-2 text-sm no-underline hover:bg-slate-50 aria-[current=page]:border-brand-700 aria-[current=page]:font-semibold dark:border-slate-600 dark:hover:bg-slate-800"
              onClick={(e) => {
                e.preventDefault();
                set({ ...defaults, id: o.id });
              }}
            >
              {o.name}
            </a>
          ))}
        </nav>
      )}
      {orgs.data?.length === 0 && !state.id && (
        <p className="text-sm" data-no-organisations>
          {t("board.noOrgs")}{" "}
          <a className="underline" href={pagePath("/organisation")}>
            {t("board.createOrAccept")}
          </a>
          {t("board.fullStop")}
        </p>
      )}
      {id && <Selected key={id} id={id} statuses={statuses} state={state} set={set} />}
    </div>
  );
}

export default withProviders(TeamBoard);
