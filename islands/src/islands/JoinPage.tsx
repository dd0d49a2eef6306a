// /join/?token=...: the page an invitation e-mail links to (Go's
// teams.AcceptPath). Signed out, it asks the reader to sign in or create
// an account and come back here (?next=); signed in, Join accepts the
// invitation (POST /invites/accept) and goes to the organisation. The API
// answers who may accept: each refusal is said in plain words with its
// message.
import { useMutation } from "@tanstack/react-query";
import { api, ApiError, dataOf, userMessage } from "../lib/api";
import { useCurrentUser } from "../lib/auth";
import { primaryButton, secondaryButton } from "../lib/forms";
import strings from "../../../internal/i18n/strings/join.json";
import { pagePath, translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { toastAfterNavigation } from "../lib/toast";

const t = translator(strings);

// refusals are the headlines of POST /invites/accept's refusals, by
// status (api/organisations.go's opAcceptInvite); the API's message
// follows.
const refusals: Record<number, string> = {
  400: "join.invalid",
  403: "join.otherAddress",
  404: "join.gone",
  409: "join.used",
  410: "join.expired",
};

function Refusal({ err }: { err: unknown }) {
  const status = err instanceof ApiError ? err.status : 0;
  return (
    <div className="rounded-md border border-red-600 px-4 py-3 text-sm dark:border-red-400" role="alert" data-join-refused={status}>
      <p className="font-semibold text-red-700 dark:text-red-300">{t(refusals[status] ?? "join.couldNotJoin")}</p>
      <p className="mt-1">{userMessage(err, t("join.somethingWrong"))}</p>
      {status === 409 && (
        <p className="mt-2">
          <a className="underline" href={pagePath("/organisation")}>
            {t("join.seeOrgs")}
          </a>
        </p>
      )}
    </div>
  );
}

function JoinPage() {
  const { user, isLoading } = useCurrentUser();
  const token = new URLSearchParams(window.location.search).get("token") ?? "";
  const accept = useMutation({
    mutationFn: () => dataOf(api.POST("/invites/accept", { body: { token } })),
    onSuccess: (o) => {
      toastAfterNavigation({ title: t("join.joined"), description: t(`join.nowRole.${o.role}`, { Name: o.name }) });
      window.location.assign(pagePath(`/organisation?id=${encodeURIComponent(o.id)}`));
    },
  });
  if (!token) {
    return (
      <p className="text-sm" role="alert" data-join-no-token>
        {t("join.noToken")}
      </p>
    );
  }
  if (isLoading) return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">{t("join.loadingAccount")}</p>;
  if (!user) {
    const next = encodeURIComponent(window.location.pathname + window.location.search);
    return (
      <div className="max-w-lg space-y-4 text-sm" data-join-signed-out>
        <p>{t("join.signedOut")}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <a className={`${primaryButton} no-underline`} href={`${pagePath("/login")}?next=${next}`}>
            {t("join.signInToJoin")}
          </a>
          <a className={`${secondaryButton} no-underline`} href={`${pagePath("/signup")}?next=${next}`}>
            {t("join.createAccount")}
          </a>
        </div>
      </div>
    );
  }
  return (
    <div className="max-w-lg space-y-4 text-sm" data-join>
      <p>
        {t("join.signedInAs")} <span className="font-semibold">{user.email}</span>
        {t("join.mustBeThis")}
      </p>
      {accept.isError ? (
        <Refusal err={accept.error} />
      ) : (
        <button type="button" className={primaryButton} disabled={accept.isPending || accept.isSuccess} onClick={() => accept.mutate()}>
          {accept.isPending || accept.isSuccess ? t("join.joining") : t("join.join")}
        </button>
      )}
    </div>
  );
}

export default withProviders(JoinPage);
