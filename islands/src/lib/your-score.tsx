// The YourScore island's signed-in part (islands/YourScore.tsx loads it
// only when a token is kept): the share of the obligations of the user's
// register (weighted by impact) they marked done or not applicable, as GET
// /api/user/compliance-score computes it; for a member of an organisation,
// the organisation's (its decisions), named.
import { useQuery } from "@tanstack/react-query";
import { scoreQuery, useCurrentUser } from "./auth";
import { withQuery } from "./providers";

function YourScore({ signedOut }: { signedOut: string }) {
  const { user, isLoading } = useCurrentUser();
  const score = useQuery({ ...scoreQuery, enabled: !!user });
  if (isLoading || (user && score.isPending)) return <p className="text-sm text-slate-600 dark:text-slate-300">Loading your score...</p>;
  if (!user || !score.data) return <p className="text-sm text-slate-700 dark:text-slate-300">{signedOut}</p>;
  const { score: value, settled, applicable, entityTypes, organisation } = score.data;
  if (organisation)
    return (
      <div className="text-sm" data-your-score data-score-organisation={organisation.id}>
        <p>
          <span className="font-semibold">Compliance score of {organisation.name}: </span>
          <span className="text-2xl font-bold" data-score-value>
            {value === null ? "-" : `${value}%`}
          </span>
        </p>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          {value === null
            ? `No obligation applies to ${organisation.name}'s kinds of business yet.`
            : `${settled} of ${applicable} obligations that apply to ${organisation.name} are decided done or not applicable, weighted by impact.`}{" "}
          <a className="underline hover:no-underline" href={`/organisation?id=${encodeURIComponent(organisation.id)}`}>
            {organisation.name}
          </a>
        </p>
      </div>
    );
  return (
    <div className="text-sm" data-your-score>
      <p>
        <span className="font-semibold">Your compliance score: </span>
        <span className="text-2xl font-bold" data-score-value>
          {value === null ? "-" : `${value}%`}
        </span>
      </p>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        {value === null
          ? "No obligation applies to you yet."
          : `${settled} of ${applicable} obligations that apply to you are marked done or not applicable, weighted by impact.`}{" "}
        <a className="underline hover:no-underline" href="/obligations">
          My obligations
        </a>
        {entityTypes.length === 0 && (
          <>
            {" "}
            (set your business on{" "}
            <a className="underline hover:no-underline" href="/profile">
              your profile
            </a>
            )
          </>
        )}
      </p>
    </div>
  );
}

export default withQuery(YourScore);
