// The Master Directions the signed-in user follows (GET
// /api/direction-follows): one query, which the direction page's Follow
// button and the profile's list share.
import { queryOptions } from "@tanstack/react-query";
import strings from "../../../internal/i18n/strings/directions.json";
import { api, dataOf } from "./api";

export const followsQuery = queryOptions({
  queryKey: ["/direction-follows"],
  queryFn: ({ signal }) => dataOf(api.GET("/direction-follows", { signal })),
});

// followParam marks a direction's page to follow once signed in.
export const followParam = "follow";

// The button's and its note's classes, which the static page's fallback
// (templates/direction.html) writes too, so that nothing moves when the
// island mounts.
export const followButton =
  "inline-flex items-center justify-center rounded-md border border-brand-700 bg-white px-3 py-1.5 text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-70 dark:border-blue-300 dark:bg-slate-900 dark:text-blue-200 dark:hover:bg-slate-800";
// signedOutNote is the note beside it signed out, in English (the
// catalogue's directions.followSignIn, which the island and the page write).
export const signedOutNote = strings["directions.followSignIn"].en;
