package render

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// InBatches calls each for 0 ≤ i < n on every core, batch indexes to a
// goroutine (one per item would cost more than the work at 100,000
// items), and returns the first error, after which no batch starts.
func InBatches(ctx context.Context, n, batch int, each func(i int) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for from := 0; from < n; from += batch {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			for i := from; i < min(from+batch, n); i++ {
				if err := each(i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}
