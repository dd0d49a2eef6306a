package generator

import (
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

// rank is related.Rank, from the last build's state.
func (rc *relatedCache) rank(docs []related.Doc, k int) [][]int {
	out, st := related.RankFrom(docs, k, rc.last)
	rc.last, rc.next = nil, st
	return out
}

// write keeps this build's state beside outDir.
func (rc *relatedCache) write(outDir string) error {
	if rc == nil || rc.next == nil {
		return nil
	}
	return render.WriteBesideStream(outDir, relatedCacheName+".gob", rc.next)
}
