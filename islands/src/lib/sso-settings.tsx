// An organisation's single sign-on settings, on /organisation for its
// admins (the organisation's canManageMembers, which the API decides):
// the provider's issuer URL, client id and secret (write-only: the API
// shows its last characters; left empty, the stored one is kept), the
// e-mail domains and whether it is on; the callback address to register
// with the provider; and, for each domain, the DNS TXT record that proves
// the organisation holds it, with a button asking the API to look.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState, type InputHTMLAttributes } from "react";
import { api, ApiError, dataOf, userMessage, type Schemas } from "./api";
import { FieldError, inputClass, secondaryButton, Section } from "./forms";
import { queryClient } from "./query";
import { toast } from "./toast";
import strings from "../../../internal/i18n/strings/sso.json";
import { translator } from "./i18n";

const t = translator(strings);

type Settings = Schemas["SSOSettings"];
type Org = { id: string; name: string };

// recordPrefix begins the name of a domain's TXT record (Go's
// sso.RecordPrefix).
export const recordPrefix = "_regpulse-sso.";

const ssoKey = (id: string) => ["/organisations/{id}/sso", id] as const;

// domainsOf splits what the admin typed (commas, spaces or lines).
export const domainsOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);

// labels are the fields' names' keys, by the API's field.
const labels: Record<string, string> = { issuer: "sso.issuer", clientId: "sso.clientId", clientSecret: "sso.clientSecret", domains: "sso.domains" };

// verifyWords says in plain words what POST .../sso/verify found.
export function verifyWords(s: Settings): string {
  const why = Object.entries(s.unverified);
  if (why.length === 0) return s.domains.length === 0 ? t("sso.noDomains") : t("sso.allVerified");
  const ok = s.verifiedDomains.length > 0 ? t("sso.verified", { Domains: s.verifiedDomains.join(", ") }) : "";
  return ok + why.map(([d, reason]) => t("sso.notVerifiedYet", { Domain: d, Reason: reason })).join(" ");
}

function TextField({ id, label, value, onChange, error, hint, ...rest }: { id: string; label: string; value: string; onChange: (v: string) => void; error?: string; hint?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value">) {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input id={id} className={inputClass} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described} {...rest} />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-300">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function Form({ org, settings }: { org: Org; settings: Settings }) {
  const [issuer, setIssuer] = useState(settings.issuer);
  const [clientId, setClientId] = useState(settings.clientId);
  const [secret, setSecret] = useState("");
  const [domains, setDomains] = useState(settings.domains.join(", "));
  const [enabled, setEnabled] = useState(settings.enabled);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    setIssuer(settings.issuer);
    setClientId(settings.clientId);
    setDomains(settings.domains.join(", "));
    setEnabled(settings.enabled);
  }, [settings]);
  const save = useMutation({
    mutationFn: () =>
      dataOf(
        api.PUT("/organisations/{id}/sso", {
          params: { path: { id: org.id } },
          body: { issuer, clientId, clientSecret: secret || undefined, domains: domainsOf(domains), enabled },
        }),
      ),
    onSuccess: (s) => {
      queryClient.setQueryData(ssoKey(org.id), s);
      setSecret("");
      setErrors({});
      toast({ title: t("sso.saved"), description: s.enabled ? t("sso.savedOn", { Name: org.name }) : t("sso.savedOff") });
    },
    onError: (err) => {
      setErrors(err instanceof ApiError ? Object.fromEntries(Object.entries(err.fields).map(([k, m]) => [k, t("sso.fieldError", { Field: labels[k] ? t(labels[k]) : k, Message: m })])) : {});
      toast({ title: t("sso.notSaved"), description: userMessage(err, t("sso.somethingWrong")), variant: "destructive" });
    },
  });
  const secretHint = settings.clientSecretHint ? t("sso.secretSet", { Hint: settings.clientSecretHint }) : t("sso.noSecret");
  return (
    <form
      noValidate
      className="max-w-xl space-y-4"
      data-sso-form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <TextField id="sso-issuer" label={t("sso.issuer")} type="url" inputMode="url" autoComplete="off" placeholder="https://login.example.com" value={issuer} onChange={setIssuer} error={errors.issuer} />
      <TextField id="sso-client-id" label={t("sso.clientId")} autoComplete="off" value={clientId} onChange={setClientId} error={errors.clientId} />
      <TextField id="sso-client-secret" label={t("sso.clientSecret")} type="password" autoComplete="new-password" value={secret} onChange={setSecret} error={errors.clientSecret} hint={secretHint} />
      <TextField
        id="sso-domains"
        label={t("sso.domains")}
        autoComplete="off"
        placeholder="example.co.in"
        value={domains}
        onChange={setDomains}
        error={errors.domains}
        hint={t("sso.domainsHint")}
      />
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} data-sso-enabled />
        {t("sso.isOn")}
      </label>
      <button type="submit" className={secondaryButton} disabled={save.isPending}>
        {save.isPending ? t("sso.saving") : t("sso.save")}
      </button>
    </form>
  );
}

function Records({ org, settings }: { org: Org; settings: Settings }) {
  const [result, setResult] = useState<string>("");
  const verify = useMutation({
    mutationFn: () => dataOf(api.POST("/organisations/{id}/sso/verify", { params: { path: { id: org.id } } })),
    onSuccess: (s) => {
      queryClient.setQueryData(ssoKey(org.id), s);
      setResult(verifyWords(s));
    },
    onError: (err) => setResult(userMessage(err, t("sso.lookupFailed"))),
  });
  return (
    <div className="mt-6 space-y-3 text-sm" data-sso-records>
      <h3 className="font-semibold">{t("sso.prove")}</h3>
      <p>{t("sso.proveLead")}</p>
      <ul className="space-y-2">
        {settings.domains.map((d) => {
          const verified = settings.verifiedDomains.includes(d);
          return (
            <li key={d} className="rounded-md border border-slate-200 p-3 dark:border-slate-700" data-sso-domain={d} data-verified={verified}>
              <p className="font-medium">
                {d}: <span className={verified ? "text-emerald-800 dark:text-emerald-300" : "text-amber-800 dark:text-amber-300"}>{verified ? t("sso.domainVerified") : t("sso.domainNotVerified")}</span>
              </p>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
                <dt className="font-medium">{t("sso.type")}</dt>
                <dd>TXT</dd>
                <dt className="font-medium">{t("sso.name")}</dt>
                <dd className="break-all font-mono" data-record-name>
                  {recordPrefix + d}
                </dd>
                <dt className="font-medium">{t("sso.value")}</dt>
                <dd className="break-all font-mono" data-record-value>
                  {settings.recordValue}
                </dd>
              </dl>
            </li>
          );
        })}
      </ul>
      <button type="button" className={secondaryButton} disabled={verify.isPending} onClick={() => verify.mutate()} data-sso-verify>
        {verify.isPending ? t("sso.lookingUp") : t("sso.verify")}
      </button>
      <p role="status" className="min-h-5" data-sso-verify-result>
        {result}
      </p>
    </div>
  );
}

// SSOSettings is the section; the organisation page shows it to an
// admin only.
export function SSOSettings({ org }: { org: Org }) {
  const q = useQuery({
    queryKey: ssoKey(org.id),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/sso", { params: { path: { id: org.id } }, signal })),
    retry: false,
  });
  return (
    <Section title={t("sso.title")} id="organisation-sso">
      <div data-sso>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
          {t("sso.lead", { Name: org.name })}
        </p>
        {q.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">{t("sso.loading")}</p>}
        {q.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(q.error, t("sso.notLoaded"))}</p>}
        {q.data && (
          <>
            <div className="mb-4 text-sm">
              <p className="font-medium">{t("sso.callback")}</p>
              <p className="break-all font-mono text-xs" data-sso-callback>
                {q.data.redirectUri}
              </p>
            </div>
            <Form org={org} settings={q.data} />
            {q.data.configured && q.data.domains.length > 0 && <Records org={org} settings={q.data} />}
          </>
        )}
      </div>
    </Section>
  );
}
