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
import { withProviders } from "../lib/providers";
import { toastAfterNavigation } from "../lib/toast";

// refusals are the headlines of POST /invites/accept's refusals, by
// status (api/organisations.go's opAcceptInvite); the API's message
// follows.
const refusals: Record<number, string> = {
  400: "This invitation link is not valid.",
  403: "This invitation is for another e-mail address.",
  404: "This invitation no longer exists.",
  409: "This invitation was already used.",
  410: "This invitation has expired.",
};

function Refusal({ err }: { err: unknown }) {
  const status = err instanceof ApiError ? err.status : 0;
  return (
    <div className="rounded-md border border-red-600 px-4 py-3 text-sm dark:border-red-400" role="alert" data-join-refused={status}>
      <p className="font-semibold text-red-700 dark:text-red-300">{refusals[status] ?? "Could not join."}</p>
      <p className="mt-1">{userMessage(err, "Something went wrong. Please try again.")}</p>
      {status === 409 && (
        <p className="mt-2">
          <a className="underline" href="/organisation">
            See your organisations
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
      toastAfterNavigation({ title: "Joined", description: `You are now ${o.role === "admin" || o.role === "auditor" ? "an" : "a"} ${o.role} of ${o.name}.` });
      window.location.assign(`/organisation?id=${encodeURIComponent(o.id)}`);
    },
  });
  if (!token) {
    return (
      <p className="text-sm" role="alert" data-join-no-token>
        This link carries no invitation. Open the link in the invitation e-mail as it is, or ask an admin of the organisation to invite you again.
      </p>
    );
  }
  if (isLoading) return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">Loading your account...</p>;
  if (!user) {
    const next = encodeURIComponent(window.location.pathname + window.location.search);
    return (
      <div className="max-w-lg space-y-4 text-sm" data-join-signed-out>
        <p>You were invited to join an organisation on RegPulse. Sign in, or create an account, with the e-mail address the invitation was sent to; you will come back here to join.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <a className={`${primaryButton} no-underline`} href={`/login?next=${next}`}>
            Sign in to join
          </a>
          <a className={`${secondaryButton} no-underline`} href={`/signup?next=${next}`}>
            Create an account
          </a>
        </div>
      </div>
    );
  }
  return (
    <div className="max-w-lg space-y-4 text-sm" data-join>
      <p>
        You were invited to join an organisation on RegPulse. You are signed in as <span className="font-semibold">{user.email}</span>: the invitation must have been sent to this
        address.
      </p>
      {accept.isError ? (
        <Refusal err={accept.error} />
      ) : (
        <button type="button" className={primaryButton} disabled={accept.isPending || accept.isSuccess} onClick={() => accept.mutate()}>
          {accept.isPending || accept.isSuccess ? "Joining..." : "Join"}
        </button>
      )}
    </div>
  );
}

export default withProviders(JoinPage);
