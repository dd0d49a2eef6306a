// The signed-in user's menu in the header (first and last name, e-mail,
// Organisation, My work, Settings, Log out), and the tab bar's Profile link to /profile. An entry
// of its own, loaded by shell/auth.ts only when a token is kept.
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import strings from "../../../internal/i18n/strings/shell.json";
import { setToken, type User } from "../lib/api";
import { logOut, useCurrentUser } from "../lib/auth";
import { pagePath, translator } from "../lib/i18n";
import { queryClient } from "../lib/query";
import { showPendingToast } from "../lib/toast";
const pendingAttr = "data-auth"; // as shell/auth.ts
const t = translator(strings);

const loginClass =
  "inline-flex h-9 items-center rounded-md bg-brand-700 px-2.5 text-sm md:px-3 font-medium text-white no-underline hover:bg-brand-800";

function Menu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => root.current?.contains(e.target as Node) || setOpen(false);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  const name = `${user.firstName} ${user.lastName}`;
  const initials = (user.firstName[0] ?? "") + (user.lastName[0] ?? "");
  return (
    <div className="relative" ref={root} data-user-menu>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t("shell.accountMenu", { Name: name })}
        onClick={() => setOpen((o) => !o)}
        className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold uppercase text-white hover:bg-brand-800"
      >
        {initials}
      </button>
      <div
        id={id}
        hidden={!open}
        className="absolute right-0 top-11 w-64 rounded-md border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-800"
      >
        <div className="border-b border-slate-200 px-3 py-2 dark:border-slate-700">
          <p className="truncate text-sm font-medium" data-user-name>
            {name}
          </p>
          <p className="truncate text-xs text-slate-600 dark:text-slate-300" data-user-email>
            {user.email}
          </p>
        </div>
        <a href={pagePath("/organisation")} className="block px-3 py-2 text-sm no-underline hover:bg-slate-100 dark:hover:bg-slate-700">
          {t("shell.organisation")}
        </a>
        <a href={pagePath("/work/")} className="block px-3 py-2 text-sm no-underline hover:bg-slate-100 dark:hover:bg-slate-700">
          {t("shell.myWork")}
        </a>
        <a href={pagePath("/profile")} className="block px-3 py-2 text-sm no-underline hover:bg-slate-100 dark:hover:bg-slate-700">
          {t("shell.settings")}
        </a>
        <button type="button" onClick={logOut} className="block w-full px-3 py-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-700">
          {t("shell.logOut")}
        </button>
      </div>
    </div>
  );
}

function AuthSlot() {
  const { user, isLoading, error } = useCurrentUser();
  useEffect(() => {
    if (isLoading) return;
    document.documentElement.removeAttribute(pendingAttr);
    if (user) {
      document.querySelector("[data-profile-link]")?.setAttribute("href", pagePath("/profile"));
    } else {
      if (!error) setToken(null); // refused (expired, revoked): signed out
    }
  }, [isLoading, user, error]);
  if (isLoading) {
    return (
      <span className={loginClass + " invisible"} aria-hidden="true">
        {t("shell.login")}
      </span>
    );
  }
  if (!user) {
    return (
      <a href={pagePath("/login")} className={loginClass}>
        {t("shell.login")}
      </a>
    );
  }
  return <Menu user={user} />;
}

function mountUserMenu() {
  const slot = document.querySelector("[data-auth-slot]");
  if (!slot) return;
  createRoot(slot).render(
    <QueryClientProvider client={queryClient}>
      <AuthSlot />
    </QueryClientProvider>,
  );
  showPendingToast();
}

mountUserMenu();
