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
import strings from "../../../internal/i18n/strings/apiKeys.json";
import { translator } from "./i18n";

const t = translator(strings);

export type APIKey = Schemas["APIKey"];
type Org = { id: string; name: string };
type Values = z.infer<typeof apiKeySchema>;

const keysKey = (id: string) => ["/organisations/{id}/api-keys", id] as const;

// scopes are the keys of each scope's name in the form and of what it
// allows, shown under the select (a long option text is cut off on a
// phone).
export const scopes: Record<string, { label: string; allows: string }> = {
  read: { label: "apiKeys.scopeRead", allows: "apiKeys.readAllows" },
  "read-write": { label: "apiKeys.scopeReadWrite", allows: "apiKeys.readWriteAllows" },
};

// day is a date n days after now, as a date input's value (UTC).
export const day = (now: Date, n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10);

// keyState says a key's state in words.
export function keyState(k: APIKey): string {
  if (k.status === "revoked") return k.revokedAt ? t("apiKeys.revokedOn", { Date: longDate(k.revokedAt) }) : t("apiKeys.revoked");
  if (k.status === "expired") return t("apiKeys.expired", { Date: longDate(k.expiresAt) });
  return t("apiKeys.activeUntil", { Date: longDate(k.expiresAt) });
}

// lastUsed says when a key was last used (to the minute).
export const lastUsed = (k: APIKey) => (k.lastUsedAt ? t("apiKeys.lastUsed", { Date: longDate(k.lastUsedAt) }) : t("apiKeys.neverUsed"));

function NewToken({ token, onDone }: { token: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="alert" className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950" data-api-key-token>
      <p className="font-semibold">{t("apiKeys.copyNow")}</p>
      <p>{t("apiKeys.hashOnly")}</p>
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
              toast({ title: t("apiKeys.tokenCopied"), description: t("apiKeys.pasteNow") });
            } catch {
              toast({ title: t("apiKeys.notCopied"), description: t("apiKeys.copyYourself"), variant: "destructive" });
            }
          }}
        >
          {copied ? t("apiKeys.copied") : t("apiKeys.copyToken")}
        </button>
        <button type="button" className={secondaryButton} onClick={onDone} data-token-done>
          {t("apiKeys.haveCopied")}
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
      toast({ title: t("apiKeys.created"), description: t("apiKeys.worksUntil", { Name: created.key.name, Date: longDate(created.key.expiresAt) }) });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        if (err.fields.name) form.setError("name", { message: err.fields.name });
        if (err.fields.scope) form.setError("scope", { message: err.fields.scope });
        if (err.fields.expiresAt) form.setError("expiresOn", { message: t("apiKeys.expiresOnError", { Message: err.fields.expiresAt }) });
      }
      failed(t("apiKeys.notCreated"))(err);
    },
  });
  const errors = form.formState.errors;
  return (
    <form noValidate className="mt-6 max-w-xl space-y-4" onSubmit={form.handleSubmit((v) => create.mutate(v))} data-api-key-form>
      <h3 className="font-semibold">{t("apiKeys.createHeading")}</h3>
      <Field id="api-key-name" label={t("apiKeys.keyName")} autoComplete="off" placeholder={t("apiKeys.namePlaceholder")} error={errors.name?.message} reg={form.register("name")} />
      <div className="space-y-1">
        <label htmlFor="api-key-scope" className="block text-sm font-medium">
          {t("apiKeys.scope")}
        </label>
        <select
          id="api-key-scope"
          className={inputClass}
          aria-describedby={errors.scope ? "api-key-scope-hint api-key-scope-error" : "api-key-scope-hint"}
          {...form.register("scope")}
        >
          {Object.entries(scopes).map(([v, s]) => (
            <option key={v} value={v}>
              {t(s.label)}
            </option>
          ))}
        </select>
        <p id="api-key-scope-hint" className="text-xs text-slate-600 dark:text-slate-300">
          {scopes[form.watch("scope")] ? t(scopes[form.watch("scope")].allows) : ""}
        </p>
        <FieldError id="api-key-scope-error" message={errors.scope?.message} />
      </div>
      <div className="space-y-1">
        <label htmlFor="api-key-expires" className="block text-sm font-medium">
          {t("apiKeys.expiresOn")}
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
          {t("apiKeys.expiresHint")}
        </p>
        <FieldError id="api-key-expires-error" message={errors.expiresOn?.message} />
      </div>
      <button type="submit" className={secondaryButton} disabled={create.isPending}>
        {create.isPending ? t("apiKeys.creating") : t("apiKeys.createKey")}
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
      toast({ title: t("apiKeys.keyRevoked"), description: t("apiKeys.refused", { Name: revoked.name }) });
    },
    onError: failed(t("apiKeys.notRevoked")),
  });
  return (
    <li className="space-y-1 p-3 text-sm" data-api-key={k.id} data-status={k.status}>
      <p className="flex flex-wrap items-baseline gap-x-3">
        <span className="font-medium">{k.name}</span>
        <span className="font-mono text-xs">{k.prefix}…</span>
        <span className="text-xs">{k.scope === "read-write" ? t("apiKeys.readWriteShort") : t("apiKeys.readShort")}</span>
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        {k.createdByName
          ? t("apiKeys.rowBy", { State: keyState(k), Used: lastUsed(k), Date: longDate(k.createdAt), Name: k.createdByName })
          : t("apiKeys.row", { State: keyState(k), Used: lastUsed(k), Date: longDate(k.createdAt) })}
      </p>
      {k.status === "active" && !confirming && (
        <button type="button" className={secondaryButton} onClick={() => setConfirming(true)} data-revoke>
          {t("apiKeys.revoke")}
        </button>
      )}
      {k.status === "active" && confirming && (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t("apiKeys.revokeName", { Name: k.name })}>
          <span>{t("apiKeys.confirmRevoke", { Name: k.name })}</span>
          <button type="button" className={secondaryButton} disabled={revoke.isPending} onClick={() => revoke.mutate()} data-confirm-revoke>
            {revoke.isPending ? t("apiKeys.revoking") : t("apiKeys.revokeKey")}
          </button>
          <button type="button" className={secondaryButton} onClick={() => setConfirming(false)}>
            {t("apiKeys.cancel")}
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
    <Section title={t("apiKeys.title")} id="organisation-api-keys">
      <div data-api-keys>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
          {t("apiKeys.lead", { Name: org.name })}
        </p>
        {token && <NewToken token={token} onDone={() => setToken("")} />}
        {/* The list's room is kept while it loads: nothing below moves. */}
        <div className="min-h-16">
          {q.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">{t("apiKeys.loading")}</p>}
          {q.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(q.error, t("apiKeys.notLoaded"))}</p>}
          {q.data?.length === 0 && (
            <p className="text-sm" data-no-api-keys>
              {t("apiKeys.none")}
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
