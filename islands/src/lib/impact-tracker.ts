// The impact tracker's scores, bands and counts are the generator's (the
// Go rule in internal/impact, the same records GET /api/impact-tracking
// serves); the island only searches the page.

// entitiesHeading is the heading over the entity cards.
export function entitiesHeading(query: string): string {
  const q = query.trim();
  return q === "" ? "All Entity Types" : `Search Results for "${q}"`;
}
