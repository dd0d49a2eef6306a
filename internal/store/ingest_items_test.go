package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

	})
}

// BenchmarkIngestItems is what identities cost in the store at 10k and
// 100k instruments, on SQLite: reading every row (what pull does), and
// one arriving item's candidates (what a run does per item).
func BenchmarkIngestItems(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			db := openSQLiteTest(b)
			day := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
			items := make([]ingest.Item, n)
			for i := range items {
				link := fmt.Sprintf("https://rbi.example.org/c/%d", i)
				items[i] = ingest.Item{Feed: "fixture", URL: link, Title: fmt.Sprintf("Fixture circular %d", i), Status: ingest.StatusKnown,
					Identity: ingest.Identity{Source: "RBI", Date: day.AddDate(0, 0, i/10), Link: link, Ref: fmt.Sprintf("RBI/2015-16/%d", i),
						TitleDate: fmt.Sprintf("RBI|2015-01-01|fixture circular %d", i), SimHash: uint64(i) * 0x9e3779b97f4a7c15}}
			}
			start := time.Now()
			if _, err := db.AddIngestItems(b.Context(), items); err != nil {
				b.Fatal(err)
			}
			insert := float64(time.Since(start).Microseconds()) / float64(n)
			b.Run("read-all", func(b *testing.B) {
				for b.Loop() {
					rows, err := db.IngestItems(b.Context())
					if err != nil || len(rows) != n {
						b.Fatal(len(rows), err)
					}
				}
				b.ReportMetric(insert, "insert-µs/row")
			})
			// What a run does per arriving item: its candidates by the
			// indexes (a hit by reference, with its first copy).
			id := ingest.Identity{Source: "RBI", Link: "https://rbi.example.org/new", Ref: fmt.Sprintf("RBI/2015-16/%d", n/2),
				TitleDate: "RBI|2026-01-01|fixture new", SimHash: 0x0123456789abcdef}
			b.Run("candidates", func(b *testing.B) {
				for b.Loop() {
					rows, err := db.IngestCandidates(b.Context(), id)
					if err != nil || len(rows) == 0 {
						b.Fatal(len(rows), err)
					}
				}
			})
		})
	}
}

// A run with the store and no content directory (a function) queues its
// drafts; a later run, a new process, finds the Hindi copy's first copy
// through the store's indexes alone and adds the link to the queued
// draft. A run with a content directory seeds an empty table first.
func TestIngestRunOnStore(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		dir := t.TempDir()
		feed := func(name, item string) ingest.Feed {
			path := filepath.Join(dir, name+".xml")
			text := `<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture</title>` + item + `</channel></rss>`
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			return ingest.Feed{Name: "fixture", Source: "other", URL: path}
		}
		now := func() time.Time { return storetest.Clock() }
		rep, err := ingest.Run(ctx, []ingest.Feed{feed("en", `<item><title>RBI/2025-26/901 Fixture directions</title>`+
			`<link>https://rbi.example.org/en/901</link><pubDate>Mon, 24 Nov 2025 18:00:00 +0530</pubDate></item>`)},
			ingest.Options{Items: db, Now: now})
		if err != nil || len(rep.Written) != 1 || rep.Written[0].Path != "" {
			t.Fatalf("first run: %+v, %v", rep.Written, err)
		}
		rep, err = ingest.Run(ctx, []ingest.Feed{feed("hi", `<item><title>भारिबैं/२०२५-२६/९०१ फिक्स्चर निदेश</title>`+
			`<link>https://rbi.example.org/hi/901</link><pubDate>Mon, 24 Nov 2025 18:00:00 +0530</pubDate></item>`)},
			ingest.Options{Items: db, Now: now})
		if err != nil || len(rep.Written) != 0 || len(rep.Merged) != 1 || !rep.Merged[0].Added || rep.Merged[0].Rule != ingest.ByRef {
			t.Fatalf("second run: wrote %+v, merged %+v, %v", rep.Written, rep.Merged, err)
		}
		rows, err := db.IngestItems(ctx)
		if err != nil || len(rows) != 2 || rows[0].Status != ingest.StatusQueued || !strings.Contains(rows[0].Draft, "as: hindi") ||
			rows[1].Status != ingest.StatusMerged || rows[1].CanonicalID != rows[0].ID {
			t.Fatalf("rows %+v, %v", rows, err)
		}
		none, err := db.IngestCandidates(ctx, ingest.Identify("other", time.Now(), "Unrelated", "https://example.org/x", ""))
		if err != nil || len(none) != 0 {
			t.Errorf("candidates of an unrelated item: %+v, %v", none, err)
		}

		fresh := open(t)
		content := filepath.Join(t.TempDir(), "content")
		if err := os.MkdirAll(filepath.Join(content, "circulars"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(content, "circulars", "known.md"), []byte("---\ntitle: Fixture known\nsource: other\n"+
			"publishedDate: 2025-11-01\nofficialUrl: https://example.org/known\nadditionalSourceUrls:\n  - https://example.org/known.pdf\n---\n\nKnown.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ingest.Run(ctx, []ingest.Feed{feed("empty", "")}, ingest.Options{Items: fresh, ContentDir: content, Now: now}); err != nil {
			t.Fatal(err)
		}
		seeded, err := fresh.IngestItems(ctx)
		if err != nil || len(seeded) != 2 || seeded[0].Status != ingest.StatusKnown || seeded[0].FilePath != "content/circulars/known.md" ||
			seeded[1].CanonicalID != seeded[0].ID {
			t.Errorf("seeded %+v, %v", seeded, err)
		}
	})
}
