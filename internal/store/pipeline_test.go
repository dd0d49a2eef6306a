package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
)

func TestAhead(t *testing.T) {
	t.Parallel()
	items := make([]int, 23)
	for i := range items {
		items[i] = i
	}
	t.Run("InOrder", func(t *testing.T) {
		var made atomic.Int64
		a := startAhead(t.Context(), items, 5, 2, func(i int) (string, error) {
			made.Add(1)
			return fmt.Sprint(i), nil
		})
		defer a.stop()
		var got []string
		for c := 0; c*5 < len(items); c++ {
			part, err := a.take(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, part...)
		}
		want := make([]string, len(items))
		for i := range want {
			want[i] = fmt.Sprint(i)
		}
		if !slices.Equal(got, want) || made.Load() != int64(len(items)) {
			t.Errorf("got %v (%d made)", got, made.Load())
		}
	})
	t.Run("AtMostDepthAhead", func(t *testing.T) {
		var made atomic.Int64
		a := startAhead(t.Context(), items, 5, 2, func(i int) (int, error) { made.Add(1); return i, nil })
		if _, err := a.take(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
		a.stop()
		// Chunk 0 taken, then at most two more: 15 items.
		if n := made.Load(); n > 15 {
			t.Errorf("%d items made with one chunk taken, want at most 15", n)
		}
	})
	t.Run("ErrorsOfTheirChunk", func(t *testing.T) {
		bad := errors.New("bad")
		a := startAhead(t.Context(), items, 5, 2, func(i int) (int, error) {
			if i == 7 {
				return 0, bad
			}
			return i, nil
		})
		defer a.stop()
		if _, err := a.take(t.Context(), 0); err != nil {
			t.Errorf("chunk 0: %v", err)
		}
		if _, err := a.take(t.Context(), 1); !errors.Is(err, bad) {
			t.Errorf("chunk 1: %v, want its error", err)
		}
	})
	t.Run("Canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		block := make(chan struct{})
		a := startAhead(ctx, items, 5, 1, func(i int) (int, error) { <-block; return i, nil })
		cancel()
		if _, err := a.take(ctx, 0); !errors.Is(err, context.Canceled) {
			t.Errorf("take after cancel = %v", err)
		}
		close(block)
		a.stop() // returns: nothing is left running
	})
}
