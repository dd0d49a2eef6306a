// /login: 'Welcome Back'. The form is checked in the browser before
// sending; on success the token is kept and the user goes to / (or back to
// the page that sent them here, ?next=).
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import { api, dataOf, userMessage } from "../lib/api";
import { keepNext, safeNext, signedIn } from "../lib/auth";
import { AuthCard, Field, loginSchema, PasswordField, primaryButton, zodResolver } from "../lib/forms";
import { withProviders } from "../lib/providers";
import { toast, toastAfterNavigation } from "../lib/toast";

type Values = z.infer<typeof loginSchema>;

function LoginForm() {
  const form = useForm<Values>({ resolver: zodResolver(loginSchema), defaultValues: { username: "", password: "" } });
  const login = useMutation({
    mutationFn: (v: Values) => dataOf(api.POST("/auth/login", { body: v })),
    onSuccess: ({ token }) => {
      toastAfterNavigation({ title: "Welcome back!", description: "Successfully signed in to RegPulse" });
      signedIn(token, safeNext(window.location.search));
    },
    onError: (err) => toast({ title: "Sign in failed", description: userMessage(err, "Invalid credentials"), variant: "destructive" }),
  });
  const errors = form.formState.errors;
  const pending = login.isPending || login.isSuccess;
  return (
    <AuthCard title="Welcome Back" subtitle="Sign in to your RegPulse account">
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((v) => login.mutate(v))}>
        <Field id="login-username" label="Username" autoComplete="username" error={errors.username?.message} reg={form.register("username")} />
        <PasswordField id="login-password" label="Password" autoComplete="current-password" error={errors.password?.message} reg={form.register("password")} />
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? "Signing In..." : "Sign In"}
        </button>
      </form>
      <p className="mt-4 text-center text-sm text-slate-600 dark:text-slate-300">
        Don't have an account?{" "}
        <a href={keepNext("/signup", window.location.search)} className="font-medium text-brand-700 underline dark:text-blue-300">
          Create account
        </a>
      </p>
    </AuthCard>
  );
}

export default withProviders(LoginForm);
