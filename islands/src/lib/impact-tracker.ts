// The impact tracker's scores in the page are the build's; the store can
// hold newer ones (scores set by hand, a sync since the build). These
// functions fetch GET /api/impact-tracking and write what differs into the
// generator's cards (templates/impact-tracker.html and
// _partials/compliance-score.html). Without an API (a static host) the
// build's values stay.
import { getJSON } from "./api";

export type Thresholds = { good: number; warning: number };
export type Band = "good" | "warning" | "poor";

// ImpactRecord is the part of an API record the page shows.
export type ImpactRecord = {
  entityType: string;
  complianceScore: number;
  highImpactCount: number;
  mediumImpactCount: number;
  lowImpactCount: number;
};

// band is the score's band; the limits come from internal/impact as props.
export function band(score: number, t: Thresholds): Band {
  if (score >= t.good) return "good";
  if (score >= t.warning) return "warning";
  return "poor";
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

// parseRecords keeps the well-formed records of an API response body and
// drops the rest; anything but a list gives none.
export function parseRecords(body: unknown): ImpactRecord[] {
  if (!Array.isArray(body)) return [];
  return body.filter(
    (r): r is ImpactRecord =>
      typeof r === "object" &&
      r !== null &&
      typeof r.entityType === "string" &&
      isCount(r.complianceScore) &&
      r.complianceScore <= 100 &&
      isCount(r.highImpactCount) &&
      isCount(r.mediumImpactCount) &&
      isCount(r.lowImpactCount),
  );
}

// loadRecords fetches the records once (SPEC.md section 9: no retries);
// null when the API is missing, failing or not answering JSON.
export async function loadRecords(url: string, signal?: AbortSignal): Promise<ImpactRecord[] | null> {
  try {
    return parseRecords(await getJSON<unknown>(url, signal));
  } catch {
    return null;
  }
}

// applyRecords writes each record into the card of its entity type and
// returns how many cards changed. Types without a card are left out: the
// island never adds cards.
export function applyRecords(root: ParentNode, records: ImpactRecord[], t: Thresholds): number {
  const cards = new Map<string, HTMLElement>();
  for (const el of root.querySelectorAll<HTMLElement>("[data-entity]")) cards.set(el.dataset.entity ?? "", el);
  let changed = 0;
  for (const r of records) {
    const card = cards.get(r.entityType);
    if (!card) continue;
    let differs = false;
    const put = (el: Element | null, text: string) => {
      if (el && el.textContent !== text) {
        el.textContent = text;
        differs = true;
      }
    };
    const score = `${r.complianceScore}%`;
    put(card.querySelector("[data-score]"), score);
    const bar = card.querySelector<HTMLProgressElement>("[data-score-bar]");
    if (bar && bar.value !== r.complianceScore) {
      bar.value = r.complianceScore; // reflected in the value attribute
      bar.textContent = score;
      differs = true;
    }
    const wrap = card.querySelector<HTMLElement>("[data-band]");
    const b = band(r.complianceScore, t);
    if (wrap && wrap.dataset.band !== b) {
      wrap.dataset.band = b;
      differs = true;
    }
    put(card.querySelector("[data-impact-count=high]"), String(r.highImpactCount));
    put(card.querySelector("[data-impact-count=medium]"), String(r.mediumImpactCount));
    put(card.querySelector("[data-impact-count=low]"), String(r.lowImpactCount));
    if (differs) changed++;
  }
  return changed;
}

// entitiesHeading is the heading over the entity cards (SPEC.md).
export function entitiesHeading(query: string): string {
  const q = query.trim();
  return q === "" ? "All Entity Types" : `Search Results for "${q}"`;
}
