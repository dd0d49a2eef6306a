// "Follow this Master Direction" on a direction's page
// (templates/direction.html): signed in, it follows or unfollows
// (PUT/DELETE /api/direction-follows/{slug}), and each new version of
// the direction is then e-mailed with its redline; signed out, it leads
// through sign-in and back to the page, which then follows it
// (?follow=1, removed once done). The static fallback is the signed-out
// link, so without JavaScript the page says how to follow.
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, dataOf, userMessage, type Schemas } from "../lib/api";
import { signInAndBack, useCurrentUser, useResumed } from "../lib/auth";
import strings from "../../../internal/i18n/strings/directions.json";
import { followButton, followParam, followsQuery } from "../lib/follows";
import { pagePath, translator } from "../lib/i18n";
import { withQuery } from "../lib/providers";
import { queryClient } from "../lib/query";

export type Props = { slug: string };
type Follow = Schemas["Follow"];

const note = "text-sm text-slate-700 dark:text-slate-300";
const link = "font-medium text-brand-700 underline dark:text-blue-300";
const t = translator(strings);

function FollowDirection({ slug }: Props) {
  const { user, isLoading } = useCurrentUser();
  const follows = useQuery({ ...followsQuery, enabled: !!user });
  const following = follows.data?.some((f) => f.direction === slug) ?? false;
  // The answer shows at once (a list read before the change may still be
  // on its way), then the list is read again.
  const done = (change: (fs: Follow[]) => Follow[]) => {
    queryClient.setQueryData(followsQuery.queryKey, (fs) => change(fs ?? []));
    void queryClient.invalidateQueries({ queryKey: followsQuery.queryKey });
  };
  const follow = useMutation({
    mutationFn: () => dataOf(api.PUT("/direction-follows/{slug}", { params: { path: { slug } } })),
    onSuccess: (f) => done((fs) => [...fs.filter((x) => x.direction !== slug), f]),
  });
  const unfollow = useMutation({
    mutationFn: () => dataOf(api.DELETE("/direction-follows/{slug}", { params: { path: { slug } } })),
    onSuccess: () => done((fs) => fs.filter((x) => x.direction !== slug)),
  });
  // Back from sign-in with ?follow=1: follow once.
  useResumed(followParam, !isLoading && !!user, follow.mutate);

  const busy = isLoading || follow.isPending || unfollow.isPending || (!!user && follows.isPending);
  const failed = follow.error ?? unfollow.error ?? follows.error;
  let button, text;
  if (!user && !isLoading) {
    button = (
      <a className={followButton} href={signInAndBack(followParam)}>
        {t("directions.follow")}
      </a>
    );
    text = t("directions.followSignIn");
  } else if (following) {
    button = (
      <button type="button" className={followButton} disabled={busy} onClick={() => unfollow.mutate()}>
        {t("directions.stopFollowing")}
      </button>
    );
    text = (
      <>
        {t("directions.youFollow")}{" "}
        <a className={link} href={pagePath("/profile") + "#alerts"}>
          {t("directions.manageAlerts")}
        </a>
      </>
    );
  } else {
    button = (
      <button type="button" className={followButton} disabled={busy} onClick={() => follow.mutate()}>
        {t("directions.follow")}
      </button>
    );
    text = t("directions.followNote");
  }
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1" data-follow-direction={following ? "following" : "not-following"}>
      {button}
      <p role="status" className={failed ? "text-sm text-red-700 dark:text-red-300" : note}>
        {failed ? userMessage(failed, t("directions.followFailed")) : text}
      </p>
    </div>
  );
}

export default withQuery(FollowDirection);
