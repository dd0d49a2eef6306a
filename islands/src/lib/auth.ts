// The signed-in user, for every island and the user menu: one query of
// GET /api/auth/me in the page's cache, where a 401 means nobody is signed
// in (null, not an error), never retried nor refetched on focus.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, ApiError, dataOf, getToken, setToken } from "./api";
import { pagePath } from "./i18n";
import { queryClient } from "./query";

export const meKey = ["/auth/me"] as const;

// The signed-in user's preferences and compliance score, which more than
// one island asks for (one key each, so one answer in the page's cache).
export const preferencesQuery = queryOptions({
  queryKey: ["/user/preferences"],
  queryFn: ({ signal }) => dataOf(api.GET("/user/preferences", { signal })),
});
// scoreQuery is the impact tracker's: the organisation's score for a
// member of one (its organisation field names it), else the user's own;
// ownScoreQuery is always the user's own register's (My obligations).
export const scoreQuery = queryOptions({
  queryKey: ["/user/compliance-score"],
  queryFn: ({ signal }) => dataOf(api.GET("/user/compliance-score", { signal })),
});
export const ownScoreQuery = queryOptions({
  queryKey: ["/user/compliance-score", "none"],
  queryFn: ({ signal }) => dataOf(api.GET("/user/compliance-score", { params: { query: { organisation: "none" } }, signal })),
});

export function useCurrentUser() {
  const q = useQuery({
    queryKey: meKey,
    queryFn: async ({ signal }) => {
      try {
        return await dataOf(api.GET("/auth/me", { signal }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    enabled: getToken() !== null,
    select: (me) => me?.user ?? null,
  });
  const signedOut = getToken() === null;
  return { user: signedOut ? null : (q.data ?? null), isLoading: !signedOut && q.isPending, error: q.error };
}

// safeNext is a same-site path to return to after sign-in, or the home
// page in the page's language ("/", "/hi/").
export function safeNext(search: string): string {
  const next = new URLSearchParams(search).get("next") ?? "";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : pagePath("/");
}

// ssoReturn is the token and the safe path to go to when the page's
// fragment (hash) is the end of a single sign-on (the API's callback
// sends the browser to /login/#sso_token=…&next=…), else null.
export function ssoReturn(hash: string): { token: string; next: string } | null {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const token = p.get("sso_token");
  if (!token) return null;
  return { token, next: safeNext("?" + new URLSearchParams({ next: p.get("next") ?? "/" }).toString()) };
}

// keepNext is path (the sign-in or sign-up page, an English path: it is
// the page's language's) carrying on this page's ?next=, when it is a safe
// one: going from one to the other still comes back.
export function keepNext(path: string, search: string): string {
  const next = safeNext(search);
  return next === pagePath("/") ? pagePath(path) : `${pagePath(path)}?next=${encodeURIComponent(next)}`;
}

// signInAndBack is the sign-in page's address, coming back to this page
// marked with param=1: what the page does for a signed-in reader is then
// done once (useResumed).
export function signInAndBack(param: string): string {
  const back = new URL(window.location.href);
  back.searchParams.set(param, "1");
  return pagePath("/login") + "?next=" + encodeURIComponent(back.pathname + back.search);
}

// useResumed runs action once when the page, back from sign-in, carries
// param=1 and ready (the user is known), and takes the mark out of the
// address, so that a reload does not run it again.
export function useResumed(param: string, ready: boolean, action: () => void) {
  const resumed = useRef(false);
  useEffect(() => {
    const url = new URL(window.location.href);
    if (resumed.current || !ready || url.searchParams.get(param) !== "1") return;
    resumed.current = true;
    url.searchParams.delete(param);
    window.history.replaceState(window.history.state, "", url);
    action();
  }, [param, ready, action]);
}

// signedIn keeps token and goes to the page after sign-in (a full load).
export function signedIn(token: string, next: string) {
  setToken(token);
  queryClient.clear();
  window.location.assign(next);
}

// logOut removes the token, clears every cached answer and loads /login.
export function logOut() {
  setToken(null);
  queryClient.clear();
  window.location.assign(pagePath("/login"));
}
