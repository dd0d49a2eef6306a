// The dashboard's four figures are the build's; this island asks the API
// for today's and writes them into the cards (data-stat="key"). It draws
// nothing. A failure keeps the build's figures and is only logged.
import { useEffect } from "react";
import { getJSON, type Schemas } from "../lib/api";
import { dataStat, sel } from "../lib/contract";

type Stats = Schemas["DashboardStats"];

export function applyStats(root: ParentNode, stats: Stats) {
  for (const [key, value] of Object.entries(stats)) {
    for (const el of root.querySelectorAll<HTMLElement>(sel(dataStat, key))) el.textContent = String(value);
  }
}

export default function StatsRefresh() {
  useEffect(() => {
    const ctl = new AbortController();
    getJSON<Stats>("/api/dashboard/stats", ctl.signal)
      .then((s) => applyStats(document, s))
      .catch((err: unknown) => {
        if (!ctl.signal.aborted) console.error("dashboard stats:", err);
      });
    return () => ctl.abort();
  }, []);
  return null;
}
