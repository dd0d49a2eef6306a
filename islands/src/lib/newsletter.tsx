// The newsletter signup form, in its three places: the /newsletter page
// (names and topics), the dashboard's compact form and the footer on
// every page (the address only; the API's default topics). Its states:
// idle, then submitting ('Subscribing...', disabled), then subscribed
// (the form replaced by a confirmation card) or, on failure, idle again
// with a toast. The address is checked before sending.
import { useId, useState, type FormEvent } from "react";
import { ApiError, sendJSON, type NewsletterSource, type SubscribeRequest, type SubscribeResponse } from "./api";
import type { NewsletterEffects } from "./newsletter-effects";

export type Topic = { id: string; label: string; default: boolean };
export type NewsletterVariant = "page" | "compact" | "footer";

export type NewsletterFormProps = {
  source: NewsletterSource;
  variant: NewsletterVariant;
  title: string;
  // the choices the page offers (from the API's topics); none: no choice
  topics?: Topic[];
  initialEmail?: string;
  autoFocus?: boolean;
  effects: NewsletterEffects;
};

export const invalidEmailMessage = "Please enter a valid email address";
export const successTitle = "Successfully subscribed!";
export const successText = "Thank you for subscribing to our newsletter. You'll receive our next update soon.";
export const failureTitle = "Subscription failed";
export const failureFallback = "Something went wrong. Please try again.";

// emailPattern is the address rule the API applies (api/validate.go's
// validEmail), so the form refuses before sending what the API would.
const emailPattern = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function isValidEmail(s: string): boolean {
  return s.length <= 254 && emailPattern.test(s);
}

type State = { kind: "idle" } | { kind: "submitting" } | { kind: "subscribed"; message: string };

const inputClass =
  "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-slate-900 aria-[invalid=true]:border-red-700 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400";

export function NewsletterForm({ source, variant, title, topics = [], initialEmail = "", autoFocus, effects }: NewsletterFormProps) {
  const id = useId();
  const [state, setState] = useState<State>({ kind: "idle" });
  const [email, setEmail] = useState(initialEmail);
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [chosen, setChosen] = useState<string[]>(() => topics.filter((t) => t.default).map((t) => t.id));
  const [emailError, setEmailError] = useState("");
  const page = variant === "page";

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const address = email.trim();
    if (!isValidEmail(address)) {
      setEmailError(invalidEmailMessage);
      return;
    }
    setEmailError("");
    setState({ kind: "submitting" });
    const body: SubscribeRequest = { email: address, source };
    if (page) {
      if (firstName.trim()) body.firstName = firstName.trim();
      if (lastName.trim()) body.lastName = lastName.trim();
      if (topics.length > 0) body.preferences = chosen;
    }
    try {
      const res = await sendJSON<SubscribeResponse>("POST", "/api/newsletter/subscribe", body);
      setState({ kind: "subscribed", message: res.message });
      effects.notify({ title: successTitle, description: successText });
      effects.subscribed();
    } catch (err) {
      setState({ kind: "idle" });
      const message = err instanceof ApiError && err.status < 500 ? err.message : failureFallback;
      effects.notify({ title: failureTitle, description: message, variant: "destructive" });
    }
  }

  if (state.kind === "subscribed") {
    return (
      <div role="status" className="rounded-lg border border-green-700 bg-green-50 p-4 text-green-900 dark:border-green-500 dark:bg-green-950 dark:text-green-100">
        <h2 className="font-semibold">Successfully Subscribed!</h2>
        <p className="mt-1 text-sm">{state.message}</p>
      </div>
    );
  }
  const submitting = state.kind === "submitting";
  return (
    <form noValidate onSubmit={submit} aria-labelledby={`${id}-title`} className={variant === "compact" ? "grid gap-2" : "grid gap-3"}>
      <h2 id={`${id}-title`} className={page ? "text-xl font-semibold" : "text-base font-semibold"}>
        {title}
      </h2>
      {page && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid gap-1">
            <label htmlFor={`${id}-first`} className="text-sm font-medium">First name (optional)</label>
            <input id={`${id}-first`} autoComplete="given-name" maxLength={100} value={firstName} onChange={(e) => setFirstName(e.target.value)} className={inputClass} disabled={submitting} />
          </div>
          <div className="grid gap-1">
            <label htmlFor={`${id}-last`} className="text-sm font-medium">Last name (optional)</label>
            <input id={`${id}-last`} autoComplete="family-name" maxLength={100} value={lastName} onChange={(e) => setLastName(e.target.value)} className={inputClass} disabled={submitting} />
          </div>
        </div>
      )}
      <div className="grid gap-1">
        <label htmlFor={`${id}-email`} className="text-sm font-medium">Email address</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          value={email}
          autoFocus={autoFocus}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={emailError !== ""}
          aria-describedby={emailError ? `${id}-email-error` : undefined}
          className={inputClass}
          disabled={submitting}
        />
        {emailError && (
          <p id={`${id}-email-error`} className="text-sm text-red-700 dark:text-red-300">{emailError}</p>
        )}
      </div>
      {page && topics.length > 0 && (
        <fieldset className="grid gap-2" disabled={submitting}>
          <legend className="mb-1 text-sm font-medium">Topics</legend>
          {topics.map((t) => (
            <label key={t.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="h-4 w-4"
                checked={chosen.includes(t.id)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, t.id] : c.filter((x) => x !== t.id)))}
              />
              {t.label}
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" disabled={submitting} className="inline-flex h-10 items-center justify-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800 disabled:opacity-70">
        {submitting ? "Subscribing..." : "Subscribe"}
      </button>
    </form>
  );
}
