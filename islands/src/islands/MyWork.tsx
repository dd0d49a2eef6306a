// /work/: what the signed-in user owns across their organisations
// (GET /user/work), soonest due first as the API orders it, each item
// linking to its subject's page. Overdue is the API's word (a decision's
// overdue, Go's decisions.OverdueOn), shown, never recomputed. Signed
// out, it sends the user to /login and back.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, dataOf, userMessage } from "../lib/api";
import { useCurrentUser } from "../lib/auth";
import { withProviders } from "../lib/providers";
import { type Choice } from "../lib/teams";
import { WorkRow } from "../lib/work-row";

type Props = { statuses: Choice[] };

const muted = "text-sm text-slate-600 dark:text-slate-300";

function MyWork({ statuses }: Props) {
  const { user, isLoading } = useCurrentUser();
  useEffect(() => {
    if (!isLoading && !user) window.location.replace("/login?next=/work/");
  }, [isLoading, user]);
  const work = useQuery({ queryKey: ["/user/work"], queryFn: ({ signal }) => dataOf(api.GET("/user/work", { signal })), enabled: !!user });
  if (!user) return <p className={muted} role="status">Loading your account...</p>;
  if (work.isPending) return <p className={muted}>Loading your work...</p>;
  if (work.isError) return <p className="text-sm text-red-700 dark:text-red-300">{userMessage(work.error, "Could not load your work.")}</p>;
  const overdue = work.data.filter((d) => d.overdue).length;
  return (
    <div className="space-y-3" data-my-work>
      <p className="text-sm" data-work-summary>
        {work.data.length === 0
          ? "Nothing is yours to do: no open decision of your organisations has you as its owner."
          : `${work.data.length} open ${work.data.length === 1 ? "item" : "items"}${overdue ? `, ${overdue} overdue` : ""}.`}
      </p>
      {work.data.length > 0 && (
        <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" data-work-list>
          {work.data.map((d) => (
            <WorkRow key={`${d.organisationId}/${d.subjectType}/${d.subjectId}/${d.provision ?? ""}`} d={d} statuses={statuses} extra={d.organisationName} />
          ))}
        </ol>
      )}
    </div>
  );
}

export default withProviders(MyWork);
