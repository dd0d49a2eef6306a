package alerts

import (
	"runtime"
	"slices"
	"sync"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// Index holds every alert so that each new circular is matched once
// against all of them, rather than each alert's search being run.
//
//   - Each alert's filters are compiled into bit sets (sources,
//     categories, document types, entity types, levels), so checking one
//     is a few AND instructions over a compact array.
//   - An alert with a query is filed under one key of its terms (the
//     longest, the likeliest to be rare): a circular looks only at the
//     alerts filed under the keys of its number, title and summary, and
//     holds each to the search's strong tiers (search.StrongKeys).
//   - An alert without one is filed under each source it names, or with
//     those for any source.
type Index struct {
	alerts []Alert
	masks  []mask
	plans  []search.Plan
	// single marks the alerts whose query is one key, which filing them
	// under it already checks.
	single []bool
	// sigs are the query alerts' key signatures: a bit per key, so a
	// circular lacking one of an alert's keys is passed over without
	// looking the keys up (sig of the alert not within the circular's).
	sigs      []signature
	byKey     map[string][]int32
	bySource  map[string][]int32
	anySource []int32
}

// mask is an alert's filters as bit sets over the filters' values (all
// bits set: any), and its creation time.
type mask struct {
	sources, categories, types uint64
	business                   uint8 // entity types (a bit each); 0: none named
	levels                     uint8
	created                    int64 // Unix nanoseconds
}

func bitsOf(values, all []string) uint64 {
	if len(values) == 0 {
		return ^uint64(0)
	}
	var b uint64
	for _, v := range values {
		if i := slices.Index(all, v); i >= 0 {
			b |= 1 << i
		}
	}
	return b
}

func bitOf(v string, all []string) uint64 {
	if i := slices.Index(all, v); i >= 0 {
		return 1 << i
	}
	return 0
}

// NewIndex indexes alerts (each enabled and confirmed: the store gives
// only those).
func NewIndex(alerts []Alert) *Index {
	x := &Index{alerts: alerts, masks: make([]mask, len(alerts)), plans: make([]search.Plan, len(alerts)),
		single: make([]bool, len(alerts)), sigs: make([]signature, len(alerts)), byKey: map[string][]int32{}, bySource: map[string][]int32{}}
	for i := range alerts {
		a := &alerts[i]
		x.masks[i] = mask{sources: bitsOf(a.Sources, catalog.Sources), categories: bitsOf(a.Categories, catalog.CircularCategories),
			types: bitsOf(a.DocumentTypes, catalog.DocumentTypes), levels: uint8(bitsOf(a.ImpactLevels, catalog.ImpactLevels)),
			created: a.CreatedAt.UnixNano()}
		if len(a.EntityTypes) > 0 {
			x.masks[i].business = uint8(bitsOf(a.EntityTypes, catalog.EntityTypes))
		}
		if a.Query != "" {
			p, err := search.PlanText(a.Query)
			if err == nil && len(p.Terms) > 0 {
				x.plans[i] = p
				key := ""
				for _, t := range p.Terms {
					for _, k := range t.Keys {
						if len(k) > len(key) {
							key = k
						}
					}
				}
				x.byKey[key] = append(x.byKey[key], int32(i))
				x.single[i] = len(p.Terms) == 1 && len(p.Terms[0].Keys) == 1
				for _, t := range p.Terms {
					if len(t.Keys) == 1 { // a widened term has no one key to require
						x.sigs[i].add(t.Keys[0])
					}
				}
				continue
			}
		}
		if len(a.Sources) == 0 {
			x.anySource = append(x.anySource, int32(i))
		}
		for _, s := range a.Sources {
			x.bySource[s] = append(x.bySource[s], int32(i))
		}
	}
	return x
}

// Len is how many alerts the index holds.
func (x *Index) Len() int { return len(x.alerts) }

// circularBits is a circular as the masks test it: a bit for its source,
// category and document type, and for each set of entity types (by its
// bits) whether the circular concerns it and the bit of its level for it
// (Passes, precomputed: 8 sets of 3 types).
type circularBits struct {
	source, category, docType uint64
	concerns                  [8]bool
	level                     [8]uint8
	at                        int64
}

func bitsOfCircular(arr Arrival) circularBits {
	c := arr.Circular
	b := circularBits{source: bitOf(c.Source, catalog.Sources), category: bitOf(c.Category, catalog.CircularCategories),
		docType: bitOf(c.DocumentType, catalog.DocumentTypes), at: arr.At.UnixNano()}
	for set := range 8 {
		var types []string
		for i, t := range catalog.EntityTypes {
			if set&(1<<i) != 0 {
				types = append(types, t)
			}
		}
		b.concerns[set] = concerns(c, types)
		b.level[set] = uint8(bitOf(Level(c, types), catalog.ImpactLevels))
	}
	return b
}

// passes is Alert.Passes over the bits.
func (m *mask) passes(b *circularBits) bool {
	return b.at >= m.created && m.sources&b.source != 0 && m.categories&b.category != 0 && m.types&b.docType != 0 &&
		b.concerns[m.business] && m.levels&b.level[m.business] != 0
}

// Match calls found with every alert that arr matches: the alert existed
// when the circular arrived, its filters pass and, for a query, the
// search ranks the circular among its strong matches. Each alert is
// found at most once.
func (x *Index) Match(arr Arrival, found func(a *Alert)) {
	b := bitsOfCircular(arr)
	for _, list := range [][]int32{x.bySource[arr.Circular.Source], x.anySource} {
		for _, i := range list {
			if x.masks[i].passes(&b) {
				found(&x.alerts[i])
			}
		}
	}
	if len(x.byKey) == 0 {
		return
	}
	d := search.StrongDocument(arr.Circular)
	strong := search.NewStrongKeys(d)
	seen := map[string]bool{}
	var sig signature
	for _, col := range d.Columns[:search.ColumnContent] {
		for _, place := range col {
			sig.add(d.Keys[place])
		}
	}
	for _, col := range d.Columns[:search.ColumnContent] {
		for _, place := range col {
			k := d.Keys[place]
			if seen[k] {
				continue
			}
			seen[k] = true
			for _, i := range x.byKey[k] {
				if x.masks[i].passes(&b) && sig.holds(x.sigs[i]) && (x.single[i] || strong.Match(x.plans[i])) {
					found(&x.alerts[i])
				}
			}
		}
	}
}

// MatchAll matches every arrival and returns the pairs, in arrival
// order. The arrivals are shared among the cores (the index is only
// read).
func (x *Index) MatchAll(arrivals []Arrival) []Match {
	parts := make([][]Match, min(runtime.GOMAXPROCS(0), len(arrivals)))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			from, to := p*len(arrivals)/len(parts), (p+1)*len(arrivals)/len(parts)
			out := make([]Match, 0, (to-from)*16)
			for _, arr := range arrivals[from:to] {
				x.Match(arr, func(a *Alert) {
					out = append(out, Match{AlertID: a.ID, CircularID: arr.Circular.ID})
				})
			}
			parts[p] = out
		})
	}
	wg.Wait()
	return slices.Concat(parts...)
}

// signature is a set of keys as 128 bits (a key's bit from its FNV-1a
// hash): a holds b only if every key of b may be in a.
type signature [2]uint64

func (s *signature) add(key string) {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint32(key[i])) * 16777619
	}
	s[h>>31&1] |= 1 << (h & 63)
}

func (s signature) holds(o signature) bool { return o[0]&^s[0] == 0 && o[1]&^s[1] == 0 }
