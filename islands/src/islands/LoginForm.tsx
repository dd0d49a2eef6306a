// /login: 'Welcome Back'. The form is checked in the browser before
// sending; on success the token is kept and the user goes to / (or back to
// the page that sent them here, ?next=). Below it, single sign-on: a work
// e-mail address names the organisation, whose identity provider signs
// the user in and sends them back here with the token in the address's
// fragment (#sso_token=…&next=…), which this page keeps and goes on.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import strings from "../../../internal/i18n/strings/auth.json";
import { api, dataOf, userMessage } from "../lib/api";
import { keepNext, safeNext, signedIn, ssoReturn } from "../lib/auth";
import { AuthCard, Field, loginSchema, PasswordField, primaryButton, secondaryButton, ssoSchema, zodResolver } from "../lib/forms";
import { translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { toast, toastAfterNavigation } from "../lib/toast";

const t = translator(strings);

type Values = z.infer<typeof loginSchema>;
type SSOValues = z.infer<typeof ssoSchema>;

function LoginForm() {
  const form = useForm<Values>({ resolver: zodResolver(loginSchema), defaultValues: { username: "", password: "" } });
  const login = useMutation({
    mutationFn: (v: Values) => dataOf(api.POST("/auth/login", { body: v })),
    onSuccess: ({ token }) => {
      toastAfterNavigation({ title: t("auth.welcomeBackToast"), description: t("auth.signedInToast") });
      signedIn(token, safeNext(window.location.search));
    },
    onError: (err) => toast({ title: t("auth.signInFailed"), description: userMessage(err, t("auth.invalidCredentials")), variant: "destructive" }),
  });
  const ssoForm = useForm<SSOValues>({ resolver: zodResolver(ssoSchema), defaultValues: { email: "" } });
  const sso = useMutation({
    mutationFn: (v: SSOValues) =>
      dataOf(api.GET("/auth/sso/start", { params: { query: { email: v.email, next: safeNext(window.location.search) } } })),
    onSuccess: ({ redirectUrl }) => window.location.assign(redirectUrl),
    onError: (err) =>
      toast({ title: t("auth.ssoFailed"), description: userMessage(err, t("auth.ssoNotStarted")), variant: "destructive" }),
  });
  const [returned] = useState(() => ssoReturn(window.location.hash));
  useEffect(() => {
    if (!returned) return;
    // The token leaves the address at once: not in history, not shared.
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    toastAfterNavigation({ title: t("auth.welcomeBackToast"), description: t("auth.ssoSignedInToast") });
    signedIn(returned.token, returned.next);
  }, [returned]);
  if (returned) {
    return (
      <AuthCard title={t("auth.signingYouIn")} subtitle={t("auth.ssoAnswered")}>
        <p role="status">{t("auth.signingIn")}</p>
      </AuthCard>
    );
  }
  const errors = form.formState.errors;
  const pending = login.isPending || login.isSuccess;
  const ssoPending = sso.isPending || sso.isSuccess;
  return (
    <AuthCard title={t("auth.welcomeBack")} subtitle={t("auth.signInSubtitle")}>
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((v) => login.mutate(v))}>
        <Field id="login-username" label={t("auth.username")} autoComplete="username" error={errors.username?.message} reg={form.register("username")} />
        <PasswordField id="login-password" label={t("auth.password")} autoComplete="current-password" error={errors.password?.message} reg={form.register("password")} />
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? t("auth.signingIn") : t("auth.signIn")}
        </button>
      </form>
      <section aria-labelledby="sso-heading" className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-700">
        <h2 id="sso-heading" className="text-sm font-semibold">
          {t("auth.ssoHeading")}
        </h2>
        <form noValidate className="mt-3 space-y-3" onSubmit={ssoForm.handleSubmit((v) => sso.mutate(v))}>
          <Field
            id="sso-email"
            label={t("auth.workEmail")}
            type="email"
            autoComplete="email"
            error={ssoForm.formState.errors.email?.message}
            reg={ssoForm.register("email")}
          />
          <button type="submit" className={secondaryButton + " w-full"} disabled={ssoPending}>
            {ssoPending ? t("auth.redirecting") : t("auth.continueSso")}
          </button>
        </form>
      </section>
      <p className="mt-4 text-center text-sm text-slate-600 dark:text-slate-300">
        {t("auth.noAccount")}{" "}
        <a href={keepNext("/signup", window.location.search)} className="font-medium text-brand-700 underline dark:text-blue-300">
          {t("auth.createAccountLink")}
        </a>
      </p>
    </AuthCard>
  );
}

export default withProviders(LoginForm);
