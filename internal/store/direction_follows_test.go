package store

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/store/storetest"
)

// syncDirection syncs cat with d as it was with its first n versions.
func syncDirection(t *testing.T, db *DB, cat *catalog.Catalog, d catalog.MasterDirection, n int) {
	t.Helper()
	upto, err := directionstest.Upto(d, n)
	if err != nil {
		t.Fatal(err)
	}
	cat.Directions = []catalog.MasterDirection{upto}
	if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
}

// TestFollows: following and unfollowing; a version arriving once (not
// again on a sync that does not add it, nor when it was there before
// the follow); one delivery per follower even when two instances match
// at once; an e-mail claimed once by concurrent senders, a failure given
// back; an unsubscribed follow's deliveries gone.
func TestFollows(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		d := directionstest.Directions(1, 4, 12, 5)[0].Direction
		cat := storetest.Catalog()
		db := open(t)
		syncDirection(t, db, cat, d, 2)
		// A fresh store's first sync: every version arrives, and no one
		// follows them yet.
		if n, err := db.MatchFollows(ctx); err != nil || n != 0 {
			t.Fatalf("match with no follower: %d, %v", n, err)
		}
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		if _, err := db.FollowDirection(ctx, asha.ID, "no-such-direction"); !errors.Is(err, ErrNotFound) {
			t.Errorf("following an unknown direction: %v", err)
		}
		f, err := db.FollowDirection(ctx, asha.ID, d.Slug)
		if err != nil {
			t.Fatal(err)
		}
		again, err := db.FollowDirection(ctx, asha.ID, d.Slug)
		if err != nil || again.ID != f.ID {
			t.Errorf("following again: %+v, %v; want the same follow %s", again, err, f.ID)
		}
		want := []alerts.Follow{{ID: f.ID, Direction: d.Slug, Title: d.Title, CreatedAt: storetest.Now, UserID: asha.ID, Email: asha.Email, Language: "en"}}
		if got, err := db.UserFollows(ctx, asha.ID); err != nil || !cmp.Equal(got, want) {
			t.Errorf("UserFollows: %v\n%s", err, cmp.Diff(want, got))
		}
		if got, _ := db.UserFollows(ctx, ravi.ID); len(got) != 0 {
			t.Errorf("ravi follows %+v", got)
		}

		// Nothing old is news, and a sync that adds no version brings none.
		syncDirection(t, db, cat, d, 2)
		if n, err := db.MatchFollows(ctx); err != nil || n != 0 {
			t.Fatalf("match after an unchanged sync: %d, %v", n, err)
		}
		// The third version arrives: two instances match at once, one
		// delivery.
		syncDirection(t, db, cat, d, 3)
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for range 2 {
			wg.Go(func() {
				n, err := db.MatchFollows(ctx)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			})
		}
		wg.Wait()
		if total != 1 {
			t.Fatalf("%d deliveries of one version to one follower", total)
		}
		// ravi follows after the version was matched: not news to him.
		if _, err := db.FollowDirection(ctx, ravi.ID, d.Slug); err != nil {
			t.Fatal(err)
		}
		waiting, err := db.FollowsWaiting(ctx)
		if err != nil || len(waiting) != 1 || waiting[0].ID != f.ID || waiting[0].Email != asha.Email {
			t.Fatalf("waiting: %+v, %v", waiting, err)
		}

		var ids []string
		for range 4 {
			wg.Go(func() {
				id, vs, err := db.ClaimFollowSend(ctx, f.ID, asha.Email, "follow-{send}@example.com")
				if err != nil {
					t.Error(err)
				}
				if id != "" {
					mu.Lock()
					ids = append(ids, id)
					mu.Unlock()
					if len(vs) != 1 || vs[0].ID != d.Versions[2].ID || vs[0].Date != d.Versions[2].Date {
						t.Errorf("claimed versions %+v", vs)
					}
				}
			})
		}
		wg.Wait()
		if len(ids) != 1 {
			t.Fatalf("%d senders claimed the e-mail", len(ids))
		}
		if err := db.FinishFollowSend(ctx, ids[0], asha.Email, "550 no such mailbox", true); err != nil {
			t.Fatal(err)
		}
		if b, _ := db.Bouncing(ctx); len(b) != 1 || b[0].Failures != 1 {
			t.Errorf("the refusal is not counted against the address: %+v", b)
		}
		id, vs, err := db.ClaimFollowSend(ctx, f.ID, asha.Email, "m")
		if err != nil || id == "" || len(vs) != 1 {
			t.Fatalf("a failed e-mail's versions are not given back: %q %v", id, err)
		}
		if err := db.FinishFollowSend(ctx, id, asha.Email, "", false); err != nil {
			t.Fatal(err)
		}
		if id, _, _ := db.ClaimFollowSend(ctx, f.ID, asha.Email, "m"); id != "" {
			t.Error("a sent e-mail's versions claimed again")
		}
		if b, _ := db.Bouncing(ctx); len(b) != 0 {
			t.Errorf("a delivery does not clear the address's refusals: %+v", b)
		}
		if st, err := db.AlertStats(ctx); err != nil || st.Follows != 2 || st.FollowsWaiting != 0 ||
			!cmp.Equal(st.FollowSends, map[string]int{"sent": 1, "failed": 1}) {
			t.Errorf("stats: %+v, %v", st, err)
		}
		got, _ := db.UserFollows(ctx, asha.ID)
		if len(got) != 1 || got[0].LastSentAt == nil || !got[0].LastSentAt.Equal(storetest.Now) {
			t.Errorf("last sent: %+v", got)
		}

		// The fourth arrives; asha unsubscribes by the e-mail's link before
		// it is sent, ravi by the page: nothing waits.
		syncDirection(t, db, cat, d, 4)
		if n, err := db.MatchFollows(ctx); err != nil || n != 2 {
			t.Fatalf("the fourth version's deliveries: %d, %v", n, err)
		}
		if err := db.StopFollow(ctx, f.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.StopFollow(ctx, f.ID); err != nil {
			t.Errorf("stopping twice: %v", err)
		}
		if err := db.UnfollowDirection(ctx, ravi.ID, d.Slug); err != nil {
			t.Fatal(err)
		}
		if w, err := db.FollowsWaiting(ctx); err != nil || len(w) != 0 {
			t.Errorf("waiting after unfollowing: %+v, %v", w, err)
		}
		if got, _ := db.UserFollows(ctx, asha.ID); len(got) != 0 {
			t.Errorf("asha still follows %+v", got)
		}
	})
}

// TestFollows_ArrivedBefore: versions that reached the store before the
// follow was made are not sent, even when no run matched them yet (a
// fresh store's first sync brings every version); the next one is.
func TestFollows_ArrivedBefore(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		d := directionstest.Directions(1, 3, 12, 6)[0].Direction
		cat := storetest.Catalog()
		syncDirection(t, db, cat, d, 2)
		now = now.Add(time.Minute)
		u := newAlertUser(t, db, "meera")
		if _, err := db.FollowDirection(ctx, u.ID, d.Slug); err != nil {
			t.Fatal(err)
		}
		if n, err := db.MatchFollows(ctx); err != nil || n != 0 {
			t.Fatalf("versions that arrived before the follow: %d deliveries, %v", n, err)
		}
		now = now.Add(time.Minute)
		syncDirection(t, db, cat, d, 3)
		if n, err := db.MatchFollows(ctx); err != nil || n != 1 {
			t.Fatalf("the version after the follow: %d deliveries, %v", n, err)
		}
	})
}
