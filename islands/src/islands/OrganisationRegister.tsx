// /organisation/register?id=: an organisation's register, read-only. The
// API decides what is in it (the organisation's kinds of business), each
// obligation's status (its decision's), its due-date group (counted from
// the day the organisation was made) and the organisation's score; this
// island shows them with the pieces /obligations uses. Statuses change
// through the organisation's decisions, never here. Signed out, it sends
// the user to /login and back.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { answered, api, listAll, userMessage, type Schemas } from "../lib/api";
import { useCurrentUser } from "../lib/auth";
import { withProviders } from "../lib/providers";
import { useQueryState } from "../lib/query-state";
import { DueGroups, ItemSummary, labelOf, longDate, ScoreLine, type RegisterOptions } from "../lib/register-view";
import { formatCount } from "../lib/numbers";

type Register = Schemas["OrganisationRegister"];

// registerOf reads every page of the organisation's register: the first
// answer's organisation and score with all the items.
async function registerOf(id: string, signal: AbortSignal): Promise<Register> {
  let first: Register | undefined;
  const items = await listAll(async (offset) => {
    const r = await answered(api.GET("/organisations/{id}/register", { params: { path: { id }, query: { limit: 100, offset } }, signal }));
    first ??= r.data;
    return { data: r.data.items, response: r.response };
  });
  return { ...first!, items };
}

function Register({ id, props }: { id: string; props: RegisterOptions }) {
  const reg = useQuery({ queryKey: ["/organisations/{id}/register", id], queryFn: ({ signal }) => registerOf(id, signal), retry: false });
  if (reg.isPending) return <p className="text-sm text-slate-600 dark:text-slate-300">Loading the register...</p>;
  if (reg.isError)
    return (
      <p className="rounded-md border border-red-600 px-3 py-2 text-sm text-red-700 dark:border-red-400 dark:text-red-300" role="alert" data-organisation-error>
        {userMessage(reg.error, "Could not load the register.")}
      </p>
    );
  const { organisation: org, score, items, trackingSince, entityTypes } = reg.data;
  const back = `/organisation?id=${encodeURIComponent(org.id)}`;
  // The in-force group's label speaks to a user of their own register
  // ("you began tracking"); here it is the organisation's.
  const groups = props.groups.map((g) => (g.value === "in-force" ? { ...g, label: `In force before ${org.name} began tracking` } : g));
  return (
    <div className="space-y-6" data-organisation-register={org.id}>
      <p className="text-sm" data-register-of>
        The register of <a className="font-semibold underline hover:no-underline" href={back}>{org.name}</a>:{" "}
        {entityTypes.length > 0 ? `the obligations of ${entityTypes.map((t) => labelOf(props.entityTypes, t)).join(", ")} and of all regulated entities` : "the obligations of all regulated entities"}, tracked since{" "}
        {longDate(trackingSince.slice(0, 10))}.
      </p>
      <p className="rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-600" data-read-only>
        This register is read-only: an obligation's status here is the organisation's decision on it, and changes only when a member decides it again.
      </p>
      <ScoreLine title={`Compliance score of ${org.name}`} score={score} />
      <p className="text-sm text-slate-600 dark:text-slate-300" data-register-count>
        {formatCount(items.length)} {items.length === 1 ? "obligation" : "obligations"}
      </p>
      {items.length === 0 && <p className="text-sm">No obligations apply to this organisation's kinds of business yet.</p>}
      <DueGroups
        items={items}
        groups={groups}
        head={(g) =>
          g === "in-force" && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300" data-in-force-note>
              They fell due before the organisation was made, so they are in force, not overdue: a member confirms each by deciding it.
            </p>
          )
        }
        row={(it) => (
          <li key={it.id} className="grid gap-3 p-4 md:grid-cols-[1fr_10rem]" data-register-item={it.id} data-status={it.status}>
            <div className="min-w-0">
              <ItemSummary item={it} props={props} />
              {it.note && <p className="mt-2 text-xs text-slate-700 dark:text-slate-300">Note: {it.note}</p>}
            </div>
            <p className="text-sm">
              <span className="block text-xs font-medium">Status</span>
              <span className="font-semibold" data-item-status>
                {labelOf(props.statuses, it.status)}
              </span>
            </p>
          </li>
        )}
      />
    </div>
  );
}

function OrganisationRegister(props: RegisterOptions) {
  const { user, isLoading } = useCurrentUser();
  const [state] = useQueryState({ id: "" });
  useEffect(() => {
    if (!isLoading && !user) window.location.replace("/login?next=" + encodeURIComponent(window.location.pathname + window.location.search));
  }, [isLoading, user]);
  if (!user) return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">Loading your account...</p>;
  if (!state.id)
    return (
      <p className="text-sm" data-no-organisation>
        Which organisation? Choose one on <a className="underline" href="/organisation">your organisations</a> and follow its register's link.
      </p>
    );
  return <Register key={state.id} id={state.id} props={props} />;
}

export default withProviders(OrganisationRegister);
