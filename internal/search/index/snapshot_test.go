package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// snapshotOf writes x as a snapshot stamped st.
func snapshotOf(t testing.TB, x *Index, st Stamp) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := x.WriteSnapshot(&b, st); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameIndex fails t unless x and y answer alike: the same matches, counts
// and facets for every query, the same vocabulary and sizes.
func sameIndex(t *testing.T, what string, x, y *Index, queries []search.Query) {
	t.Helper()
	for _, q := range queries {
		if diff := cmp.Diff(find(t, x, q), find(t, y, q)); diff != "" {
			t.Fatalf("%s, %+v (-index +opened):\n%s", what, q, diff)
		}
	}
	ctx := context.Background()
	for _, prefix := range []string{"", "p", "tok", "aut", "zz", "क"} {
		a, _ := x.Prefixed(ctx, prefix, 20)
		b, _ := y.Prefixed(ctx, prefix, 20)
		if diff := cmp.Diff(a, b, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s, Prefixed(%q) (-index +opened):\n%s", what, prefix, diff)
		}
		a, _ = x.Near(ctx, prefix, 3, 9)
		b, _ = y.Near(ctx, prefix, 3, 9)
		if diff := cmp.Diff(a, b, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s, Near(%q) (-index +opened):\n%s", what, prefix, diff)
		}
	}
	keys := []string{"payment", "card", "upi", "tokenis", "absent", search.Key("aggregators")}
	a, _ := x.Docs(ctx, keys)
	b, _ := y.Docs(ctx, keys)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("%s, Docs (-index +opened):\n%s", what, diff)
	}
	sx, sy := x.Stats(), y.Stats()
	sx.Bytes, sy.Bytes = 0, 0
	if diff := cmp.Diff(sx, sy); diff != "" {
		t.Fatalf("%s, Stats (-index +opened):\n%s", what, diff)
	}
}

// TestSnapshot_RoundTrip: an index opened from its snapshot answers as the
// index did, and keeps answering alike as the same changes are applied to
// both (additions, replacements, removals, new keys and words, the
// compactions they cause), without changing the snapshot's file, and
// appending in the room the snapshot leaves rather than copying lists.
func TestSnapshot_RoundTrip(t *testing.T) {
	pool := storetest.RealisticCirculars(160, 7)
	rng := rand.New(rand.NewPCG(2, 3))
	queries := []search.Query{{Text: "payment"}, {Text: "card tokenisation"}, {Text: "upi", Page: 2},
		{Text: "escrow merchant zebra"}, {Text: "aadhaar", Source: "RBI"}, {Text: "kyc", ByDate: true, Limit: 7},
		{Text: string(pool[3].CircularNumber)}, {Text: "tokenisaton"}, {Text: "payment", Category: "UPI"},
		{Text: "केवाईसी नियम"}}
	batch := func() ([]Doc, []int64, []search.Word) {
		var docs []Doc
		var removed []int64
		var words []search.Word
		for range 1 + rng.IntN(15) {
			k := int64(1 + rng.IntN(80))
			if rng.IntN(4) == 0 {
				removed = append(removed, k)
				docs = slices.DeleteFunc(docs, func(d Doc) bool { return d.Key == k })
				continue
			}
			c := pool[rng.IntN(len(pool))]
			c.Slug = fmt.Sprintf("c-%03d", k)
			if rng.IntN(3) == 0 {
				c.Title += fmt.Sprintf(" zq%dkey", rng.IntN(1000)) // a key no snapshot holds
			}
			d, ws := doc(t, k, c)
			docs = slices.DeleteFunc(docs, func(d Doc) bool { return d.Key == k })
			removed = slices.DeleteFunc(removed, func(r int64) bool { return r == k })
			docs = append(docs, d)
			words = append(words, ws...)
		}
		return docs, removed, words
	}
	x := New()
	st := Stamp{Generation: "gen-1", Version: 0}
	for round := range 6 {
		for range 4 {
			docs, removed, words := batch()
			if err := x.Apply(docs, removed, words); err != nil {
				t.Fatal(err)
			}
		}
		st.Version++
		data := snapshotOf(t, x, st)
		path := filepath.Join(t.TempDir(), "search-index.snapshot")
		if err := x.WriteSnapshotFile(path, st); err != nil {
			t.Fatal(err)
		}
		y, got, err := OpenSnapshotFile(path) // mapped, its pages released as checked
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if got != st {
			t.Errorf("round %d: stamp %+v, want %+v", round, got, st)
		}
		sameIndex(t, fmt.Sprintf("round %d, opened", round), x, y, queries)
		if again := snapshotOf(t, y, st); !bytes.Equal(again, data) {
			t.Errorf("round %d: the opened index's snapshot differs from the one it was opened from", round)
		}
		// a circular added: the longest list (every circular holds its key)
		// takes it in the room after it, where it lies
		common := 0
		for id := range y.lists {
			if len(y.lists[id].docs) > len(y.lists[common].docs) {
				common = id
			}
		}
		at, n := unsafe.SliceData(y.lists[common].docs), len(y.lists[common].docs)
		added, words := doc(t, int64(1000+round), pool[round])
		for _, idx := range []*Index{x, y} {
			if err := idx.Apply([]Doc{added}, nil, words); err != nil {
				t.Fatal(err)
			}
		}
		if len(y.lists[common].docs) != n+1 || unsafe.SliceData(y.lists[common].docs) != at {
			t.Errorf("round %d: appending to a list of %d copied it: the room after it went unused", round, n)
		}
		// both indexes take the same changes (x is then snapshot again)
		for i := range 8 {
			docs, removed, words := batch()
			for _, idx := range []*Index{x, y} {
				if err := idx.Apply(slices.Clone(docs), removed, words); err != nil {
					t.Fatal(err)
				}
			}
			sameIndex(t, fmt.Sprintf("round %d, after change %d", round, i), x, y, queries)
		}
		if onDisk, err := os.ReadFile(path); err != nil || !bytes.Equal(onDisk, data) {
			t.Fatalf("round %d: applying changes changed the snapshot's file (%v)", round, err)
		}
	}
	if x.Stats().Deleted == 0 && x.Stats().Docs < 40 {
		t.Errorf("the test needs documents and deletions: %+v", x.Stats())
	}
}

// TestSnapshot_Misaligned: a snapshot at an address its arrays cannot be
// read at in place (an embedded file, say) is copied, and opens.
func TestSnapshot_Misaligned(t *testing.T) {
	x := build(t, storetest.RealisticCirculars(30, 4))
	good := snapshotOf(t, x, Stamp{Generation: "g", Version: 3})
	misaligned := make([]byte, len(good)+1)
	copy(misaligned[1:], good)
	y, st, err := OpenSnapshot(misaligned[1:])
	if err != nil || st.Version != 3 {
		t.Fatalf("%+v, %v", st, err)
	}
	sameIndex(t, "misaligned", x, y, []search.Query{{Text: "payment"}, {Text: "card tokenisation"}})
}

// TestSnapshot_Empty: an empty index round-trips.
func TestSnapshot_Empty(t *testing.T) {
	y, st, err := OpenSnapshot(snapshotOf(t, New(), Stamp{Generation: "g"}))
	if err != nil || st.Generation != "g" {
		t.Fatalf("%+v, %v", st, err)
	}
	sameIndex(t, "empty", New(), y, []search.Query{{Text: "payment"}})
}

// TestSnapshot_Unusable: a snapshot that is not one, of another format,
// cut short or changed anywhere is refused with ErrSnapshot,
// never read.
func TestSnapshot_Unusable(t *testing.T) {
	good := snapshotOf(t, build(t, storetest.RealisticCirculars(30, 4)), Stamp{Generation: "g", Version: 3})
	change := func(at int) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x40
		return b
	}
	format := bytes.Clone(good)
	format[len(snapshotMagic)] = snapshotFormat + 1
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"Empty", nil},
		{"NotASnapshot", []byte("PK\x03\x04 a zip file, say, of the right length or so....")},
		{"OtherFormat", format},
		{"CutShort", good[:len(good)-16]},
		{"CutShortUnaligned", good[:len(good)-3]},
		{"ChangedStamp", change(24)},
		{"ChangedMiddle", change(len(good) / 2)},
		{"ChangedChecksum", change(len(good) - 6)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := OpenSnapshot(tc.data); !errors.Is(err, ErrSnapshot) {
				t.Errorf("OpenSnapshot: %v, want ErrSnapshot", err)
			}
		})
	}
}
