// The newsletter signup form, in its three places: the /newsletter page
// (names and topics), the dashboard's compact form and the footer on
// every page (the address only; the API's default topics). Its states:
// idle, then submitting ('Subscribing...', disabled), then subscribed
// (the form replaced by a confirmation card) or, on failure, idle again
// with a toast. The address is checked before sending, with the rule the
// API applies (zod's, as the account forms). On success the cached
// subscribers list is refreshed through the page's query client.
// Render it under withProviders (lib/providers.tsx).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, userMessage, type NewsletterSource, type SubscribeRequest } from "./api";
import strings from "../../../internal/i18n/strings/newsletter.json";
import { FieldError, inputClass, primaryButton, ruleSchema } from "./forms";
import { translator } from "./i18n";
import { rules } from "./rules.gen";
import { toast } from "./toast";

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
};

export const invalidEmailMessage = rules.subscriberEmail.messages.format;
// The toasts' words in English (the catalogue's newsletter.*, which the
// form shows in the page's language).
export const successTitle = strings["newsletter.toastSubscribed"].en;
export const successText = strings["newsletter.subscribedThanks"].en;
export const failureTitle = strings["newsletter.toastFailed"].en;
export const failureFallback = strings["newsletter.failureFallback"].en;

const t = translator(strings);

// subscribersKey is the query key of GET /api/newsletter/subscribers
// (every page of it: a key's prefix).
export const subscribersKey = ["/newsletter/subscribers"] as const;

const emailRule = ruleSchema(rules.subscriberEmail);

export function isValidEmail(s: string): boolean {
  return emailRule.safeParse(s).success;
}

export function NewsletterForm({ source, variant, title, topics = [], initialEmail = "", autoFocus }: NewsletterFormProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(initialEmail);
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [chosen, setChosen] = useState<string[]>(() => topics.filter((t) => t.default).map((t) => t.id));
  const [emailError, setEmailError] = useState("");
  const page = variant === "page";

  const subscribe = useMutation({
    mutationFn: (body: SubscribeRequest) => dataOf(api.POST("/newsletter/subscribe", { body })),
    onSuccess: () => {
      toast({ title: t("newsletter.toastSubscribed"), description: t("newsletter.subscribedThanks") });
      void queryClient.invalidateQueries({ queryKey: subscribersKey });
    },
    onError: (err) => {
      // A server failure's own words ("internal server error") help nobody.
      const fallback = t("newsletter.failureFallback");
      const message = err instanceof ApiError && err.status >= 500 ? fallback : userMessage(err, fallback);
      toast({ title: t("newsletter.toastFailed"), description: message, variant: "destructive" });
    },
  });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const checked = emailRule.safeParse(email);
    if (!checked.success) {
      setEmailError(invalidEmailMessage);
      return;
    }
    setEmailError("");
    const body: SubscribeRequest = { email: checked.data, source };
    if (page) {
      if (firstName.trim()) body.firstName = firstName.trim();
      if (lastName.trim()) body.lastName = lastName.trim();
      if (topics.length > 0) body.preferences = topics.filter((t) => chosen.includes(t.id)).map((t) => t.id);
    }
    subscribe.mutate(body);
  }

  if (subscribe.isSuccess) {
    return (
      <div role="status" className="rounded-lg border border-green-700 bg-green-50 p-4 text-green-900 dark:border-green-500 dark:bg-green-950 dark:text-green-100">
        <h2 className="font-semibold">{t("newsletter.subscribedTitle")}</h2>
        <p className="mt-1 text-sm">{subscribe.data.message}</p>
      </div>
    );
  }
  const submitting = subscribe.isPending;
  return (
    <form noValidate onSubmit={submit} aria-labelledby={`${id}-title`} className={variant === "compact" ? "grid gap-2" : "grid gap-3"}>
      <h2 id={`${id}-title`} className={page ? "text-xl font-semibold" : "text-base font-semibold"}>
        {title}
      </h2>
      {page && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid gap-1">
            <label htmlFor={`${id}-first`} className="text-sm font-medium">{t("newsletter.firstName")}</label>
            <input id={`${id}-first`} autoComplete="given-name" maxLength={100} value={firstName} onChange={(e) => setFirstName(e.target.value)} className={inputClass} disabled={submitting} />
          </div>
          <div className="grid gap-1">
            <label htmlFor={`${id}-last`} className="text-sm font-medium">{t("newsletter.lastName")}</label>
            <input id={`${id}-last`} autoComplete="family-name" maxLength={100} value={lastName} onChange={(e) => setLastName(e.target.value)} className={inputClass} disabled={submitting} />
          </div>
        </div>
      )}
      <div className="grid gap-1">
        <label htmlFor={`${id}-email`} className="text-sm font-medium">{t("newsletter.email")}</label>
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
        <FieldError id={`${id}-email-error`} message={emailError} />
      </div>
      {page && topics.length > 0 && (
        <fieldset className="grid gap-2" disabled={submitting}>
          <legend className="mb-1 text-sm font-medium">{t("newsletter.topics")}</legend>
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
      <button type="submit" disabled={submitting} className={primaryButton}>
        {submitting ? t("newsletter.subscribing") : t("newsletter.subscribe")}
      </button>
    </form>
  );
}
