// A circular card's AI actions: 'Summarize' asks the API to summarise the
// circular (stored, and shown in the card's AI summary block), 'Impact'
// asks for its impact on an entity type (PSP unless the page says another)
// and shows the level, with the reasons behind 'See detailed analysis'.
// Both buttons are disabled while either call runs. The outcome is told by
// a toast; after a summary the cached circulars lists are refetched. The
// levels and reasons are the API's: nothing is recomputed here.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import actionsStrings from "../../../internal/i18n/strings/actions.json";
import cardStrings from "../../../internal/i18n/strings/card.json";
import { aiQuery } from "../lib/ai-lang";
import { api, dataOf, type Schemas } from "../lib/api";
import { translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { queryClient } from "../lib/query";
import { toast } from "../lib/toast";

type GeneratedSummary = Schemas["GeneratedSummary"];
type ImpactAnalysis = Schemas["ImpactAnalysis"];

type Props = { id: string; entityType?: Schemas["EntityType"]; aiSummary?: GeneratedSummary | null };

const t = translator(actionsStrings);
const tCard = translator(cardStrings);

const button =
  "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800";

export function CircularActions({ id, entityType = "PSP", aiSummary = null }: Props) {
  const [summary, setSummary] = useState<GeneratedSummary | null>(aiSummary);
  const [analysis, setAnalysis] = useState<ImpactAnalysis | null>(null);
  const summarize = useMutation({
    mutationFn: () => dataOf(api.POST("/circulars/{id}/summarize", { params: { path: { id }, query: aiQuery() } })),
    onSuccess: (c) => {
      setSummary(c.aiSummary);
      void queryClient.invalidateQueries({ queryKey: ["/circulars"] });
      toast({ title: t("actions.summaryGenerated"), description: t("actions.summaryGeneratedText") });
    },
    onError: () => toast({ title: t("actions.error"), description: t("actions.summaryFailed"), variant: "destructive" }),
  });
  const impact = useMutation({
    mutationFn: () => dataOf(api.POST("/circulars/{id}/impact", { params: { path: { id }, query: aiQuery() }, body: { entityType } })),
    onSuccess: (a) => {
      setAnalysis(a);
      toast({ title: t("actions.impactComplete"), description: t("actions.impactCompleteText", { Level: a.impactLevel }) });
    },
    onError: () => toast({ title: t("actions.error"), description: t("actions.impactFailed"), variant: "destructive" }),
  });
  const busy = summarize.isPending || impact.isPending;
  return (
    <div className="mt-3" data-ai-actions>
      {summary && (
        <div className="mb-3 rounded-md border-l-4 border-dashed border-violet-600 bg-violet-50 p-3 text-sm dark:bg-slate-800" data-ai-summary>
          <p className="font-semibold">{tCard("card.aiSummary")}</p>
          <p className="mt-1 text-slate-700 dark:text-slate-200">{summary.summary}</p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
            {summary.model
              ? tCard("card.aiGeneratedByModel", { Provider: summary.provider, Model: summary.model })
              : tCard("card.aiGeneratedBy", { Provider: summary.provider })}
          </p>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={button} disabled={busy} onClick={() => summarize.mutate()}>
          {t("actions.summarize")}
        </button>
        <button type="button" className={button} disabled={busy} onClick={() => impact.mutate()}>
          {t("actions.impact")}
        </button>
      </div>
      {analysis && (
        <details className="mt-3 text-sm" data-impact-analysis>
          <summary className="cursor-pointer font-medium">
            {t("actions.impactLevelFor", { Entity: analysis.entityType, Level: analysis.impactLevel })}
          </summary>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {analysis.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
            {analysis.model
              ? t("actions.analysedByModel", { Provider: analysis.provider, Model: analysis.model })
              : t("actions.analysedBy", { Provider: analysis.provider })}
          </p>
        </details>
      )}
    </div>
  );
}

export default withProviders(CircularActions);
