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
import { withProviders } from "../lib/providers";
import { queryClient } from "../lib/query";
import { toast } from "../lib/toast";
import { formatLongDate } from "../lib/numbers";

// entityTypes come with the names pages give them (impact.DisplayName).
type Option = { value: string; label: string };
type Props = { sources: string[]; impactLevels: string[]; categories: string[]; entityTypes: Option[] };

const options = (values: string[]): Option[] => values.map((value) => ({ value, label: value }));


function Account({ user }: { user: User }) {
  const rows: [string, string][] = [
    ["Name", `${user.firstName} ${user.lastName}`],
    ["Email", user.email],
    ["Username", user.username],
    ["Member since", formatLongDate(user.createdAt)],
  ];
  return (
    <Section title="Account" id="profile-account">
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

function PreferencesForm({ sources, impactLevels, categories, entityTypes }: Props) {
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
      toast({ title: "Preferences saved", description: "Your preferences have been updated." });
    },
    onError: (err) => toast({ title: "Could not save preferences", description: userMessage(err, "Something went wrong. Please try again."), variant: "destructive" }),
  });
  return (
    <Section title="Preferences" id="profile-preferences">
      {prefs.isPending ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">Loading preferences...</p>
      ) : (
        <form className="space-y-5" onSubmit={form.handleSubmit((v) => save.mutate({ ...v, circularSources: v.circularSources || [], impactLevels: v.impactLevels || [], categories: v.categories || [], entityTypes: v.entityTypes || [] }))}>
          <Checkboxes legend="Your business" name="entity" values={entityTypes} reg={form.register("entityTypes")} />
          <Checkboxes legend="Circular sources" name="source" values={options(sources)} reg={form.register("circularSources")} />
          <Checkboxes legend="Impact levels" name="impact" values={options(impactLevels)} reg={form.register("impactLevels")} />
          <Checkboxes legend="Categories" name="category" values={options(categories)} reg={form.register("categories")} />
          <div className="space-y-2">
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("emailNotifications")} />
              Email notifications
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("newsletterSubscription")} />
              Monthly newsletter
            </label>
          </div>
          {/* The team e-mails' links point here (teammail.ProfileAnchor). */}
          <fieldset id="team-emails" className="space-y-2" data-team-emails>
            <legend className="mb-1 text-sm font-medium">Team e-mails</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("mentionEmails")} />
              E-mail me when a colleague @mentions me in a comment
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" {...form.register("reminderEmails")} />
              Daily reminder of my decisions due within 7 days or overdue
            </label>
          </fieldset>
          <button type="submit" className={secondaryButton} disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save Preferences"}
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
      toast({ title: "Password changed", description: "Other sessions have been signed out." });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        for (const n of ["currentPassword", "newPassword"] as const) if (err.fields[n]) form.setError(n, { message: err.fields[n] });
      }
      toast({ title: "Could not change password", description: userMessage(err, "Something went wrong. Please try again."), variant: "destructive" });
    },
  });
  const errors = form.formState.errors;
  return (
    <Section title="Change password" id="profile-password">
      <form noValidate className="max-w-md space-y-4" onSubmit={form.handleSubmit((v) => change.mutate(v))}>
        {/* for password managers: whose password this is */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        <PasswordField id="current-password" label="Current password" autoComplete="current-password" error={errors.currentPassword?.message} reg={form.register("currentPassword")} />
        <PasswordField id="new-password" label="New password" autoComplete="new-password" error={errors.newPassword?.message} reg={form.register("newPassword")} />
        <button type="submit" className={secondaryButton} disabled={change.isPending}>
          {change.isPending ? "Changing..." : "Change Password"}
        </button>
      </form>
    </Section>
  );
}

function Sessions() {
  const all = useMutation({
    mutationFn: () => dataOf(api.POST("/auth/logout-all")),
    onSuccess: logOut,
    onError: (err) => toast({ title: "Could not log out", description: userMessage(err, "Something went wrong. Please try again."), variant: "destructive" }),
  });
  return (
    <Section title="Sessions" id="profile-sessions">
      <p className="text-sm text-slate-600 dark:text-slate-300">Sign out of RegPulse on every device and browser, this one included.</p>
      <button type="button" className={secondaryButton + " mt-3"} disabled={all.isPending} onClick={() => all.mutate()}>
        Log out everywhere
      </button>
    </Section>
  );
}

function ProfilePage(props: Props) {
  const { user, isLoading } = useCurrentUser();
  useEffect(() => {
    if (!isLoading && !user) window.location.replace("/login?next=/profile");
  }, [isLoading, user]);
  // /profile#alerts (the dashboard's Set Alerts): the static page's anchor
  // is where the island mounts; once the sections are drawn, go to the one
  // asked for.
  useEffect(() => {
    const hash = window.location.hash.slice(1);
    if (user && hash) document.getElementById("profile-" + hash)?.scrollIntoView();
  }, [user]);
  if (!user) {
    return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">Loading your account...</p>;
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
