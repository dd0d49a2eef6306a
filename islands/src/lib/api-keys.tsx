// An organisation's API keys (issue 47), on /organisation for its admins
// (canManageMembers, which the API decides): the keys with their prefix,
// scope, state, expiry, creator and last use; a form creating one (name,
// scope, the day it expires on) whose token is shown once, with a copy
// button; and revoking one, after a confirmation. What a key may do is
// the API's (Go's apikeys scopes); nothing here decides it.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import { api, ApiError, dataOf, userMessage, type Schemas } from "./api";
import { apiKeySchema, Field, FieldError, inputClass, secondaryButton, Section, zodResolver } from "./forms";
import { queryClient } from "./query";
import { failed, longDate } from "./teams";
import { toast } from "./toast";

export type APIKey = Schemas["APIKey"];
type Org = { id: string; name: string };
type Values = z.infer<typeof apiKeySchema>;

const keysKey = (id: string) => ["/organisations/{id}/api-keys", id] as const;

// scopes are each scope's name in the form and what it allows, shown
// under the select (a long option text is cut off on a phone).
export const scopes: Record<string, { label: string; allows: string }> = {
  read: { label: "Read", allows: "Reads the organisation's register, decisions and evidence, and the public calls." },
  "read-write": { label: "Read and write", allows: "Also records decisions, comments and evidence; every request is in the audit trail." },
};

// day is a date n days after now, as a date input's value (UTC).
export const day = (now: Date, n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10);

// keyState says a key's state in words.
export function keyState(k: APIKey): string {
  if (k.status === "revoked") return `Revoked ${k.revokedAt ? longDate(k.revokedAt) : ""}`.trim();
  if (k.status === "expired") return `Expired ${longDate(k.expiresAt)}`;
  return `Active until ${longDate(k.expiresAt)}`;
}

// lastUsed says when a key was last used (to the minute).
export const lastUsed = (k: APIKey) => (k.lastUsedAt ? `Last used ${longDate(k.lastUsedAt)}` : "Never used");

function NewToken({ token, onDone }: { token: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="alert" className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950" data-api-key-token>
      <p className="font-semibold">Copy this token now: you will not see it again.</p>
      <p>RegPulse keeps only its hash. Send it as Authorization: Bearer with every request.</p>
      <p className="break-all rounded bg-white p-2 font-mono text-xs dark:bg-slate-900" data-token>
        {token}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className={secondaryButton}
          data-copy-token
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(token);
              setCopied(true);
              toast({ title: "Token copied", description: "Paste it into your system's settings now." });
            } catch {
              toast({ title: "Could not copy", description: "Select the token and copy it yourself.", variant: "destructive" });
            }
          }}
        >
          {copied ? "Copied" : "Copy token"}
        </button>
        <button type="button" className={secondaryButton} onClick={onDone} data-token-done>
          I have copied it
        </button>
      </div>
    </div>
  );
}

function CreateKey({ org, onCreated }: { org: Org; onCreated: (token: string) => void }) {
  const now = new Date();
  const form = useForm<Values>({ resolver: zodResolver(apiKeySchema), defaultValues: { name: "", scope: "read", expiresOn: day(now, 90) } });
  const create = useMutation({
    mutationFn: (v: Values) =>
      dataOf(
        api.POST("/organisations/{id}/api-keys", {
          params: { path: { id: org.id } },
          body: { name: v.name, scope: v.scope as APIKey["scope"], expiresAt: `${v.expiresOn}T00:00:00Z` },
        }),
      ),
    onSuccess: (created) => {
      queryClient.setQueryData(keysKey(org.id), (old: APIKey[] | undefined) => [created.key, ...(old ?? [])]);
      form.reset({ name: "", scope: "read", expiresOn: day(new Date(), 90) });
      onCreated(created.token);
      toast({ title: "API key created", description: `${created.key.name} works until ${longDate(created.key.expiresAt)}.` });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        if (err.fields.name) form.setError("name", { message: err.fields.name });
        if (err.fields.scope) form.setError("scope", { message: err.fields.scope });
        if (err.fields.expiresAt) form.setError("expiresOn", { message: `Expires on: ${err.fields.expiresAt}` });
      }
      failed("Could not create the API key")(err);
    },
  });
  const errors = form.formState.errors;
  return (
    <form noValidate className="mt-6 max-w-xl space-y-4" onSubmit={form.handleSubmit((v) => create.mutate(v))} data-api-key-form>
      <h3 className="font-semibold">Create a key</h3>
      <Field id="api-key-name" label="Key name" autoComplete="off" placeholder="ServiceNow GRC feed" error={errors.name?.message} reg={form.register("name")} />
      <div className="space-y-1">
        <label htmlFor="api-key-scope" className="block text-sm font-medium">
          Scope
        </label>
        <select
          id="api-key-scope"
          className={inputClass}
          aria-describedby={errors.scope ? "api-key-scope-hint api-key-scope-error" : "api-key-scope-hint"}
          {...form.register("scope")}
        >
          {Object.entries(scopes).map(([v, s]) => (
            <option key={v} value={v}>
              {s.label}
            </option>
          ))}
        </select>
        <p id="api-key-scope-hint" className="text-xs text-slate-600 dark:text-slate-300">
          {scopes[form.watch("scope")]?.allows ?? ""}
        </p>
        <FieldError id="api-key-scope-error" message={errors.scope?.message} />
      </div>
      <div className="space-y-1">
        <label htmlFor="api-key-expires" className="block text-sm font-medium">
          Expires on
        </label>
        <input
          id="api-key-expires"
          type="date"
          min={day(now, 1)}
          max={day(now, 365)}
          className={inputClass}
          aria-invalid={errors.expiresOn ? true : undefined}
          aria-describedby={errors.expiresOn ? "api-key-expires-hint api-key-expires-error" : "api-key-expires-hint"}
          {...form.register("expiresOn")}
        />
        <p id="api-key-expires-hint" className="text-xs text-slate-600 dark:text-slate-300">
          At most a year away: a key is looked at again at least once a year.
        </p>
        <FieldError id="api-key-expires-error" message={errors.expiresOn?.message} />
      </div>
      <button type="submit" className={secondaryButton} disabled={create.isPending}>
        {create.isPending ? "Creating..." : "Create key"}
      </button>
    </form>
  );
}

function KeyRow({ org, k }: { org: Org; k: APIKey }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => dataOf(api.DELETE("/organisations/{id}/api-keys/{keyId}", { params: { path: { id: org.id, keyId: k.id } } })),
    onSuccess: (revoked) => {
      queryClient.setQueryData(keysKey(org.id), (old: APIKey[] | undefined) => (old ?? []).map((o) => (o.id === revoked.id ? revoked : o)));
      setConfirming(false);
      toast({ title: "API key revoked", description: `${revoked.name} is refused from now on.` });
    },
    onError: failed("Could not revoke the API key"),
  });
  return (
    <li className="space-y-1 p-3 text-sm" data-api-key={k.id} data-status={k.status}>
      <p className="flex flex-wrap items-baseline gap-x-3">
        <span className="font-medium">{k.name}</span>
        <span className="font-mono text-xs">{k.prefix}…</span>
        <span className="text-xs">{k.scope === "read-write" ? "read and write" : "read"}</span>
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        {keyState(k)}. {lastUsed(k)}. Created {longDate(k.createdAt)}
        {k.createdByName ? ` by ${k.createdByName}` : ""}.
      </p>
      {k.status === "active" && !confirming && (
        <button type="button" className={secondaryButton} onClick={() => setConfirming(true)} data-revoke>
          Revoke
        </button>
      )}
      {k.status === "active" && confirming && (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label={`Revoke ${k.name}`}>
          <span>Revoke {k.name}? Systems using it are refused at once; this cannot be undone.</span>
          <button type="button" className={secondaryButton} disabled={revoke.isPending} onClick={() => revoke.mutate()} data-confirm-revoke>
            {revoke.isPending ? "Revoking..." : "Revoke key"}
          </button>
          <button type="button" className={secondaryButton} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
    </li>
  );
}

// APIKeys is the section; the organisation page shows it to an admin
// only.
export function APIKeys({ org }: { org: Org }) {
  const [token, setToken] = useState("");
  const q = useQuery({
    queryKey: keysKey(org.id),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/api-keys", { params: { path: { id: org.id } }, signal })),
    retry: false,
  });
  return (
    <Section title="API keys" id="organisation-api-keys">
      <div data-api-keys>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
          Keys let {org.name}'s own systems (a GRC tool, a script) call the RegPulse API for this organisation only. No key manages members, keys or single sign-on.
        </p>
        {token && <NewToken token={token} onDone={() => setToken("")} />}
        {/* The list's room is kept while it loads: nothing below moves. */}
        <div className="min-h-16">
          {q.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">Loading the API keys...</p>}
          {q.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(q.error, "Could not load the API keys.")}</p>}
          {q.data?.length === 0 && (
            <p className="text-sm" data-no-api-keys>
              No API keys yet.
            </p>
          )}
          {q.data && q.data.length > 0 && (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800" data-api-key-list>
              {q.data.map((k) => (
                <KeyRow key={k.id} org={org} k={k} />
              ))}
            </ul>
          )}
        </div>
        <CreateKey org={org} onCreated={setToken} />
      </div>
    </Section>
  );
}
