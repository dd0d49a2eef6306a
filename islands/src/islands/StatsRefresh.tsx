// The dashboard's four figures are the build's; this island asks the API
// for today's and writes them into the cards (data-stat="key"), and asks
// again when the browser shows the page from its back/forward cache (back
// from signing up, the page would otherwise keep the figures it had). It
// draws nothing. A failure keeps the figures shown and is only logged.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, dataOf, type Schemas } from "../lib/api";
import { dataStat, dataStatLast, dataStatLastDate, dataStatZero, sel, setHidden } from "../lib/contract";
import { withQuery } from "../lib/providers";
import { formatCount, formatLongDate } from "../lib/numbers";

type Stats = Schemas["DashboardStats"];


export function applyStats(root: ParentNode, stats: Stats) {
  for (const [key, value] of Object.entries(stats)) {
    if (typeof value !== "number") continue; // the last dates go in the notes below
    for (const el of root.querySelectorAll<HTMLElement>(sel(dataStat, key))) el.textContent = formatCount(value);
  }
  // A figure of 0 says when the last one came (the field the page names).
  for (const note of root.querySelectorAll<HTMLElement>(sel(dataStatZero))) {
    const key = note.getAttribute(dataStatZero) as keyof Stats;
    setHidden(note, stats[key] !== 0);
    const last = stats[note.getAttribute(dataStatLast) as keyof Stats];
    const date = note.querySelector<HTMLElement>(sel(dataStatLastDate));
    if (date && typeof last === "string") {
      const time = document.createElement("time");
      time.dateTime = last;
      time.textContent = formatLongDate(last);
      date.replaceChildren(time);
    }
  }
}

function StatsRefresh() {
  const stats = useQuery({ queryKey: ["/dashboard/stats"], queryFn: ({ signal }) => dataOf(api.GET("/dashboard/stats", { signal })) });
  useEffect(() => {
    if (stats.data) applyStats(document, stats.data);
  }, [stats.data]);
  useEffect(() => {
    if (stats.error) console.error("dashboard stats:", stats.error);
  }, [stats.error]);
  const { refetch } = stats;
  useEffect(() => {
    const shown = (e: PageTransitionEvent) => void (e.persisted && refetch());
    window.addEventListener("pageshow", shown);
    return () => window.removeEventListener("pageshow", shown);
  }, [refetch]);
  return null;
}

export default withQuery(StatsRefresh);
