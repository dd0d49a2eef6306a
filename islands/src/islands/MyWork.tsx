// /work/: what the signed-in user owns across their organisations
// (GET /user/work), soonest due first as the API orders it, a page at a
// time, each item linking to its subject's page. Overdue is the API's
// word (a decision's overdue and the work's X-Overdue-Count, Go's
// decisions.OverdueOn), shown, never recomputed. Signed out, it sends
// the user to /login and back.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { answered, api, userMessage } from "../lib/api";
import { useCurrentUser } from "../lib/auth";
import { Pager } from "../lib/controls";
import strings from "../../../internal/i18n/strings/work.json";
import { pagePath, translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { useQueryState } from "../lib/query-state";
import { type Choice } from "../lib/teams";
import { WorkRow } from "../lib/work-row";
import { formatCount } from "../lib/numbers";

// pageSize is a page of the work: well under the API's largest.
export const pageSize = 50;

const t = translator(strings);

type Props = { statuses: Choice[] };

const muted = "text-sm text-slate-600 dark:text-slate-300";

function MyWork({ statuses }: Props) {
  const { user, isLoading } = useCurrentUser();
  useEffect(() => {
    if (!isLoading && !user) window.location.replace(pagePath("/login") + "?next=" + pagePath("/work/"));
  }, [isLoading, user]);
  const [state, set] = useQueryState({ page: "1" });
  const page = Math.max(1, Number.parseInt(state.page, 10) || 1);
  const work = useQuery({
    queryKey: ["/user/work", page],
    queryFn: async ({ signal }) => {
      const { data, response } = await answered(api.GET("/user/work", { params: { query: { limit: pageSize, offset: (page - 1) * pageSize || undefined } }, signal }));
      const count = (name: string) => Number(response.headers.get(name) ?? 0);
      return { items: data, total: count("X-Total-Count"), overdue: count("X-Overdue-Count") };
    },
    enabled: !!user,
    placeholderData: keepPreviousData,
  });
  if (!user) return <p className={muted} role="status">{t("work.loadingAccount")}</p>;
  if (work.isPending) return <p className={muted}>{t("work.loading")}</p>;
  if (work.isError) return <p className="text-sm text-red-700 dark:text-red-300">{userMessage(work.error, t("work.notLoaded"))}</p>;
  const { items, total, overdue } = work.data;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="space-y-3" data-my-work>
      <p className="text-sm" data-work-summary>
        {total === 0
          ? t("work.nothing")
          : overdue
            ? t("work.openOverdue", { Count: total, N: formatCount(total), Overdue: formatCount(overdue) })
            : t("work.open", { Count: total, N: formatCount(total) })}
      </p>
      {items.length > 0 && (
        <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" data-work-list>
          {items.map((d) => (
            <WorkRow key={`${d.organisationId}/${d.subjectType}/${d.subjectId}/${d.provision ?? ""}`} d={d} statuses={statuses} extra={d.organisationName} />
          ))}
        </ol>
      )}
      {pages > 1 && <Pager page={page} pages={pages} label={t("work.yourWork")} onPage={(p) => set({ page: String(p) })} />}
    </div>
  );
}

export default withProviders(MyWork);
