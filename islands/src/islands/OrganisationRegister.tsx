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
import strings from "../../../internal/i18n/strings/register.json";
import { pagePath, translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { useQueryState } from "../lib/query-state";
import { DueGroups, ItemSummary, labelOf, longDate, ScoreLine, type RegisterOptions } from "../lib/register-view";
import { formatCount } from "../lib/numbers";

const t = translator(strings);

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
  if (reg.isPending) return <p className="text-sm text-slate-600 dark:text-slate-300">{t("register.loading")}</p>;
  if (reg.isError)
    return (
      <p className="rounded-md border border-red-600 px-3 py-2 text-sm text-red-700 dark:border-red-400 dark:text-red-300" role="alert" data-organisation-error>
        {userMessage(reg.error, t("register.notLoaded"))}
      </p>
    );
  const { organisation: org, score, items, trackingSince, entityTypes } = reg.data;
  const back = pagePath(`/organisation?id=${encodeURIComponent(org.id)}`);
  // The in-force group's label speaks to a user of their own register
  // ("you began tracking"); here it is the organisation's.
  const groups = props.groups.map((g) => (g.value === "in-force" ? { ...g, label: t("register.inForceBefore", { Name: org.name }) } : g));
  return (
    <div className="space-y-6" data-organisation-register={org.id}>
      <p className="text-sm" data-register-of>
        {t("register.ofBefore")}{" "}
        <a className="font-semibold underline hover:no-underline" href={back}>
          {org.name}
        </a>
        {entityTypes.length > 0
          ? t("register.ofTypes", { Types: entityTypes.map((e) => labelOf(props.entityTypes, e)).join(", "), Date: longDate(trackingSince.slice(0, 10)) })
          : t("register.ofAll", { Date: longDate(trackingSince.slice(0, 10)) })}
      </p>
      <p className="rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-600" data-read-only>
        {t("register.readOnly")}
      </p>
      <ScoreLine title={t("register.scoreOf", { Name: org.name })} score={score} />
      <p className="text-sm text-slate-600 dark:text-slate-300" data-register-count>
        {t("register.count", { Count: items.length, N: formatCount(items.length) })}
      </p>
      {items.length === 0 && <p className="text-sm">{t("register.noneApply")}</p>}
      <DueGroups
        items={items}
        groups={groups}
        head={(g) =>
          g === "in-force" && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300" data-in-force-note>
              {t("register.inForceNote")}
            </p>
          )
        }
        row={(it) => (
          <li key={it.id} className="grid gap-3 p-4 md:grid-cols-[1fr_10rem]" data-register-item={it.id} data-status={it.status}>
            <div className="min-w-0">
              <ItemSummary item={it} props={props} />
              {it.note && <p className="mt-2 text-xs text-slate-700 dark:text-slate-300">{t("register.note", { Note: it.note })}</p>}
            </div>
            <p className="text-sm">
              <span className="block text-xs font-medium">{t("register.status")}</span>
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
    if (!isLoading && !user) window.location.replace(pagePath("/login") + "?next=" + encodeURIComponent(window.location.pathname + window.location.search));
  }, [isLoading, user]);
  if (!user) return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">{t("register.loadingAccount")}</p>;
  if (!state.id)
    return (
      <p className="text-sm" data-no-organisation>
        {t("register.whichOrg")}{" "}
        <a className="underline" href={pagePath("/organisation")}>
          {t("register.yourOrgs")}
        </a>
        {t("register.followLink")}
      </p>
    );
  return <Register key={state.id} id={state.id} props={props} />;
}

export default withProviders(OrganisationRegister);
