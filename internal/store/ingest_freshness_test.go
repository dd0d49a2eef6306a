package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// TestDB_IngestFreshness_BySource: feeds grouped by source, one that
// never answered makes its source never fresh, the 24 h boundary.
func TestDB_IngestFreshness_BySource(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
		db := open(t, WithNow(func() time.Time { return now }))
		got, err := db.IngestFreshness(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Errorf("no sources: got %#v, want none", got)
		}
		// Rows as slice B's poller writes them (fixture feed names).
		for _, r := range [][3]string{
			{"rbi-fixture-notifications", "RBI", now.Add(-2 * time.Hour).Format(time.RFC3339)},
			{"rbi-fixture-press", "RBI", now.Add(-30 * time.Minute).Format(time.RFC3339)},
			{"sebi-fixture", "SEBI", now.Add(-catalog.StaleAfter).Format(time.RFC3339)},               // on the boundary: fresh
			{"npci-fixture", "NPCI", now.Add(-catalog.StaleAfter - time.Second).Format(time.RFC3339)}, // just past: stale
			{"irdai-fixture-a", "IRDAI", now.Add(-time.Hour).Format(time.RFC3339)},
			{"irdai-fixture-b", "IRDAI", ""}, // never answered
		} {
			if _, err := db.db.ExecContext(t.Context(), `INSERT INTO ingest_sources (name, source, last_success_at) VALUES (?, ?, ?)`, r[0], r[1], r[2]); err != nil {
				t.Fatal(err)
			}
		}
		got, err = db.IngestFreshness(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		want := []catalog.SourceFreshness{
			{Source: "IRDAI", Feeds: []string{"irdai-fixture-a", "irdai-fixture-b"}, Stale: true},
			{Source: "NPCI", Feeds: []string{"npci-fixture"}, LastSuccess: now.Add(-catalog.StaleAfter - time.Second), Stale: true},
			{Source: "RBI", Feeds: []string{"rbi-fixture-notifications", "rbi-fixture-press"}, LastSuccess: now.Add(-2 * time.Hour)},
			{Source: "SEBI", Feeds: []string{"sebi-fixture"}, LastSuccess: now.Add(-catalog.StaleAfter)},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}
