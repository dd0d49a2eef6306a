package generator

import (
	"context"
	"crypto/sha256"
	"runtime"

	"golang.org/x/sync/errgroup"

	"regpulse/generator/render"
	"regpulse/internal/related"
)

// relatedCacheName names the related ranking's cache beside an output
// (cachePath): the last build's related.State, from which a rebuild
// tokenises again only the circulars whose words changed and ranks
// again only those whose related circulars can have changed
// (related.RankFrom).
const relatedCacheName = "related"

// relatedCache is a build's ranking of related circulars from the last
// build's (none: from scratch), and the state it leaves for the next.
type relatedCache struct {
	last, next *related.State
}

// readRelatedCache reads the last ranking's state beside outDir.
func readRelatedCache(outDir string) *relatedCache {
	st, ok := render.ReadBesideStream(outDir, relatedCacheName+".gob", related.ReadState)
	if !ok {
		st = nil
	}
	return &relatedCache{last: st}
}

// rank is related.Rank, from the last build's state; text is the plain
// text and LeadSum of the docs given without it whose counts that state
// lacks (related.NeedText), made on every core.
func (rc *relatedCache) rank(ctx context.Context, docs []related.Doc, k int, text func(i int) (string, [sha256.Size]byte, error)) ([][]int, error) {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, i := range related.NeedText(docs, rc.last) {
		g.Go(func() (err error) {
			if err := ctx.Err(); err != nil {
				return err
			}
			docs[i].Text, docs[i].LeadSum, err = text(i)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out, st, err := related.RankFrom(docs, k, rc.last)
	rc.last, rc.next = nil, st
	return out, err
}

// write keeps this build's state beside outDir.
func (rc *relatedCache) write(outDir string) error {
	if rc == nil || rc.next == nil {
		return nil
	}
	return render.WriteBesideStream(outDir, relatedCacheName+".gob", rc.next)
}
