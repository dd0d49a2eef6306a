package store

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// A large sync spends its time in two places that can overlap: the
// database writing rows, and Go preparing them (their values, their
// search terms). ahead prepares chunks of entries on every core while the
// rows of earlier chunks are written.

// ahead computes f of the items chunk by chunk, in order, a few chunks
// ahead of the chunks taken.
type ahead[R any] struct {
	outs   [][]R // per chunk, until taken
	errs   []error
	chunk  int
	done   []chan struct{} // per chunk: its results are in out
	slots  chan struct{}   // a token per chunk computed and not yet taken
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startAhead starts computing f for items in chunks of chunk, at most
// depth chunks ahead of take.
func startAhead[T, R any](ctx context.Context, items []T, chunk, depth int, f func(T) (R, error)) *ahead[R] {
	ctx, cancel := context.WithCancel(ctx)
	n := (len(items) + chunk - 1) / chunk
	a := &ahead[R]{outs: make([][]R, n), errs: make([]error, n), chunk: chunk,
		done: make([]chan struct{}, n), slots: make(chan struct{}, depth), cancel: cancel}
	for i := range a.done {
		a.done[i] = make(chan struct{})
	}
	a.wg.Go(func() {
		for c := range n {
			select {
			case a.slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			start := c * chunk
			part := items[start:min(len(items), start+chunk)]
			a.outs[c], a.errs[c] = eachParallel(part, f)
			close(a.done[c])
		}
	})
	return a
}

// take waits for the results of chunk c and returns them; the caller
// takes each chunk once, in order, and the pipeline keeps nothing of it.
func (a *ahead[R]) take(ctx context.Context, c int) ([]R, error) {
	select {
	case <-a.done[c]:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	<-a.slots
	res := a.outs[c]
	a.outs[c] = nil
	return res, a.errs[c]
}

// stop ends the computation, whether or not every chunk was taken.
func (a *ahead[R]) stop() {
	a.cancel()
	a.wg.Wait()
}

// eachParallel is f of each item, computed on every core, and the errors
// f returned.
func eachParallel[T, R any](items []T, f func(T) (R, error)) ([]R, error) {
	out := make([]R, len(items))
	errs := make([]error, min(runtime.GOMAXPROCS(0), max(len(items), 1)))
	var wg sync.WaitGroup
	for w := range errs {
		wg.Go(func() {
			for i := w; i < len(items); i += len(errs) {
				var err error
				if out[i], err = f(items[i]); err != nil && errs[w] == nil {
					errs[w] = err
				}
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}
