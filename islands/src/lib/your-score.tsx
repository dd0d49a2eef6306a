// The YourScore island's signed-in part (islands/YourScore.tsx loads it
// only when a token is kept): the share of the obligations of the user's
// register (weighted by impact) they marked done or not applicable, as GET
// /api/user/compliance-score computes it; for a member of an organisation,
// the organisation's (its decisions), named.
import { useQuery } from "@tanstack/react-query";
import strings from "../../../internal/i18n/strings/impact.json";
import { scoreQuery, useCurrentUser } from "./auth";
import { pagePath, translator } from "./i18n";
import { withQuery } from "./providers";

const t = translator(strings);

function YourScore({ signedOut }: { signedOut: string }) {
  const { user, isLoading } = useCurrentUser();
  const score = useQuery({ ...scoreQuery, enabled: !!user });
  if (isLoading || (user && score.isPending)) return <p className="text-sm text-slate-600 dark:text-slate-300">{t("impact.loadingScore")}</p>;
  if (!user || !score.data) return <p className="text-sm text-slate-700 dark:text-slate-300">{signedOut}</p>;
  const { score: value, settled, applicable, entityTypes, organisation } = score.data;
  if (organisation)
    return (
      <div className="text-sm" data-your-score data-score-organisation={organisation.id}>
        <p>
          <span className="font-semibold">{t("impact.scoreOf", { Name: organisation.name })}: </span>
          <span className="text-2xl font-bold" data-score-value>
            {value === null ? "-" : `${value}%`}
          </span>
        </p>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          {value === null
            ? t("impact.orgNone", { Name: organisation.name })
            : t("impact.orgSettled", { Settled: settled, Applicable: applicable, Name: organisation.name })}{" "}
          <a className="underline hover:no-underline" href={pagePath(`/organisation?id=${encodeURIComponent(organisation.id)}`)}>
            {organisation.name}
          </a>
        </p>
      </div>
    );
  const setBusiness = t("impact.setBusiness", { Link: "\u0000" }).split("\u0000");
  return (
    <div className="text-sm" data-your-score>
      <p>
        <span className="font-semibold">{t("impact.yourScore")}: </span>
        <span className="text-2xl font-bold" data-score-value>
          {value === null ? "-" : `${value}%`}
        </span>
      </p>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        {value === null
          ? t("impact.youNone")
          : t("impact.youSettled", { Settled: settled, Applicable: applicable })}{" "}
        <a className="underline hover:no-underline" href={pagePath("/obligations")}>
          {t("impact.myObligations")}
        </a>
        {entityTypes.length === 0 && (
          <>
            {" "}
            {setBusiness[0]}
            <a className="underline hover:no-underline" href={pagePath("/profile")}>
              {t("impact.yourProfile")}
            </a>
            {setBusiness[1]}
          </>
        )}
      </p>
    </div>
  );
}

export default withQuery(YourScore);
