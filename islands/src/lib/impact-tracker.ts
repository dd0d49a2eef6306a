// The impact tracker's scores, bands and counts are the generator's (the
// Go rule in internal/impact, the same records GET /api/impact-tracking
// serves); the island only searches the page.

import strings from "../../../internal/i18n/strings/impact.json";
import { translator } from "./i18n";

const t = translator(strings);

// entitiesHeading is the heading over the entity cards.
export function entitiesHeading(query: string): string {
  const q = query.trim();
  return q === "" ? t("impact.allEntityTypes") : t("impact.searchResultsFor", { Query: q });
}
