package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/ingest"
)

// TestDB_IngestSources: a source's state follows its polls (validators,
// last success kept through failures, errors counted then cleared, the
// operator's stamps saved as given); polls are counted by outcome and
// pruned after IngestPollsKept; freshness per catalog source is its
// least fresh feed's, stale after catalog.StaleAfter.
func TestDB_IngestSources(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		t0 := time.Date(2026, 11, 30, 4, 30, 0, 0, time.UTC)
		clock := t0
		db := open(t, WithNow(func() time.Time { return clock }))
		ctx := t.Context()
		if _, ok, err := db.IngestSource(ctx, "rbi-notifications"); err != nil || ok {
			t.Fatalf("before a poll: ok %v, %v", ok, err)
		}
		v1 := ingest.Validators{ETag: `"v1"`, LastModified: "Mon, 30 Nov 2026 04:00:00 GMT", BodySHA256: "abc"}
		save := func(p ingest.Poll) {
			t.Helper()
			p.Source, p.Kind, p.URL = "RBI", "feed", "https://example.org/"+p.Name+".xml"
			if err := db.SaveIngestPoll(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		get := func(name string) ingest.SourceState {
			t.Helper()
			s, ok, err := db.IngestSource(ctx, name)
			if err != nil || !ok {
				t.Fatalf("IngestSource(%s): ok %v, %v", name, ok, err)
			}
			return s
		}
		save(ingest.Poll{Name: "rbi-notifications", At: t0, Outcome: ingest.Parsed, HTTPStatus: 200, Items: 10, New: 3,
			Took: 1500 * time.Millisecond, Validators: v1, NextPoll: t0.Add(15 * time.Minute)})
		want := ingest.SourceState{Name: "rbi-notifications", Source: "RBI", Kind: "feed", URL: "https://example.org/rbi-notifications.xml",
			Validators: v1, LastPoll: t0, LastSuccess: t0, NextPoll: t0.Add(15 * time.Minute), LastStatus: ingest.Parsed}
		if diff := cmp.Diff(want, get("rbi-notifications")); diff != "" {
			t.Errorf("after a parse (-want +got):\n%s", diff)
		}

		// Two failures: the last success stays, the errors count, the
		// operator's stamp is kept as given.
		t1, t2 := t0.Add(time.Hour), t0.Add(25*time.Hour)
		save(ingest.Poll{Name: "rbi-notifications", At: t1, Outcome: ingest.Failed, HTTPStatus: 503, Err: "GET: 503",
			Validators: v1, NextPoll: t1.Add(2 * time.Hour)})
		save(ingest.Poll{Name: "rbi-notifications", At: t2, Outcome: ingest.Failed, Err: "GET: timeout",
			Validators: v1, NextPoll: t2.Add(30 * time.Minute), StaleReported: t2})
		want.LastPoll, want.NextPoll, want.LastStatus, want.LastError, want.ConsecutiveErrors, want.StaleReported =
			t2, t2.Add(30*time.Minute), ingest.Failed, "GET: timeout", 2, t2
		if diff := cmp.Diff(want, get("rbi-notifications")); diff != "" {
			t.Errorf("after two failures (-want +got):\n%s", diff)
		}

		// A 304 is a success: errors cleared, stale stamp cleared.
		t3 := t2.Add(time.Hour)
		save(ingest.Poll{Name: "rbi-notifications", At: t3, Outcome: ingest.NotModified, HTTPStatus: 304, Validators: v1, NextPoll: t3.Add(time.Hour)})
		want.LastPoll, want.LastSuccess, want.NextPoll, want.LastStatus, want.LastError, want.ConsecutiveErrors, want.StaleReported =
			t3, t3, t3.Add(time.Hour), ingest.NotModified, "", 0, time.Time{}
		if diff := cmp.Diff(want, get("rbi-notifications")); diff != "" {
			t.Errorf("after a 304 (-want +got):\n%s", diff)
		}

		// A second RBI feed that never answered, and a SEBI one.
		save(ingest.Poll{Name: "rbi-press-releases", At: t3, Outcome: ingest.Failed, Err: "refused", NextPoll: t3.Add(time.Hour)})
		if err := db.SaveIngestPoll(ctx, ingest.Poll{Name: "sebi", Source: "SEBI", Kind: "feed", At: t3, Outcome: ingest.Unchanged,
			NextPoll: t3.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		all, err := db.IngestSources(ctx)
		if err != nil || len(all) != 3 || all[0].Name != "rbi-notifications" || all[2].Name != "sebi" {
			t.Fatalf("IngestSources = %+v, %v", all, err)
		}

		counts, err := db.IngestPollCounts(ctx, t0)
		if err != nil {
			t.Fatal(err)
		}
		wantCounts := map[string]map[ingest.Outcome]int{
			"rbi-notifications":  {ingest.Parsed: 1, ingest.Failed: 2, ingest.NotModified: 1},
			"rbi-press-releases": {ingest.Failed: 1},
			"sebi":               {ingest.Unchanged: 1},
		}
		if diff := cmp.Diff(wantCounts, counts); diff != "" {
			t.Errorf("IngestPollCounts (-want +got):\n%s", diff)
		}
		if counts, _ := db.IngestPollCounts(ctx, t3); counts["rbi-notifications"][ingest.Failed] != 0 || counts["rbi-notifications"][ingest.NotModified] != 1 {
			t.Errorf("since t3: %v", counts)
		}

		// Freshness: RBI as fresh as its least fresh feed (never), SEBI's
		// stale one second after StaleAfter.
		clock = t3.Add(catalog.StaleAfter)
		fresh, err := db.IngestFreshness(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantFresh := []catalog.SourceFreshness{
			{Source: "RBI", Feeds: []string{"rbi-notifications", "rbi-press-releases"}, Stale: true},
			{Source: "SEBI", Feeds: []string{"sebi"}, LastSuccess: t3, Stale: false},
		}
		if diff := cmp.Diff(wantFresh, fresh); diff != "" {
			t.Errorf("IngestFreshness at the boundary (-want +got):\n%s", diff)
		}
		clock = clock.Add(time.Second)
		if fresh, _ := db.IngestFreshness(ctx); !fresh[1].Stale {
			t.Errorf("SEBI a second after StaleAfter: %+v, want stale", fresh[1])
		}

		// Polls older than IngestPollsKept go at the next save.
		t4 := t0.Add(IngestPollsKept + 2*time.Hour)
		save(ingest.Poll{Name: "rbi-notifications", At: t4, Outcome: ingest.NotModified, Validators: v1, NextPoll: t4.Add(time.Hour)})
		counts, err = db.IngestPollCounts(ctx, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]map[ingest.Outcome]int{
			"rbi-notifications":  {ingest.Failed: 1, ingest.NotModified: 2}, // t0 and t1 pruned
			"rbi-press-releases": {ingest.Failed: 1},
			"sebi":               {ingest.Unchanged: 1},
		}, counts); diff != "" {
			t.Errorf("after pruning (-want +got):\n%s", diff)
		}
	})
}
