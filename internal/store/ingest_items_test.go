package store

import (
	"testing"
	"time"

	"regpulse/internal/ingest"
	"regpulse/internal/store/storetest"
)

func TestIngestItems(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		day := time.Date(2025, 11, 24, 0, 0, 0, 0, time.UTC)
		first := ingest.Item{Feed: "fixture-rbi", URL: "https://rbi.example.org/en/901", Title: "Fixture directions",
			Identity: ingest.Identify("RBI", day, "RBI/2025-26/901 Fixture directions", "https://rbi.example.org/en/901",
				"Fixture text long enough to be fingerprinted: one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen."),
			Status: ingest.StatusQueued, Draft: "---\ntitle: x\n---\n", Variant: "primary"}
		if first.SimHash>>63 == 0 {
			first.SimHash |= 1 << 63 // a hash with its top bit set survives the signed column
		}
		ids, err := db.AddIngestItems(ctx, []ingest.Item{first})
		if err != nil || len(ids) != 1 || ids[0] == 0 {
			t.Fatalf("add: %v, %v", ids, err)
		}
		hindi := ingest.Item{Feed: "fixture-rbi", URL: "https://rbi.example.org/hi/901", Title: "फिक्स्चर",
			Identity:    ingest.Identify("RBI", day, "भारिबैं/2025-26/901", "https://rbi.example.org/hi/901", ""),
			CanonicalID: ids[0], Variant: "hindi", Status: ingest.StatusPending}
		// The same link again is left as it was; no link, no row.
		again, err := db.AddIngestItems(ctx, []ingest.Item{hindi, first, {Title: "no link", Status: ingest.StatusKnown}})
		if err != nil || again[0] == 0 || again[1] != 0 || again[2] != 0 {
			t.Fatalf("add again: %v, %v", again, err)
		}
		if err := db.SetIngestDraft(ctx, ids[0], "---\ntitle: y\n---\n"); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkIngestWritten(ctx, ids[0], "content/circulars/x.md"); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkIngestWritten(ctx, ids[0], "content/circulars/y.md"); err == nil {
			t.Error("a written draft was marked written again")
		}
		rows, err := db.IngestItems(ctx)
		if err != nil || len(rows) != 2 {
			t.Fatalf("rows %+v, %v", rows, err)
		}
		got := rows[0]
		if got.Identity != first.Identity || got.Status != ingest.StatusWritten || got.FilePath != "content/circulars/x.md" ||
			got.Draft != "---\ntitle: y\n---\n" || got.Title != first.Title || got.URL != first.URL || got.Feed != "fixture-rbi" ||
			!got.FirstSeen.Equal(storetest.Clock()) {
			t.Errorf("row 1 = %+v\nwant the identity %+v", got, first.Identity)
		}
		if h := rows[1]; h.CanonicalID != ids[0] || h.Variant != "hindi" || h.Ref != "RBI/2025-26/901" || h.Status != ingest.StatusPending {
			t.Errorf("row 2 = %+v", h)
		}
		pending, err := db.PendingIngestCopies(ctx)
		if err != nil || len(pending) != 1 || pending[0].FilePath != "content/circulars/x.md" {
			t.Errorf("pending %+v, %v", pending, err)
		}

		at := storetest.Clock().Add(time.Hour)
		for range 2 { // made, then updated
			if err := db.MarkIngestShapeReported(ctx, "fixture-npci", "NPCI", at); err != nil {
				t.Fatal(err)
			}
			at = at.Add(time.Hour)
		}
		var reported string
		if err := db.db.QueryRowContext(ctx, "SELECT shape_reported_at FROM ingest_sources WHERE name = ?", "fixture-npci").Scan(&reported); err != nil ||
			reported != timeText(storetest.Clock().Add(2*time.Hour)) {
			t.Errorf("shape_reported_at %q, %v", reported, err)
		}
	})
}
