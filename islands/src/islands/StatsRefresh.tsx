// The dashboard's four figures are the build's; this island asks the API
// for today's and writes them into the cards (data-stat="key"). It draws
// nothing. A failure keeps the build's figures and is only logged.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiQuery, type Schemas } from "../lib/api";
import { dataStat, sel } from "../lib/contract";
import { withQuery } from "../lib/providers";

type Stats = Schemas["DashboardStats"];

export function applyStats(root: ParentNode, stats: Stats) {
  for (const [key, value] of Object.entries(stats)) {
    for (const el of root.querySelectorAll<HTMLElement>(sel(dataStat, key))) el.textContent = String(value);
  }
}

function StatsRefresh() {
  const stats = useQuery(apiQuery("/dashboard/stats"));
  useEffect(() => {
    if (stats.data) applyStats(document, stats.data);
  }, [stats.data]);
  useEffect(() => {
    if (stats.error) console.error("dashboard stats:", stats.error);
  }, [stats.error]);
  return null;
}

export default withQuery(StatsRefresh);
