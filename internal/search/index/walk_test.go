package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/search"
)

// randomDoc is a document of random counts over a small vocabulary whose
// keys range from most documents (k0) to a few (k19), so that a plan
// mixes keys with bitsets kept and keys without; some documents have a
// number made of n0, n1 and n2.
func randomDoc(t *testing.T, rng *rand.Rand, key int64) Doc {
	t.Helper()
	var terms Terms
	for i := range 20 {
		// k0 in about nine documents in ten, k19 in one in a hundred.
		if rng.Float64() > 0.9/float64(1+i*i/4) {
			continue
		}
		var f [search.Columns]uint32
		for col := search.ColumnTitle; col < search.Columns; col++ {
			if rng.IntN(3) == 0 {
				f[col] = uint32(1 + rng.IntN(4))
			}
		}
		if f == ([search.Columns]uint32{}) {
			f[search.ColumnContent] = 1
		}
		terms.Keys = append(terms.Keys, fmt.Sprint("k", i))
		terms.Freqs = append(terms.Freqs, f)
	}
	if rng.IntN(3) == 0 {
		for _, n := range rng.Perm(3)[:1+rng.IntN(3)] {
			terms.Keys = append(terms.Keys, fmt.Sprint("n", n))
			terms.Freqs = append(terms.Freqs, [search.Columns]uint32{1, 0, 0, 0})
			terms.Number = append(terms.Number, uint32(len(terms.Keys)-1))
		}
	}
	for i := range terms.Keys {
		for col, f := range terms.Freqs[i] {
			terms.Lengths[col] += f
		}
	}
	terms.Lengths[search.ColumnContent] += uint32(rng.IntN(40)) // words no plan asks for
	if len(terms.Keys) == 0 {
		terms.Keys = []string{"k0"}
		terms.Freqs = [][search.Columns]uint32{{0, 0, 0, 1}}
		terms.Lengths[search.ColumnContent]++
	}
	b, err := terms.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Doc{Key: key, Source: []string{"RBI", "NPCI", "SEBI"}[rng.IntN(3)], Category: []string{"UPI", "KYC", "Cards"}[rng.IntN(3)],
		Date: fmt.Sprintf("2025-0%d-1%d", 1+rng.IntN(3), rng.IntN(3)), Slug: fmt.Sprintf("s-%05d-%d", key, rng.IntN(1000)), Terms: b}
}

// randomPlan is a plan of one to four terms of up to three keys (some
// absent from the index), perhaps a number, a filter, a page, newest
// first or by date.
func randomPlan(rng *rand.Rand) search.Plan {
	var p search.Plan
	for i := range 1 + rng.IntN(4) {
		term := search.Term{Word: fmt.Sprint("w", i)}
		for range 1 + rng.IntN(3) {
			if rng.IntN(12) == 0 {
				term.Keys = append(term.Keys, "absent")
			} else {
				// common keys more often
				term.Keys = append(term.Keys, fmt.Sprint("k", min(rng.IntN(20), rng.IntN(20))))
			}
		}
		p.Terms = append(p.Terms, term)
	}
	if rng.IntN(6) == 0 {
		for _, n := range rng.Perm(3)[:1+rng.IntN(2)] {
			p.Number = append(p.Number, fmt.Sprint("n", n))
		}
	}
	p.Latest = rng.IntN(5) == 0
	p.Query.Source = []string{"", "", "RBI", "NPCI", "Nope"}[rng.IntN(5)]
	p.Query.Category = []string{"", "", "UPI", "Cards", "Nope"}[rng.IntN(5)]
	p.Query.Page = []int{0, 1, 1, 2, 3, 9, 40}[rng.IntN(7)]
	if rng.IntN(5) == 0 {
		p.Query.ByDate, p.Query.Limit = true, rng.IntN(15)
	}
	return p
}

// TestFind_BitsWalk compares the bit walk with the walk document by
// document (which scores every match) over random indexes changed in
// batches (documents added, replaced and removed, the index compacted)
// and random plans: every page's hits, the best for the answer, the
// total and the facets must be the same, and so must FindTop's.
func TestFind_BitsWalk(t *testing.T) {
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 49))
		x := New()
		next := int64(1)
		var keys []int64
		bitsUsed := 0
		for batch := range 12 {
			var docs []Doc
			var removed []int64
			for range 20 + rng.IntN(150) {
				switch {
				case len(keys) > 0 && rng.IntN(5) == 0: // replaced
					docs = append(docs, randomDoc(t, rng, keys[rng.IntN(len(keys))]))
				case len(keys) > 0 && rng.IntN(6) == 0:
					removed = append(removed, keys[rng.IntN(len(keys))])
				default:
					docs = append(docs, randomDoc(t, rng, next))
					keys = append(keys, next)
					next++
				}
			}
			keys = slices.DeleteFunc(keys, func(k int64) bool { return slices.Contains(removed, k) })
			for _, d := range docs {
				if !slices.Contains(keys, d.Key) {
					keys = append(keys, d.Key)
				}
			}
			if err := x.Apply(docs, removed, nil); err != nil {
				t.Fatal(err)
			}
			for i := range 60 {
				p := randomPlan(rng)
				x.walk = walkByDoc
				want, wantTop := x.Find(p), x.FindTop(p, 3)
				x.walk = walkAuto
				got, gotTop := x.Find(p), x.FindTop(p, 3)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("seed %d, batch %d, plan %d %+v (-by document +auto):\n%s", seed, batch, i, p, diff)
				}
				if diff := cmp.Diff(wantTop, gotTop); diff != "" {
					t.Fatalf("seed %d, batch %d, plan %d %+v: FindTop (-by document +auto):\n%s", seed, batch, i, p, diff)
				}
				x.walk = walkByBits
				if diff := cmp.Diff(want, x.Find(p)); diff != "" {
					t.Fatalf("seed %d, batch %d, plan %d %+v (-by document +bits):\n%s", seed, batch, i, p, diff)
				}
				x.walk = walkAuto
			}
			bitsUsed += len(x.keyBits)
		}
		if bitsUsed == 0 {
			t.Errorf("seed %d: no key kept a bitset", seed)
		}
	}
}

// TestFind_BitsConcurrent: searches making the same bitsets at once (each
// under the read lock) find what one search alone finds (run with -race).
func TestFind_BitsConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 49))
	var docs []Doc
	for k := range int64(500) {
		docs = append(docs, randomDoc(t, rng, k+1))
	}
	plans := make([]search.Plan, 40)
	for i := range plans {
		plans[i] = randomPlan(rng)
	}
	ref := New()
	if err := ref.Apply(docs, nil, nil); err != nil {
		t.Fatal(err)
	}
	ref.walk = walkByDoc
	x := New()
	if err := x.Apply(docs, nil, nil); err != nil {
		t.Fatal(err)
	}
	x.walk = walkByBits
	errs := make(chan string, 4*len(plans))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range plans {
				p := plans[(i+g*7)%len(plans)]
				if diff := cmp.Diff(ref.Find(p), x.Find(p)); diff != "" {
					errs <- fmt.Sprintf("%+v (-by document +bits):\n%s", p, diff)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
