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

type Endpoint = Schemas["Webhook"];
type LogEntry = Schemas["WebhookLogEntry"];
type Kind = Schemas["WebhookKind"];
type EventType = Schemas["WebhookEvent"];
type Org = { id: string; name: string };

// The kinds and events as forms list them (Go's webhooks.Kinds and
// webhooks.EventTypes, in their order).
export const kinds: { value: Kind; label: string; placeholder: string }[] = [
  { value: "webhook", label: "Webhook (signed JSON)", placeholder: "https://grc.example.com/hooks/regpulse" },
  { value: "slack", label: "Slack channel", placeholder: "https://hooks.slack.com/services/…" },
  { value: "teams", label: "Microsoft Teams channel (Workflows)", placeholder: "https://….logic.azure.com/workflows/…" },
];
export const events: { value: EventType; label: string }[] = [
  { value: "circular.published", label: "Circular published" },
  { value: "circular.revised", label: "Circular revised" },
  { value: "direction.changed", label: "Master Direction changed" },
  { value: "alert.matched", label: "Alert matched" },
  { value: "obligation.due", label: "Obligation coming due" },
  { value: "decision.changed", label: "Decision changed" },
];
const kindLabel = (k: string) => kinds.find((x) => x.value === k)?.label ?? k;
const eventLabel = (e: string) => events.find((x) => x.value === e)?.label ?? e;

// webhookSchema checks the form as the API does (its rules through
// rules.gen.ts; the URL's address the API alone checks).
export const webhookSchema = z.object({
  kind: z.string(),
  url: ruleSchema(rules.webhookUrl),
  description: ruleSchema(rules.webhookDescription),
  events: z.array(z.string()).check(z.minLength(1, "Choose at least one event")),
});
type Values = z.infer<typeof webhookSchema>;

const listKey = (org: string) => ["/organisations/{id}/webhooks", org] as const;
const logKey = (org: string, id: string) => ["/organisations/{id}/webhooks/{webhookId}/deliveries", org, id] as const;
const refresh = (org: string) => queryClient.invalidateQueries({ queryKey: listKey(org) });
const failed = (title: string) => (err: unknown) => toast({ title, description: userMessage(err, "Something went wrong. Please try again."), variant: "destructive" });

// statusWords says whether an endpoint is on, and why not.
export function statusWords(e: Pick<Endpoint, "enabled" | "disabledReason" | "failures">): string {
  if (e.enabled) return e.failures > 0 ? `On, ${e.failures} failed ${e.failures === 1 ? "delivery" : "deliveries"} in a row` : "On";
  return e.disabledReason ? `Off: ${e.disabledReason}` : "Off (turned off by an admin)";
}

// answerWords is a delivery's last answer in a few words.
export function answerWords(d: LogEntry): string {
  const a = d.lastAttempt;
  if (!a) return "Not sent yet";
  const what = a.statusCode ? `HTTP ${a.statusCode}` : a.error || "No answer";
  return `${what} after ${a.durationMs} ms`;
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
      toast({ title: endpoint ? "Endpoint saved" : "Endpoint added", description: `${kindLabel(e.kind)}: ${eventsSummary(e.events)}.` });
      if (e.secret) onSecret(e.secret);
      form.reset();
      onDone();
    },
    onError: (err) => {
      apiFields(err);
      failed(endpoint ? "Could not save the endpoint" : "Could not add the endpoint")(err);
    },
  });
  const errors = form.formState.errors;
  const placeholder = kinds.find((k) => k.value === kind)?.placeholder;
  return (
    <form noValidate className="max-w-xl space-y-4 rounded-md border border-slate-200 p-4 dark:border-slate-700" data-webhook-form onSubmit={form.handleSubmit((v) => save.mutate(v))}>
      <div className="space-y-1">
        <label htmlFor={`${prefix}-kind`} className="block text-sm font-medium">
          Kind
        </label>
        <select id={`${prefix}-kind`} className={inputClass} disabled={!!endpoint} {...form.register("kind")}>
          {kinds.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
        <FieldError id={`${prefix}-kind-error`} message={errors.kind?.message} />
      </div>
      <Field id={`${prefix}-url`} label="URL" type="url" inputMode="url" autoComplete="off" placeholder={placeholder} error={errors.url?.message} reg={form.register("url")} />
      <Field id={`${prefix}-description`} label="Description (optional)" autoComplete="off" error={errors.description?.message} reg={form.register("description")} />
      <div data-webhook-events>
        <Checkboxes legend="Events" name={`${prefix}-events`} values={events} reg={form.register("events")} />
        <FieldError id={`${prefix}-events-error`} message={errors.events?.message} />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={secondaryButton} disabled={save.isPending}>
          {save.isPending ? "Saving..." : endpoint ? "Save endpoint" : "Add endpoint"}
        </button>
        <button type="button" className={secondaryButton} onClick={onDone}>
          Cancel
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
      <p className="font-medium">The signing secret, shown this once</p>
      <p>Keep it where your receiver verifies signatures (Standard Webhooks). Rotate it to get a new one.</p>
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
              .then(() => toast({ title: "Secret copied" }))
              .catch(failed("Could not copy the secret"))
          }
        >
          Copy secret
        </button>
        <button type="button" className={secondaryButton} onClick={onClose}>
          Done
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
      toast({ title: "Delivery queued again", description: "Same event and webhook-id: a receiver that has it drops the repeat." });
    },
    onError: failed("Could not resend the delivery"),
  });
  return (
    <div className="mt-3 min-h-24 text-sm" data-webhook-log>
      <h3 className="font-semibold">Delivery log</h3>
      {q.isPending && <p className="text-slate-600 dark:text-slate-300">Loading deliveries...</p>}
      {q.isError && <p className="text-red-700 dark:text-red-300">{userMessage(q.error, "Could not load the deliveries.")}</p>}
      {q.data && q.data.length === 0 && <p className="text-slate-600 dark:text-slate-300">No deliveries yet: send a test event.</p>}
      {q.data && q.data.length > 0 && (
        <div className="overflow-x-auto">
          <table className="mt-2 w-full text-left text-xs">
            <caption className="sr-only">Deliveries to {endpoint.url}, newest first</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-1 pr-3">
                  Time
                </th>
                <th scope="col" className="py-1 pr-3">
                  Event
                </th>
                <th scope="col" className="py-1 pr-3">
                  Status
                </th>
                <th scope="col" className="py-1 pr-3">
                  Attempts
                </th>
                <th scope="col" className="py-1 pr-3">
                  Last answer
                </th>
                <th scope="col" className="py-1">
                  <span className="sr-only">Actions</span>
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
                      Resend
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
      toast({ title: e.enabled ? "Endpoint turned on" : "Endpoint turned off", description: e.enabled ? "It receives its events again." : "It receives nothing until turned on." });
    },
    onError: failed("Could not change the endpoint"),
  });
  const test = useMutation({
    mutationFn: () => dataOf(api.POST("/organisations/{id}/webhooks/{webhookId}/test", path)),
    onSuccess: () => {
      setLogOpen(true);
      void queryClient.invalidateQueries({ queryKey: logKey(org.id, endpoint.id) });
      toast({ title: "Test event queued", description: "It shows in the delivery log once sent." });
    },
    onError: failed("Could not send a test event"),
  });
  const rotate = useMutation({
    mutationFn: () => dataOf(api.POST("/organisations/{id}/webhooks/{webhookId}/rotate-secret", path)),
    onSuccess: (e) => {
      onSecret(e.secret);
      toast({ title: "Secret rotated", description: "Deliveries are signed with the new secret from now on." });
    },
    onError: failed("Could not rotate the secret"),
  });
  const remove = useMutation({
    mutationFn: () => dataOf(api.DELETE("/organisations/{id}/webhooks/{webhookId}", path)),
    onSuccess: () => {
      void refresh(org.id);
      toast({ title: "Endpoint removed", description: "Its deliveries not yet sent will not be." });
    },
    onError: failed("Could not remove the endpoint"),
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
      <p className="mt-1 text-xs">Events: {eventsSummary(endpoint.events)}</p>
      <p className={"mt-1 text-xs font-medium " + (endpoint.enabled ? "text-emerald-800 dark:text-emerald-300" : "text-amber-800 dark:text-amber-300")} data-webhook-status>
        {statusWords(endpoint)}
      </p>
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <button type="button" className={link} onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
          Edit
        </button>
        <button type="button" className={link} disabled={test.isPending} onClick={() => test.mutate()} data-webhook-test>
          Send test event
        </button>
        <button type="button" className={link} onClick={() => setLogOpen((v) => !v)} aria-expanded={logOpen} data-webhook-log-toggle>
          {logOpen ? "Hide delivery log" : "Delivery log"}
        </button>
        <button type="button" className={link} disabled={toggle.isPending} onClick={() => toggle.mutate()} data-webhook-toggle>
          {endpoint.enabled ? "Turn off" : "Turn on"}
        </button>
        {endpoint.kind === "webhook" && (
          <button type="button" className={link} disabled={rotate.isPending} onClick={() => rotate.mutate()} data-webhook-rotate>
            Rotate secret
          </button>
        )}
        {confirming ? (
          <span className="inline-flex gap-2" role="group" aria-label="Confirm removal">
            <span>Remove this endpoint and its log?</span>
            <button type="button" className={link + " text-red-700 dark:text-red-300"} disabled={remove.isPending} onClick={() => remove.mutate()} data-webhook-delete-confirm>
              Remove
            </button>
            <button type="button" className={link} onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className={link} onClick={() => setConfirming(true)} data-webhook-delete>
            Remove
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
    <Section title="Webhooks and chat channels" id="organisation-webhooks">
      <div className="min-h-32 space-y-4" data-webhooks>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Send {org.name}&apos;s events to your systems (a webhook signed per Standard Webhooks) or to a Slack or Microsoft Teams channel.
        </p>
        {secret && <Secret secret={secret} onClose={() => setSecret("")} />}
        {q.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">Loading endpoints...</p>}
        {q.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(q.error, "Could not load the endpoints.")}</p>}
        {q.data && q.data.length === 0 && <p className="text-sm">No endpoints yet.</p>}
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
            Add an endpoint
          </button>
        )}
      </div>
    </Section>
  );
}
