package store

import (
	"testing"
	"time"
)

func TestDB_Rates(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		minute := time.Minute
		w0 := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
		w1, w2 := w0.Add(minute), w0.Add(2*minute)
		for _, step := range []struct {
			key    string
			window time.Time
			n      int
		}{{"login:a", w0, 1}, {"login:a", w0, 2}, {"login:b", w0, 5}, {"login:a", w1, 1}} {
			if err := db.AddRate(ctx, step.key, step.window, step.n, minute); err != nil {
				t.Fatal(err)
			}
		}
		cur, prev, err := db.Rates(ctx, "login:a", w1, w0)
		if err != nil || cur != 1 || prev != 3 {
			t.Errorf("Rates(login:a, w1, w0) = %d, %d, %v; want 1, 3", cur, prev, err)
		}
		t.Run("OtherKeyApart", func(t *testing.T) {
			cur, prev, err := db.Rates(ctx, "login:b", w1, w0)
			if err != nil || cur != 0 || prev != 5 {
				t.Errorf("Rates(login:b) = %d, %d, %v; want 0, 5", cur, prev, err)
			}
		})
		t.Run("OldWindowsForgotten", func(t *testing.T) {
			if err := db.AddRate(ctx, "login:a", w2, 1, minute); err != nil {
				t.Fatal(err)
			}
			_, prev, err := db.Rates(ctx, "login:a", w1, w0)
			if err != nil || prev != 0 {
				t.Errorf("window w0 after a write in w2: %d, %v; want 0", prev, err)
			}
		})
	})
}
