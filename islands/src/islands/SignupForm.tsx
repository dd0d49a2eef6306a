// /signup: 'Create Account'. Checked in the browser with the same rules
// and messages as the API; a username or e-mail already taken comes back
// from the API on its field. Created, the user goes to / (or back to the
// page that sent them, ?next=).
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import strings from "../../../internal/i18n/strings/auth.json";
import { api, ApiError, dataOf, userMessage } from "../lib/api";
import { keepNext, safeNext, signedIn } from "../lib/auth";
import { AuthCard, Field, PasswordField, primaryButton, signupSchema, zodResolver } from "../lib/forms";
import { translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { toast, toastAfterNavigation } from "../lib/toast";

const t = translator(strings);

type Values = z.infer<typeof signupSchema>;
const names = ["firstName", "lastName", "username", "email", "password"] as const;

function SignupForm() {
  const form = useForm<Values>({
    resolver: zodResolver(signupSchema),
    defaultValues: { firstName: "", lastName: "", username: "", email: "", password: "" },
  });
  const signup = useMutation({
    mutationFn: (v: Values) => dataOf(api.POST("/auth/signup", { body: v })),
    onSuccess: ({ token }) => {
      toastAfterNavigation({ title: t("auth.accountCreatedToast"), description: t("auth.welcomeToast") });
      signedIn(token, safeNext(window.location.search));
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        for (const n of names) if (err.fields[n]) form.setError(n, { message: err.fields[n] });
      }
      toast({ title: t("auth.signUpFailed"), description: userMessage(err, t("auth.createFailed")), variant: "destructive" });
    },
  });
  const errors = form.formState.errors;
  const pending = signup.isPending || signup.isSuccess;
  return (
    <AuthCard title={t("auth.createAccount")} subtitle={t("auth.signUpSubtitle")}>
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((v) => signup.mutate(v))}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="signup-first-name" label={t("auth.firstName")} autoComplete="given-name" error={errors.firstName?.message} reg={form.register("firstName")} />
          <Field id="signup-last-name" label={t("auth.lastName")} autoComplete="family-name" error={errors.lastName?.message} reg={form.register("lastName")} />
        </div>
        <Field id="signup-username" label={t("auth.username")} autoComplete="username" error={errors.username?.message} reg={form.register("username")} />
        <Field id="signup-email" label={t("auth.email")} type="email" autoComplete="email" error={errors.email?.message} reg={form.register("email")} />
        <PasswordField id="signup-password" label={t("auth.password")} autoComplete="new-password" error={errors.password?.message} reg={form.register("password")} />
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? t("auth.creatingAccount") : t("auth.createAccount")}
        </button>
      </form>
      <p className="mt-4 text-center text-sm text-slate-600 dark:text-slate-300">
        {t("auth.haveAccount")}{" "}
        <a href={keepNext("/login", window.location.search)} className="font-medium text-brand-700 underline dark:text-blue-300">
          {t("auth.signInLink")}
        </a>
      </p>
    </AuthCard>
  );
}

export default withProviders(SignupForm);
