package render

import (
	"errors"
	"sync/atomic"
	"testing"
)

// TestInBatches: each index once, whatever the batch's size against n;
// an error stops the work and is returned.
func TestInBatches(t *testing.T) {
	for _, tc := range []struct{ n, batch int }{{0, 4}, {1, 4}, {4, 4}, {10, 4}, {10, 1}, {3, 100}} {
		seen := make([]atomic.Int32, tc.n)
		if err := InBatches(t.Context(), tc.n, tc.batch, func(i int) error { seen[i].Add(1); return nil }); err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Errorf("n %d, batch %d: index %d seen %d times, want once", tc.n, tc.batch, i, got)
			}
		}
	}
	t.Run("Error", func(t *testing.T) {
		bad := errors.New("bad")
		var calls atomic.Int32
		err := InBatches(t.Context(), 1000, 10, func(i int) error {
			calls.Add(1)
			if i == 5 {
				return bad
			}
			return nil
		})
		if !errors.Is(err, bad) {
			t.Errorf("error %v, want %v", err, bad)
		}
		if n := calls.Load(); n == 1000 {
			t.Errorf("all %d items done after the error, want the work stopped", n)
		}
	})
}
