// /impact-tracker's own score. Signed out, the page's text stays (the
// cards' scores are the catalog's) and nothing more loads; with a token
// kept, the signed-in part (lib/your-score.tsx) loads with the API client.
import { lazy, Suspense } from "react";
import { getToken } from "../lib/token";

const SignedIn = lazy(() => import("../lib/your-score"));

export default function YourScore({ signedOut }: { signedOut: string }) {
  const fallback = <p className="text-sm text-slate-700 dark:text-slate-300">{signedOut}</p>;
  if (getToken() === null) return fallback;
  return (
    <Suspense fallback={fallback}>
      <SignedIn signedOut={signedOut} />
    </Suspense>
  );
}
