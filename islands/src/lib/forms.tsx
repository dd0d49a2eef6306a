// Form parts of the account pages (sign-in, sign-up, profile), and the
// zod rules with the product's messages, which the API checks again.
import { useState, type InputHTMLAttributes, type ReactNode } from "react";
import type { FieldErrors, FieldValues, Resolver, UseFormRegisterReturn } from "react-hook-form";
import * as z from "zod/mini";
import strings from "../../../internal/i18n/strings/form.json";
import { translator } from "./i18n";
import { rules, type Rule } from "./rules.gen";
import { inputClass } from "./styles";

const t = translator(strings);

export { inputClass, primaryButton, secondaryButton } from "./styles";

type Kind = keyof Rule["messages"];

// ruleMessage is rule r's message of a kind in the page's language, read
// when a check fails: the catalogue's form.rule.{rule}.{kind}, the API's
// English when the catalogue has no such key.
function ruleMessage(r: Rule, kind: Kind): () => string {
  const name = Object.entries(rules).find(([, v]) => v === r)?.[0];
  const key = `form.rule.${name}.${kind}`;
  return () => (name && key in strings ? t(key) : (r.messages[kind] ?? ""));
}

// ruleSchema checks a string as the API's rule r does (api/validate.go,
// through rules.gen.ts), with its messages: the first failing check, in
// the API's order, is the field's message.
export function ruleSchema(r: Rule) {
  const checks: z.core.$ZodCheck<string>[] = [];
  const m = (kind: Kind) => ({ error: ruleMessage(r, kind) });
  if (r.trim) checks.push(z.trim());
  if (r.messages.required) checks.push(z.minLength(1, m("required")));
  else if (r.format) checks.push(z.minLength(1, m("format")));
  if (r.minLength) checks.push(z.minLength(r.minLength, m("short")));
  if (r.maxLength) checks.push(z.maxLength(r.maxLength, m("long")));
  if (r.noControl || r.noEdgeSpaces) {
    checks.push(z.refine((s: string) => !(r.noControl && /\p{Cc}/u.test(s)) && !(r.noEdgeSpaces && s.trim() !== s), m("control")));
  }
  if (r.format === "email") checks.push(z.email(m("format")));
  return z.string().check(...checks);
}

export const loginSchema = z.object({
  username: ruleSchema(rules.loginUsername),
  password: ruleSchema(rules.loginPassword),
});

// ssoSchema is the work address that starts single sign-on.
export const ssoSchema = z.object({
  email: ruleSchema(rules.email),
});

export const signupSchema = z.object({
  firstName: ruleSchema(rules.firstName),
  lastName: ruleSchema(rules.lastName),
  username: ruleSchema(rules.username),
  email: ruleSchema(rules.email),
  password: ruleSchema(rules.password),
});

// organisationSchema is POST /organisations' name (the entity types are
// checkboxes of Go's values).
export const organisationSchema = z.object({
  name: ruleSchema(rules.organisationName),
  entityTypes: z.array(z.string()),
});

// inviteSchema is POST /organisations/{id}/invites' address and role;
// the API says whether a role needs an end of access (accessEndsAt).
export const inviteSchema = z.object({
  email: ruleSchema(rules.inviteEmail),
  role: z.string(),
  accessEndsOn: z.string(),
});

// apiKeySchema is POST /organisations/{id}/api-keys' name, scope and
// the day it expires on (the API bounds it: at most 366 days away).
export const apiKeySchema = z.object({
  name: ruleSchema(rules.apiKeyName),
  scope: z.string(),
  expiresOn: z.string().check(z.minLength(1, { error: () => t("form.chooseExpiry") })),
});

export const passwordSchema = z.object({
  currentPassword: ruleSchema(rules.currentPassword),
  newPassword: ruleSchema(rules.password),
});

// zodResolver checks a form's values with a zod schema: one message per
// field, the first its rules give.
export function zodResolver<T extends FieldValues>(schema: z.ZodMiniType<T>): Resolver<T> {
  return async (values) => {
    const r = schema.safeParse(values);
    if (r.success) return { values: r.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of r.error.issues) {
      const key = issue.path.join(".");
      errors[key] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}

type FieldProps = {
  id: string;
  label: string;
  error?: string;
  reg: UseFormRegisterReturn;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id">;

// Field is a labelled input with its message below it.
export function Field({ id, label, error, reg, ...rest }: FieldProps) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input id={id} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...rest} {...reg} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm text-red-700 dark:text-red-400" data-field-error>
      {message}
    </p>
  ) : null;
}

// PasswordField is a password input with a show/hide toggle.
export function PasswordField({ id, label, error, reg, ...rest }: FieldProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={shown ? "text" : "password"}
          className={inputClass + " pr-20"}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...rest}
          {...reg}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 px-3 text-sm font-medium text-brand-700 hover:underline dark:text-blue-300"
          aria-label={t(shown ? "form.hideField" : "form.showField", { Field: label.toLowerCase() })}
          aria-controls={id}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? t("form.hide") : t("form.show")}
        </button>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

// AuthCard frames the sign-in and sign-up forms.
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{subtitle}</p>
      <div className="mt-6">{children}</div>
    </div>
  );
}

// Section is one titled card of a page's form (the profile's parts).
export function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

// Checkboxes is a fieldset of checkboxes, one per value, registered as
// one react-hook-form field (an array of the values checked).
export function Checkboxes({ legend, name, values, reg }: { legend: string; name: string; values: { value: string; label: string }[]; reg: UseFormRegisterReturn }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {values.map(({ value, label }) => (
          <label key={value} className="inline-flex items-center gap-2 text-sm">
            <input type="checkbox" value={value} className="h-4 w-4 accent-brand-700" {...reg} id={`${name}-${value}`} />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
