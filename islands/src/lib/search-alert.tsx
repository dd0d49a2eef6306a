// "Create alert for this search" on /search: signed in, it saves the
// search (query, source, category) as a daily alert; signed out, it leads
// through sign-in and back to the same search, which then saves it
// (?alert=1, removed once done). Without an account, an address can
// subscribe to the search instead: the API e-mails a confirmation link
// and sends nothing before it is followed.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, ApiError, dataOf, userMessage, type Schemas } from "./api";
import { signInAndBack, useCurrentUser, useResumed } from "./auth";
import { inputClass } from "./styles";
import strings from "../../../internal/i18n/strings/alerts.json";
import { pagePath, translator } from "./i18n";

const t = translator(strings);

type Search = { q: string; source: string; category: string };

// filtersOf is a search's alert filters ("all" is no filter).
function filtersOf(s: Search) {
  return {
    query: s.q.trim(),
    sources: s.source !== "all" ? [s.source as Schemas["Source"]] : [],
    categories: s.category !== "all" ? [s.category as Schemas["CircularCategory"]] : [],
  };
}

// problem is what a failed call says: the fields' messages, else the
// server's, else fallback.
function problem(err: unknown, fallback: string): string {
  const fields = err instanceof ApiError ? Object.values(err.fields) : [];
  return fields.length ? fields.join(" ") : userMessage(err, fallback);
}

// alertParam marks a search to save once signed in.
const alertParam = "alert";

const link = "font-medium text-brand-700 underline dark:text-blue-300";
const button =
  "rounded-md border border-brand-700 bg-white px-3 py-1.5 text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-70 dark:border-blue-300 dark:bg-slate-900 dark:text-blue-200 dark:hover:bg-slate-800";

export function SearchAlert({ search }: { search: Search }) {
  const { user, isLoading } = useCurrentUser();
  const [email, setEmail] = useState("");
  const [anon, setAnon] = useState(false);
  const create = useMutation({
    mutationFn: async () => {
      const f = filtersOf(search);
      return dataOf(api.POST("/alerts", { body: { ...f, name: f.query || t("alerts.newCirculars"), frequency: "daily" } }));
    },
  });
  const subscribe = useMutation({
    mutationFn: () => dataOf(api.POST("/alerts/subscribe", { body: { ...filtersOf(search), email, frequency: "daily" } })),
  });
  // Back from sign-in with ?alert=1: save the search once.
  useResumed(alertParam, !isLoading && !!user, create.mutate);

  const start = () => {
    if (user) {
      create.mutate();
      return;
    }
    window.location.assign(signInAndBack(alertParam));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    subscribe.mutate();
  };
  return (
    <div className="space-y-2" data-search-alert>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className={button} onClick={start} disabled={create.isPending || create.isSuccess || isLoading}>
          {create.isPending ? t("alerts.creating") : t("alerts.createForSearch")}
        </button>
        {!user && !isLoading && !anon && (
          <button type="button" className={link + " text-sm"} onClick={() => setAnon(true)}>
            {t("alerts.withoutAccount")}
          </button>
        )}
      </div>
      <div role="status" className="text-sm">
        {create.isSuccess && (
          <p>
            {t("alerts.created", { Description: create.data.description })}{" "}
            <a href={pagePath("/profile#alerts")} className={link}>
              {t("alerts.manage")}
            </a>
          </p>
        )}
        {create.isError && <p className="text-red-700 dark:text-red-300">{problem(create.error, t("alerts.notCreated"))}</p>}
        {subscribe.isSuccess && <p>{subscribe.data.message}</p>}
        {subscribe.isError && <p className="text-red-700 dark:text-red-300">{problem(subscribe.error, t("alerts.notSubscribed"))}</p>}
      </div>
      {anon && !subscribe.isSuccess && (
        <form noValidate onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="min-w-0 flex-1 sm:max-w-sm">
            <label htmlFor="search-alert-email" className="text-sm font-medium">
              {t("alerts.yourEmail")}
            </label>
            <input id="search-alert-email" type="email" autoComplete="email" className={inputClass} value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <button type="submit" className={button} disabled={subscribe.isPending}>
            {subscribe.isPending ? t("alerts.subscribing") : t("alerts.subscribe")}
          </button>
        </form>
      )}
    </div>
  );
}
