// /profile: the signed-in user's account, preferences, password and
// sessions. Signed out, it sends the user to /login and back afterwards.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import { api, ApiError, dataOf, setToken, userMessage, type Schemas, type User } from "../lib/api";
import { logOut, preferencesQuery, useCurrentUser } from "../lib/auth";
import { AlertsSection } from "../lib/alerts";
import { Checkboxes, passwordSchema, PasswordField, secondaryButton, Section, zodResolver } from "../lib/forms";
import strings from "../../../internal/i18n/strings/profile.json";
import { pagePath, translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { queryClient } from "../lib/query";
import { toast } from "../lib/toast";
import { formatLongDate } from "../lib/numbers";

// entityTypes come with the names pages give them (impact.DisplayName).
type Option = { value: string; label: string };
// categoryNames are the categories' names that differ from their values
// (a Hindi page's); the others show as their values.
type Props = { sources: string[]; impactLevels: string[]; categories: string[]; entityTypes: Option[]; categoryNames?: Record<string, string> };

const t = translator(strings);

const options = (values: string[], names?: Record<string, string>): Option[] => values.map((value) => ({ value, label: names?.[value] ?? value }));


function Account({ user }: { user: User }) {
  const rows: [string, string][] = [
    [t("profile.name"), `${user.firstName} ${user.lastName}`],
    [t("profile.email"), user.email],
    [t("profile.username"), user.username],
    [t("profile.memberSince"), formatLongDate(user.createdAt)],
  ];
  return (
    <Section title={t("profile.account")} id="profile-account">
      <dl className="grid gap-3 sm:grid-cols-2" data-account>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-sm text-slate-600 dark:text-slate-300">{k}</dt>
            <dd className="font-medium break-words">{v}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

// PrefValues are what the form edits: PUT /api/user/preferences' body.
type PrefValues = Schemas["PreferencesRequest"];

function PreferencesForm({ sources, impactLevels, categories, entityTypes, categoryNames }: Props) {
  const prefs = useQuery(preferencesQuery);
  const form = useForm<PrefValues>();
  const { reset } = form;
  useEffect(() => {
    if (prefs.data) {
      const { circularSources, impactLevels, categories, entityTypes, emailNotifications, newsletterSubscription, mentionEmails, reminderEmails } = prefs.data;
      reset({ circularSources, impactLevels, categories, entityTypes, emailNotifications, newsletterSubscription, mentionEmails, reminderEmails });
    }
  }, [prefs.data, reset]);
  const save = useMutation({
    mutationFn: (v: PrefValues) => dataOf(api.PUT("/user/preferences", { body: v })),
    onSuccess: (p) => {
      queryClient.setQueryData(preferencesQuery.queryKey, p);
      toast({ title: t("profile.prefsSaved"), description: t("profile.prefsUpdated") });
    },
    onError: (err) => toast({ title: t("profile.prefsNotSaved"), description: userMessage(err, t("profile.somethingWrong")), variant: "destructive" }),
  });
  return (
    <Section title={t("profile.preferences")} id="profile-preferences">
      {prefs.isPending ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("profile.loadingPrefs")}</p>
      ) : (
        <form className="space-y-5" onSubmit={form.handleSubmit((v) => save.mutate({ ...v, circularSources: v.circularSources || [], impactLevels: v.impactLevels || [], categories: v.categories || [], entityTypes: v.entityTypes || [] }))}>
          <Checkboxes legend={t("profile.yourBusiness")} name="entity" values={entityTypes} reg={form.register("entityTypes")} />
          <Checkboxes legend={t("profile.circularSources")} name="source" values={options(sources)} reg={form.register("circularSources")} />
          <Checkboxes legend={t("profile.impactLevels")} name="impact" values={impactLevels.map((value) => ({ value, label: t(`profile.level.${value}`) }))} reg={form.register("impactLevels")} />
          <Checkboxes legend={t("profile.categories")} name="category" values={options(categories, categoryNames)} reg={form.register("categories")} />
          <div className="space-y-2">
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("emailNotifications")} />
              {t("profile.emailNotifications")}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("newsletterSubscription")} />
              {t("profile.newsletter")}
            </label>
          </div>
          {/* The team e-mails' links point here (teammail.ProfileAnchor). */}
          <fieldset id="team-emails" className="space-y-2" data-team-emails>
            <legend className="mb-1 text-sm font-medium">{t("profile.teamEmails")}</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("mentionEmails")} />
              {t("profile.mentionEmails")}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("reminderEmails")} />
              {t("profile.reminderEmails")}
            </label>
          </fieldset>
          <button type="submit" className={secondaryButton} disabled={save.isPending}>
            {save.isPending ? t("profile.saving") : t("profile.savePrefs")}
          </button>
        </form>
      )}
    </Section>
  );
}

type PwValues = z.infer<typeof passwordSchema>;

function PasswordForm({ username }: { username: string }) {
  const form = useForm<PwValues>({ resolver: zodResolver(passwordSchema), defaultValues: { currentPassword: "", newPassword: "" } });
  const change = useMutation({
    mutationFn: (v: PwValues) => dataOf(api.PUT("/user/password", { body: v })),
    onSuccess: ({ token }) => {
      setToken(token); // every other session is signed out; this one goes on
      form.reset();
      toast({ title: t("profile.passwordChanged"), description: t("profile.otherSessionsOut") });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        for (const n of ["currentPassword", "newPassword"] as const) if (err.fields[n]) form.setError(n, { message: err.fields[n] });
      }
      toast({ title: t("profile.passwordNotChanged"), description: userMessage(err, t("profile.somethingWrong")), variant: "destructive" });
    },
  });
  const errors = form.formState.errors;
  return (
    <Section title={t("profile.changePassword")} id="profile-password">
      <form noValidate className="max-w-md space-y-4" onSubmit={form.handleSubmit((v) => change.mutate(v))}>
        {/* for password managers: whose password this is */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        <PasswordField id="current-password" label={t("profile.currentPassword")} autoComplete="current-password" error={errors.currentPassword?.message} reg={form.register("currentPassword")} />
        <PasswordField id="new-password" label={t("profile.newPassword")} autoComplete="new-password" error={errors.newPassword?.message} reg={form.register("newPassword")} />
        <button type="submit" className={secondaryButton} disabled={change.isPending}>
          {change.isPending ? t("profile.changing") : t("profile.changePasswordButton")}
        </button>
      </form>
    </Section>
  );
}

function Sessions() {
  const all = useMutation({
    mutationFn: () => dataOf(api.POST("/auth/logout-all")),
    onSuccess: logOut,
    onError: (err) => toast({ title: t("profile.notLoggedOut"), description: userMessage(err, t("profile.somethingWrong")), variant: "destructive" }),
  });
  return (
    <Section title={t("profile.sessions")} id="profile-sessions">
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("profile.sessionsLead")}</p>
      <button type="button" className={secondaryButton + " mt-3"} disabled={all.isPending} onClick={() => all.mutate()}>
        {t("profile.logOutEverywhere")}
      </button>
    </Section>
  );
}

function ProfilePage(props: Props) {
  const { user, isLoading } = useCurrentUser();
  useEffect(() => {
    if (!isLoading && !user) window.location.replace(pagePath("/login") + "?next=" + pagePath("/profile"));
  }, [isLoading, user]);
  // /profile#alerts (the dashboard's Set Alerts): the static page's anchor
  // is where the island mounts; once the sections are drawn, go to the one
  // asked for.
  useEffect(() => {
    const hash = window.location.hash.slice(1);
    if (user && hash) document.getElementById("profile-" + hash)?.scrollIntoView();
  }, [user]);
  if (!user) {
    return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">{t("profile.loadingAccount")}</p>;
  }
  return (
    <div className="space-y-6" data-profile>
      <Account user={user} />
      <PreferencesForm {...props} />
      <AlertsSection />
      <PasswordForm username={user.username} />
      <Sessions />
    </div>
  );
}

export default withProviders(ProfilePage);
