package store

import (
	"testing"
	"time"

	"regpulse/internal/store/storetest"
)

// TestJobRuns: a job's run key is a leased mutex (released, the next
// holder takes it at once; held, the others are told by whom and until
// when; a lease run out, as a killed function's, frees it) or a once
// (finished, no one takes it again); keys of different jobs are apart.
func TestJobRuns(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		claim := func(job, key, holder string, want bool, wantHeld string) {
			t.Helper()
			ok, heldBy, until, err := db.ClaimJobRun(ctx, job, key, holder, time.Minute)
			if err != nil || ok != want || heldBy != wantHeld {
				t.Errorf("claim %s/%s by %s = %v, %q, %v; want %v held by %q", job, key, holder, ok, heldBy, err, want, wantHeld)
			}
			if wantHeld != "" && !until.After(now) {
				t.Errorf("held until %s, not after now %s", until, now)
			}
		}
		claim("ingest", "poll", "a", true, "")
		claim("ingest", "poll", "b", false, "a")
		claim("ingest", "poll", "a", true, "") // its holder again: renewed
		claim("other", "poll", "b", true, "")  // another job's key
		if err := db.ReleaseJobRun(ctx, "ingest", "poll", "b"); err != nil {
			t.Fatal(err)
		}
		claim("ingest", "poll", "b", false, "a") // only the holder releases
		if err := db.ReleaseJobRun(ctx, "ingest", "poll", "a"); err != nil {
			t.Fatal(err)
		}
		claim("ingest", "poll", "b", true, "")
		now = now.Add(2 * time.Minute) // b was killed: its lease ran out
		claim("ingest", "poll", "c", true, "")
		if err := db.FinishJobRun(ctx, "ingest", "poll"); err != nil {
			t.Fatal(err)
		}
		claim("ingest", "poll", "c", false, "")
	})
}
