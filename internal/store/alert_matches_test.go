package store

import (
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// matchedAlert is a synced store where one alert (asha's immediate
// "upi") matched one circular that arrived after it: the arrivals of a
// sync, each circular once, and its matches recorded once.
func matchedAlert(t *testing.T, open opener) (*DB, auth.User, alerts.Alert, catalog.Circular) {
	t.Helper()
	ctx := t.Context()
	cat := storetest.Catalog()
	db := openSynced(t, open, cat)
	if arr, err := db.Arrivals(ctx, 100); err != nil || len(arr) != len(cat.Circulars) {
		t.Fatalf("a first sync's arrivals: %d, %v", len(arr), err)
	}
	// Nothing arrives again: mark them matched.
	arr, _ := db.Arrivals(ctx, 100)
	if err := db.RecordMatches(ctx, arr, nil); err != nil {
		t.Fatal(err)
	}
	u := newAlertUser(t, db, "asha")
	a, err := db.CreateAlert(ctx, alerts.Alert{UserID: u.ID, Name: "UPI", Query: "upi", Frequency: alerts.Immediately, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	added := storetest.Circular("rbi-2025-06-29-upi-new", "RBI", "UPI", "2025-06-29", "high")
	cat.Circulars = append([]catalog.Circular{added}, cat.Circulars...)
	if _, err := db.SyncCatalog(ctx, cat); err != nil {
		t.Fatal(err)
	}
	arr, err = db.Arrivals(ctx, 100)
	if err != nil || len(arr) != 1 || arr[0].Circular.ID != added.ID || !arr[0].At.Equal(storetest.Now) {
		t.Fatalf("arrivals after adding one: %+v, %v", arr, err)
	}
	m := []alerts.Match{{AlertID: a.ID, CircularID: added.ID}}
	for range 2 { // a rerun records nothing twice
		if err := db.RecordMatches(ctx, arr, m); err != nil {
			t.Fatal(err)
		}
	}
	if again, _ := db.Arrivals(ctx, 100); len(again) != 0 {
		t.Errorf("matched arrivals come back: %d", len(again))
	}
	return db, u, a, added
}

// TestAlerts_Matches: arrivals from a sync, matches recorded once, what
// waits to be sent, the alert's feed.
func TestAlerts_Matches(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db, _, a, added := matchedAlert(t, open)
		w, err := db.Waiting(ctx, storetest.Now.Truncate(24*time.Hour))
		if err != nil || len(w) != 1 || w[0].Alert.ID != a.ID || w[0].SentSince != 0 {
			t.Fatalf("waiting: %+v, %v", w, err)
		}
		feed, err := db.AlertCirculars(ctx, a.ID, 10)
		if err != nil || len(feed) != 1 || feed[0].ID != added.ID {
			t.Errorf("the alert's feed: %v, %v", slugsOf(feed), err)
		}
	})
}
