// The profile's "Alerts" section (/profile#alerts): the user's alerts from
// GET /api/alerts, their preferences' first (what it sends is the
// server's one-line description; its filters are the preferences above),
// then their saved searches. Each can be edited, paused and resumed,
// deleted (not the preferences'), and has a private feed URL that can be
// renewed, which ends the old one. Under them, the Master Directions the
// user follows (each new version e-mailed with its redline), each with
// its Stop following. Each alert may also post its matches at once to a
// Slack or Microsoft Teams channel (issue 47): the channel's incoming
// webhook URL, which the server checks is the service's.
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, ApiError, dataOf, userMessage, type Schemas } from "./api";
import { followsQuery } from "./follows";
import { inputClass, secondaryButton, Section } from "./forms";
import { queryClient } from "./query";
import { toast } from "./toast";
import { formatDateTimeUTC } from "./numbers";
import strings from "../../../internal/i18n/strings/alerts.json";
import { pagePath, translator } from "./i18n";

const t = translator(strings);

type Alert = Schemas["Alert"];
type Frequency = Schemas["AlertFrequency"];

// The labels' keys; t is called when a label is shown.
export const frequencyLabels: Record<Frequency, string> = { immediately: "alerts.immediately", daily: "alerts.daily", weekly: "alerts.weekly" };

// The chat channels an alert may post to ("": none), and what the URL
// field asks for each.
type ChannelKind = "" | "slack" | "teams";
// (the services' names are not translated).
export const channelLabels: Record<ChannelKind, string> = { "": "None", slack: "Slack", teams: "Microsoft Teams" };
const channelLabel = (k: ChannelKind) => (k ? channelLabels[k] : t("alerts.none"));
const channelHints: Record<Exclude<ChannelKind, "">, string> = { slack: "alerts.slackHint", teams: "alerts.teamsHint" };

const alertsQuery = queryOptions({ queryKey: ["/alerts"], queryFn: ({ signal }) => dataOf(api.GET("/alerts", { signal })) });

const when = (iso: string | null) =>
  iso ? formatDateTimeUTC(iso) : t("alerts.never");

// feedURL is the alert's private Atom feed, absolute (for feed readers).
const feedURL = (token: string) => `${window.location.origin}/api/alerts/feed?token=${encodeURIComponent(token)}`;

function AlertRow({ alert }: { alert: Alert }) {
  const saved = alert.kind === "search";
  const [name, setName] = useState(alert.name);
  const [query, setQuery] = useState(alert.query);
  const [frequency, setFrequency] = useState<Frequency>(alert.frequency);
  const [channelKind, setChannelKind] = useState<ChannelKind>((alert.channelKind || "") as ChannelKind);
  const [channelUrl, setChannelUrl] = useState(alert.channelUrl);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const done = (title: string) => () => {
    void queryClient.invalidateQueries({ queryKey: alertsQuery.queryKey });
    toast({ title });
  };
  const failed = (title: string) => (err: unknown) => {
    setErrors(err instanceof ApiError ? err.fields : {});
    toast({ title, description: userMessage(err, t("alerts.somethingWrong")), variant: "destructive" });
  };
  const body = (enabled: boolean) => ({
    name,
    query,
    sources: alert.sources,
    categories: alert.categories,
    documentTypes: alert.documentTypes,
    impactLevels: alert.impactLevels,
    frequency,
    enabled,
    ...(channelKind ? { channelKind, channelUrl: channelUrl.trim() } : {}),
  });
  const save = useMutation({
    mutationFn: (enabled: boolean) => dataOf(api.PUT("/alerts/{id}", { params: { path: { id: alert.id } }, body: body(enabled) })),
    onSuccess: (a) => {
      setErrors({});
      done(a.enabled === alert.enabled ? t("alerts.saved") : a.enabled ? t("alerts.resumed") : t("alerts.paused"))();
    },
    onError: failed(t("alerts.notSaved")),
  });
  const remove = useMutation({
    mutationFn: () => dataOf(api.DELETE("/alerts/{id}", { params: { path: { id: alert.id } } })),
    onSuccess: done(t("alerts.deleted")),
    onError: failed(t("alerts.notDeleted")),
  });
  const renew = useMutation({
    mutationFn: () => dataOf(api.POST("/alerts/{id}/feed-token", { params: { path: { id: alert.id } } })),
    onSuccess: done(t("alerts.feedRenewed")),
    onError: failed(t("alerts.feedNotRenewed")),
  });
  const busy = save.isPending || remove.isPending || renew.isPending;
  const id = `alert-${alert.id}`;
  return (
    <li className="rounded-md border border-slate-200 p-4 dark:border-slate-700" data-alert={alert.kind} aria-labelledby={`${id}-name`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`${id}-name`} className="font-semibold">
          {saved ? alert.name : t("alerts.yourPreferences")}
        </h3>
        <span
          className={
            "rounded-full px-2 py-0.5 text-xs font-medium " +
            (alert.enabled ? "bg-green-100 text-green-900 dark:bg-green-900/40 dark:text-green-100" : "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100")
          }
        >
          {alert.enabled ? t("alerts.on") : t("alerts.pausedState")}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-alert-description>
        {alert.description}
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">{t("alerts.lastSent", { When: when(alert.lastSentAt) })}</p>
      <form
        noValidate
        className="mt-3 grid gap-3 sm:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(alert.enabled);
        }}
      >
        {saved && (
          <>
            <div>
              <label htmlFor={`${id}-title`} className="text-sm font-medium">
                {t("alerts.name")}
              </label>
              <input id={`${id}-title`} className={inputClass} value={name} maxLength={100} aria-invalid={!!errors.name} onChange={(e) => setName(e.target.value)} />
              {errors.name && <p className="mt-1 text-xs text-red-700 dark:text-red-300">{errors.name}</p>}
            </div>
            <div>
              <label htmlFor={`${id}-query`} className="text-sm font-medium">
                {t("alerts.search")}
              </label>
              <input id={`${id}-query`} className={inputClass} value={query} maxLength={400} aria-invalid={!!errors.query} onChange={(e) => setQuery(e.target.value)} />
            </div>
          </>
        )}
        <div>
          <label htmlFor={`${id}-frequency`} className="text-sm font-medium">
            {t("alerts.frequency")}
          </label>
          <select id={`${id}-frequency`} className={inputClass} value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)}>
            {(Object.keys(frequencyLabels) as Frequency[]).map((f) => (
              <option key={f} value={f}>
                {t(frequencyLabels[f])}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-channel`} className="text-sm font-medium">
            {t("alerts.alsoPostTo")}
          </label>
          <select
            id={`${id}-channel`}
            className={inputClass}
            value={channelKind}
            aria-invalid={!!errors.channelKind}
            onChange={(e) => setChannelKind(e.target.value as ChannelKind)}
          >
            {(Object.keys(channelLabels) as ChannelKind[]).map((k) => (
              <option key={k} value={k}>
                {channelLabel(k)}
              </option>
            ))}
          </select>
          {errors.channelKind && <p className="mt-1 text-xs text-red-700 dark:text-red-300">{errors.channelKind}</p>}
        </div>
        {channelKind && (
          <div className="sm:col-span-2">
            <label htmlFor={`${id}-channel-url`} className="text-sm font-medium">
              {t("alerts.channelUrl", { Channel: channelLabel(channelKind) })}
            </label>
            <input
              id={`${id}-channel-url`}
              type="url"
              className={inputClass + " font-mono text-xs"}
              value={channelUrl}
              maxLength={2000}
              aria-invalid={!!errors.channelUrl}
              aria-describedby={`${id}-channel-hint`}
              onChange={(e) => setChannelUrl(e.target.value)}
            />
            <p id={`${id}-channel-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
              {t("alerts.channelHint", { Hint: t(channelHints[channelKind]) })}
            </p>
            {errors.channelUrl && <p className="mt-1 text-xs text-red-700 dark:text-red-300">{errors.channelUrl}</p>}
          </div>
        )}
        <div className="flex flex-wrap items-end gap-2 sm:col-span-3">
          <button type="submit" className={secondaryButton} disabled={busy}>
            {t("alerts.save")}
          </button>
          <button type="button" className={secondaryButton} disabled={busy} onClick={() => save.mutate(!alert.enabled)}>
            {alert.enabled ? t("alerts.pause") : t("alerts.resume")}
          </button>
          {saved && (
            <button
              type="button"
              className={secondaryButton + " text-red-800 dark:text-red-300"}
              disabled={busy}
              onClick={() => {
                if (window.confirm(t("alerts.confirmDelete", { Name: alert.name }))) remove.mutate();
              }}
            >
              {t("alerts.delete")}
            </button>
          )}
        </div>
      </form>
      <div className="mt-3 flex flex-col gap-2 text-sm sm:flex-row sm:items-center">
        <label htmlFor={`${id}-feed`} className="font-medium">
          {t("alerts.privateFeed")}
        </label>
        <input id={`${id}-feed`} readOnly className={inputClass + " min-w-0 font-mono text-xs sm:flex-1"} value={feedURL(alert.feedToken)} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className={secondaryButton + " self-start sm:self-auto"} disabled={busy} onClick={() => renew.mutate()}>
          {t("alerts.newFeedUrl")}
        </button>
      </div>
    </li>
  );
}

type Follow = Schemas["Follow"];

function FollowRow({ follow }: { follow: Follow }) {
  const stop = useMutation({
    mutationFn: () => dataOf(api.DELETE("/direction-follows/{slug}", { params: { path: { slug: follow.direction } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: followsQuery.queryKey });
      toast({ title: t("alerts.unfollowed", { Title: follow.title || follow.direction }) });
    },
    onError: (err) => toast({ title: t("alerts.notStopped"), description: userMessage(err, t("alerts.somethingWrong")), variant: "destructive" }),
  });
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 p-3 dark:border-slate-700" data-follow={follow.direction}>
      <div>
        <a href={pagePath(`/master-directions/${follow.direction}/`)} className="font-medium text-brand-700 underline dark:text-blue-300">
          {follow.title || follow.direction}
        </a>
        <p className="text-xs text-slate-600 dark:text-slate-300">{t("alerts.lastSent", { When: when(follow.lastSentAt) })}</p>
      </div>
      <button type="button" className={secondaryButton} disabled={stop.isPending} onClick={() => stop.mutate()}>
        {t("alerts.stopFollowing")}
      </button>
    </li>
  );
}

// FollowedDirections lists the Master Directions the user follows.
function FollowedDirections() {
  const list = useQuery(followsQuery);
  return (
    <div className="mt-6" data-follows>
      <h3 className="font-semibold">{t("alerts.followedHeading")}</h3>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {t("alerts.followedLead")}{" "}
        <a href={pagePath("/master-directions")} className="font-medium text-brand-700 underline dark:text-blue-300">
          {t("alerts.masterDirections")}
        </a>
        {t("alerts.fullStop")}
      </p>
      {list.isPending ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("alerts.loading")}</p>
      ) : list.isError ? (
        <p className="mt-3 text-sm text-red-700 dark:text-red-300">{userMessage(list.error, t("alerts.followsNotLoaded"))}</p>
      ) : list.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("alerts.noFollows")}</p>
      ) : (
        <ul className="mt-3 space-y-2">
          {list.data.map((f) => (
            <FollowRow key={f.id} follow={f} />
          ))}
        </ul>
      )}
    </div>
  );
}

export function AlertsSection() {
  const list = useQuery(alertsQuery);
  return (
    <Section title={t("alerts.title")} id="profile-alerts">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t("alerts.leadBefore")}{" "}
        <a href={pagePath("/search")} className="font-medium text-brand-700 underline dark:text-blue-300">
          {t("alerts.searchLink")}
        </a>
        {t("alerts.leadAfter")}
      </p>
      {list.isPending ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("alerts.loadingAlerts")}</p>
      ) : list.isError ? (
        <p className="mt-3 text-sm text-red-700 dark:text-red-300">{userMessage(list.error, t("alerts.notLoaded"))}</p>
      ) : (
        <ul className="mt-3 space-y-3" data-alerts>
          {list.data.map((a) => (
            <AlertRow key={a.id + a.feedToken + a.enabled + a.frequency + a.name + a.channelKind + a.channelUrl} alert={a} />
          ))}
        </ul>
      )}
      <FollowedDirections />
    </Section>
  );
}
