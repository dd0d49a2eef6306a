// An organisation's webhooks and chat channels (issue 47), on
// /organisation for its admins (canManageMembers; the API decides): the
// endpoints with their kind, URL, events and whether they are on (and
// why the sender turned one off), a form to add or change one, the
// signing secret shown once (after adding or rotating) with a copy
// button, a test event, turning one off and on, removing it (confirmed),
// and each endpoint's delivery log (status, attempts, the last answer)
// with a Resend button.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { api, ApiError, dataOf, userMessage, type Schemas } from "./api";
import { Checkboxes, Field, FieldError, inputClass, ruleSchema, secondaryButton, Section, zodResolver } from "./forms";
import { queryClient } from "./query";
import { rules } from "./rules.gen";
import { toast } from "./toast";
import { formatDateTimeUTC } from "./numbers";
import strings from "../../../internal/i18n/strings/webhooks.json";
import { translator } from "./i18n";

const t = translator(strings);

type Endpoint = Schemas["Webhook"];
type LogEntry = Schemas["WebhookLogEntry"];
type Kind = Schemas["WebhookKind"];
type EventType = Schemas["WebhookEvent"];
type Org = { id: string; name: string };

// The kinds and events as forms list them (Go's webhooks.Kinds and
// webhooks.EventTypes, in their order), each label the catalogue's key.
export const kinds: { value: Kind; label: string; placeholder: string }[] = [
  { value: "webhook", label: "webhooks.kind.webhook", placeholder: "https://grc.example.com/hooks/regpulse" },
  { value: "slack", label: "webhooks.kind.slack", placeholder: "https://hooks.slack.com/services/…" },
  { value: "teams", label: "webhooks.kind.teams", placeholder: "https://….logic.azure.com/workflows/…" },
];
export const events: { value: EventType; label: string }[] = [
  { value: "circular.published", label: "webhooks.event.circularPublished" },
  { value: "circular.revised", label: "webhooks.event.circularRevised" },
  { value: "direction.changed", label: "webhooks.event.directionChanged" },
  { value: "alert.matched", label: "webhooks.event.alertMatched" },
  { value: "obligation.due", label: "webhooks.event.obligationDue" },
  { value: "decision.changed", label: "webhooks.event.decisionChanged" },
];
const labelIn = (list: { value: string; label: string }[], v: string) => {
  const key = list.find((x) => x.value === v)?.label;
  return key ? t(key) : v;
};
const kindLabel = (k: string) => labelIn(kinds, k);
const eventLabel = (e: string) => labelIn(events, e);

// webhookSchema checks the form as the API does (its rules through
// rules.gen.ts; the URL's address the API alone checks).
export const webhookSchema = z.object({
  kind: z.string(),
  url: ruleSchema(rules.webhookUrl),
  description: ruleSchema(rules.webhookDescription),
  events: z.array(z.string()).check(z.minLength(1, { error: () => t("webhooks.chooseEvent") })),
});
type Values = z.infer<typeof webhookSchema>;

const listKey = (org: string) => ["/organisations/{id}/webhooks", org] as const;
const logKey = (org: string, id: string) => ["/organisations/{id}/webhooks/{webhookId}/deliveries", org, id] as const;
const refresh = (org: string) => queryClient.invalidateQueries({ queryKey: listKey(org) });
const failed = (title: string) => (err: unknown) => toast({ title, description: userMessage(err, t("webhooks.somethingWrong")), variant: "destructive" });

// statusWords says whether an endpoint is on, and why not.
export function statusWords(e: Pick<Endpoint, "enabled" | "disabledReason" | "failures">): string {
  if (e.enabled) return e.failures > 0 ? t("webhooks.onFailed", { Count: e.failures, N: e.failures }) : t("webhooks.on");
  return e.disabledReason ? t("webhooks.offReason", { Reason: e.disabledReason }) : t("webhooks.offByAdmin");
}

// answerWords is a delivery's last answer in a few words.
export function answerWords(d: LogEntry): string {
  const a = d.lastAttempt;
  if (!a) return t("webhooks.notSent");
  const what = a.statusCode ? `HTTP ${a.statusCode}` : a.error || t("webhooks.noAnswer");
  return t("webhooks.after", { What: what, Ms: a.durationMs });
}

const when = (iso: string) => formatDateTimeUTC(iso, true);

function EndpointForm({ org, endpoint, onDone, onSecret }: { org: Org; endpoint?: Endpoint; onDone: () => void; onSecret: (secret: string) => void }) {
  const form = useForm<Values>({
    resolver: zodResolver(webhookSchema),
    defaultValues: endpoint
      ? { kind: endpoint.kind, url: endpoint.url, description: endpoint.description, events: endpoint.events }
      : { kind: "webhook", url: "", description: "", events: [] },
  });
  const kind = form.watch("kind");
  const prefix = endpoint ? `webhook-${endpoint.id}` : "webhook-new";
  const apiFields = (err: unknown) => {
    if (!(err instanceof ApiError)) return;
    for (const [k, m] of Object.entries(err.fields)) {
      if (k === "kind" || k === "url" || k === "description" || k === "events") form.setError(k, { message: m });
    }
  };
  const save = useMutation({
    mutationFn: async (v: Values) => {
      if (endpoint) {
        return dataOf(
          api.PATCH("/organisations/{id}/webhooks/{webhookId}", {
            params: { path: { id: org.id, webhookId: endpoint.id } },
            body: { url: v.url, description: v.description, events: v.events as EventType[] },
          }),
        ).then((e) => ({ ...e, secret: "" }));
      }
      return dataOf(
        api.POST("/organisations/{id}/webhooks", {
          params: { path: { id: org.id } },
          body: { kind: v.kind as Kind, url: v.url, description: v.description, events: v.events as EventType[] },
        }),
      );
    },
    onSuccess: (e) => {
      void refresh(org.id);
      toast({ title: endpoint ? t("webhooks.saved") : t("webhooks.added"), description: `${kindLabel(e.kind)}: ${eventsSummary(e.events)}.` });
      if (e.secret) onSecret(e.secret);
      form.reset();
      onDone();
    },
    onError: (err) => {
      apiFields(err);
      failed(endpoint ? t("webhooks.notSaved") : t("webhooks.notAdded"))(err);
    },
  });
  const errors = form.formState.errors;
  const placeholder = kinds.find((k) => k.value === kind)?.placeholder;
  return (
    <form noValidate className="max-w-xl space-y-4 rounded-md border border-slate-200 p-4 dark:border-slate-700" data-webhook-form onSubmit={form.handleSubmit((v) => save.mutate(v))}>
      <div className="space-y-1">
        <label htmlFor={`${prefix}-kind`} className="block text-sm font-medium">
          {t("webhooks.kindLabel")}
        </label>
        <select id={`${prefix}-kind`} className={inputClass} disabled={!!endpoint} {...form.register("kind")}>
          {kinds.map((k) => (
            <option key={k.value} value={k.value}>
              {t(k.label)}
            </option>
          ))}
        </select>
        <FieldError id={`${prefix}-kind-error`} message={errors.kind?.message} />
      </div>
      <Field id={`${prefix}-url`} label={t("webhooks.url")} type="url" inputMode="url" autoComplete="off" placeholder={placeholder} error={errors.url?.message} reg={form.register("url")} />
      <Field id={`${prefix}-description`} label={t("webhooks.description")} autoComplete="off" error={errors.description?.message} reg={form.register("description")} />
      <div data-webhook-events>
        <Checkboxes legend={t("webhooks.events")} name={`${prefix}-events`} values={events.map((e) => ({ value: e.value, label: t(e.label) }))} reg={form.register("events")} />
        <FieldError id={`${prefix}-events-error`} message={errors.events?.message} />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={secondaryButton} disabled={save.isPending}>
          {save.isPending ? t("webhooks.saving") : endpoint ? t("webhooks.saveEndpoint") : t("webhooks.addEndpoint")}
        </button>
        <button type="button" className={secondaryButton} onClick={onDone}>
          {t("webhooks.cancel")}
        </button>
      </div>
    </form>
  );
}

const eventsSummary = (evs: string[]) => evs.map(eventLabel).join(", ");

// Secret shows a signing secret once, with a copy button.
function Secret({ secret, onClose }: { secret: string; onClose: () => void }) {
  return (
    <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950" data-webhook-secret role="status">
      <p className="font-medium">{t("webhooks.secretOnce")}</p>
      <p>{t("webhooks.secretKeep")}</p>
      <p className="break-all rounded bg-white p-2 font-mono text-xs dark:bg-slate-900" data-webhook-secret-value>
        {secret}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className={secondaryButton}
          onClick={() =>
            navigator.clipboard
              ?.writeText(secret)
              .then(() => toast({ title: t("webhooks.secretCopied") }))
              .catch(failed(t("webhooks.secretNotCopied")))
          }
        >
          {t("webhooks.copySecret")}
        </button>
        <button type="button" className={secondaryButton} onClick={onClose}>
          {t("webhooks.done")}
        </button>
      </div>
    </div>
  );
}

function DeliveryLog({ org, endpoint }: { org: Org; endpoint: Endpoint }) {
  const q = useQuery({
    queryKey: logKey(org.id, endpoint.id),
    queryFn: ({ signal }) =>
      dataOf(api.GET("/organisations/{id}/webhooks/{webhookId}/deliveries", { params: { path: { id: org.id, webhookId: endpoint.id }, query: { limit: 20 } }, signal })),
    // While open, the log follows the sender.
    refetchInterval: 3000,
    retry: false,
  });
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      dataOf(api.POST("/organisations/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/resend", { params: { path: { id: org.id, webhookId: endpoint.id, deliveryId } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: logKey(org.id, endpoint.id) });
      toast({ title: t("webhooks.requeued"), description: t("webhooks.requeuedDetail") });
    },
    onError: failed(t("webhooks.notResent")),
  });
  return (
    <div className="mt-3 min-h-24 text-sm" data-webhook-log>
      <h3 className="font-semibold">{t("webhooks.log")}</h3>
      {q.isPending && <p className="text-slate-600 dark:text-slate-300">{t("webhooks.loadingDeliveries")}</p>}
      {q.isError && <p className="text-red-700 dark:text-red-300">{userMessage(q.error, t("webhooks.deliveriesNotLoaded"))}</p>}
      {q.data && q.data.length === 0 && <p className="text-slate-600 dark:text-slate-300">{t("webhooks.noDeliveries")}</p>}
      {q.data && q.data.length > 0 && (
        <div className="overflow-x-auto">
          <table className="mt-2 w-full text-left text-xs">
            <caption className="sr-only">{t("webhooks.caption", { Url: endpoint.url })}</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-1 pr-3">
                  {t("webhooks.time")}
                </th>
                <th scope="col" className="py-1 pr-3">
                  {t("webhooks.event")}
                </th>
                <th scope="col" className="py-1 pr-3">
                  {t("webhooks.status")}
                </th>
                <th scope="col" className="py-1 pr-3">
                  {t("webhooks.attempts")}
                </th>
                <th scope="col" className="py-1 pr-3">
                  {t("webhooks.lastAnswer")}
                </th>
                <th scope="col" className="py-1">
                  <span className="sr-only">{t("webhooks.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {q.data.map((d) => (
                <tr key={d.id} className="border-b border-slate-100 align-top dark:border-slate-800" data-delivery={d.id} data-status={d.status} data-event-id={d.eventId}>
                  <td className="py-1 pr-3 whitespace-nowrap">{when(d.createdAt)}</td>
                  <td className="py-1 pr-3 font-mono">{d.eventType}</td>
                  <td className="py-1 pr-3" data-delivery-status>
                    {d.status}
                  </td>
                  <td className="py-1 pr-3" data-delivery-attempts>
                    {d.attempts}
                  </td>
                  <td className="py-1 pr-3">
                    <span data-delivery-answer>{answerWords(d)}</span>
                    {d.lastAttempt?.response && <pre className="mt-1 max-h-16 max-w-xs overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-1 dark:bg-slate-800">{d.lastAttempt.response.slice(0, 300)}</pre>}
                  </td>
                  <td className="py-1">
                    <button type="button" className="font-medium underline hover:no-underline disabled:opacity-60" disabled={d.status === "sending" || resend.isPending} onClick={() => resend.mutate(d.id)} data-delivery-resend>
                      {t("webhooks.resend")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function EndpointRow({ org, endpoint, onSecret }: { org: Org; endpoint: Endpoint; onSecret: (secret: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const path = { params: { path: { id: org.id, webhookId: endpoint.id } } };
  const toggle = useMutation({
    mutationFn: () => dataOf(api.PATCH("/organisations/{id}/webhooks/{webhookId}", { ...path, body: { enabled: !endpoint.enabled } })),
    onSuccess: (e) => {
      void refresh(org.id);
      toast({
        title: e.enabled ? t("webhooks.turnedOn") : t("webhooks.turnedOff"),
        description: e.enabled ? t("webhooks.receivesAgain") : t("webhooks.receivesNothing"),
      });
    },
    onError: failed(t("webhooks.notChanged")),
  });
  const test = useMutation({
    mutationFn: () => dataOf(api.POST("/organisations/{id}/webhooks/{webhookId}/test", path)),
    onSuccess: () => {
      setLogOpen(true);
      void queryClient.invalidateQueries({ queryKey: logKey(org.id, endpoint.id) });
      toast({ title: t("webhooks.testQueued"), description: t("webhooks.testInLog") });
    },
    onError: failed(t("webhooks.testNotSent")),
  });
  const rotate = useMutation({
    mutationFn: () => dataOf(api.POST("/organisations/{id}/webhooks/{webhookId}/rotate-secret", path)),
    onSuccess: (e) => {
      onSecret(e.secret);
      toast({ title: t("webhooks.rotated"), description: t("webhooks.rotatedDetail") });
    },
    onError: failed(t("webhooks.notRotated")),
  });
  const remove = useMutation({
    mutationFn: () => dataOf(api.DELETE("/organisations/{id}/webhooks/{webhookId}", path)),
    onSuccess: () => {
      void refresh(org.id);
      toast({ title: t("webhooks.removed"), description: t("webhooks.removedDetail") });
    },
    onError: failed(t("webhooks.notRemoved")),
  });
  const link = "font-medium underline hover:no-underline disabled:opacity-60";
  return (
    <li className="rounded-md border border-slate-200 p-3 dark:border-slate-700" data-webhook={endpoint.id} data-kind={endpoint.kind} data-enabled={endpoint.enabled}>
      <p className="font-medium">
        {kindLabel(endpoint.kind)}
        {endpoint.description && <span className="font-normal text-slate-600 dark:text-slate-300"> — {endpoint.description}</span>}
      </p>
      <p className="break-all font-mono text-xs" data-webhook-url>
        {endpoint.url}
      </p>
      <p className="mt-1 text-xs">{t("webhooks.eventsList", { Events: eventsSummary(endpoint.events) })}</p>
      <p className={"mt-1 text-xs font-medium " + (endpoint.enabled ? "text-emerald-800 dark:text-emerald-300" : "text-amber-800 dark:text-amber-300")} data-webhook-status>
        {statusWords(endpoint)}
      </p>
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <button type="button" className={link} onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
          {t("webhooks.edit")}
        </button>
        <button type="button" className={link} disabled={test.isPending} onClick={() => test.mutate()} data-webhook-test>
          {t("webhooks.sendTest")}
        </button>
        <button type="button" className={link} onClick={() => setLogOpen((v) => !v)} aria-expanded={logOpen} data-webhook-log-toggle>
          {logOpen ? t("webhooks.hideLog") : t("webhooks.log")}
        </button>
        <button type="button" className={link} disabled={toggle.isPending} onClick={() => toggle.mutate()} data-webhook-toggle>
          {endpoint.enabled ? t("webhooks.turnOff") : t("webhooks.turnOn")}
        </button>
        {endpoint.kind === "webhook" && (
          <button type="button" className={link} disabled={rotate.isPending} onClick={() => rotate.mutate()} data-webhook-rotate>
            {t("webhooks.rotate")}
          </button>
        )}
        {confirming ? (
          <span className="inline-flex gap-2" role="group" aria-label={t("webhooks.confirmRemoval")}>
            <span>{t("webhooks.removeQuestion")}</span>
            <button type="button" className={link + " text-red-700 dark:text-red-300"} disabled={remove.isPending} onClick={() => remove.mutate()} data-webhook-delete-confirm>
              {t("webhooks.remove")}
            </button>
            <button type="button" className={link} onClick={() => setConfirming(false)}>
              {t("webhooks.keep")}
            </button>
          </span>
        ) : (
          <button type="button" className={link} onClick={() => setConfirming(true)} data-webhook-delete>
            {t("webhooks.remove")}
          </button>
        )}
      </div>
      {editing && (
        <div className="mt-3">
          <EndpointForm org={org} endpoint={endpoint} onDone={() => setEditing(false)} onSecret={onSecret} />
        </div>
      )}
      {logOpen && <DeliveryLog org={org} endpoint={endpoint} />}
    </li>
  );
}

// WebhookSettings is the section; the organisation page shows it to an
// admin only.
export function WebhookSettings({ org }: { org: Org }) {
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState("");
  const q = useQuery({
    queryKey: listKey(org.id),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/webhooks", { params: { path: { id: org.id } }, signal })),
    retry: false,
  });
  return (
    <Section title={t("webhooks.title")} id="organisation-webhooks">
      <div className="min-h-32 space-y-4" data-webhooks>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {t("webhooks.lead", { Name: org.name })}
        </p>
        {secret && <Secret secret={secret} onClose={() => setSecret("")} />}
        {q.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">{t("webhooks.loading")}</p>}
        {q.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(q.error, t("webhooks.notLoaded"))}</p>}
        {q.data && q.data.length === 0 && <p className="text-sm">{t("webhooks.none")}</p>}
        {q.data && q.data.length > 0 && (
          <ul className="space-y-3" data-webhook-list>
            {q.data.map((e) => (
              <EndpointRow key={e.id} org={org} endpoint={e} onSecret={setSecret} />
            ))}
          </ul>
        )}
        {adding ? (
          <EndpointForm org={org} onDone={() => setAdding(false)} onSecret={setSecret} />
        ) : (
          <button type="button" className={secondaryButton} onClick={() => setAdding(true)} data-webhook-add>
            {t("webhooks.addAnEndpoint")}
          </button>
        )}
      </div>
    </Section>
  );
}
