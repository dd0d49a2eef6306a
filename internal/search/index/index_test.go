package index

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// doc indexes a circular as a store would, with key k.
func doc(t testing.TB, k int64, c catalog.Circular) (Doc, []search.Word) {
	t.Helper()
	d := search.Index(c, string(c.Summary))
	terms, err := Count(d).AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Doc{Key: k, Source: c.Source, Category: c.Category, Date: c.PublishedDate.Format("2006-01-02"), Slug: c.Slug, Terms: terms}, d.Words
}

// build indexes cs, keyed 1, 2, ... in order.
func build(t testing.TB, cs []catalog.Circular) *Index {
	t.Helper()
	x := New()
	for i, c := range cs {
		d, words := doc(t, int64(i+1), c)
		if err := x.Apply([]Doc{d}, nil, words); err != nil {
			t.Fatal(err)
		}
	}
	return x
}

// find prepares and runs text over x.
func find(t testing.TB, x *Index, q search.Query) Results {
	t.Helper()
	p, err := search.Prepare(context.Background(), q, x)
	if err != nil {
		t.Fatal(err)
	}
	return x.Find(p)
}

func TestTerms_Encoding(t *testing.T) {
	c := storetest.RealisticCirculars(1, 9)[0]
	want := Count(search.Index(c, string(c.Summary)))
	b, err := want.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got Terms
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if len(want.Number) == 0 || want.Lengths[search.ColumnContent] < 300 {
		t.Errorf("a generated circular has %d number keys and %d words of text", len(want.Number), want.Lengths[search.ColumnContent])
	}

	one, _ := Terms{Lengths: [search.Columns]uint32{1, 0, 0, 0}, Keys: []string{"k"},
		Freqs: [][search.Columns]uint32{{1, 0, 0, 0}}, Number: []uint32{0}}.AppendBinary(nil)
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"ErrEmpty", nil},
		{"ErrFormat", append([]byte{9}, one[1:]...)},
		{"ErrTruncated", one[:len(one)-1]},
		{"ErrTrailing", append(slices.Clone(one), 0)},
		{"ErrNoColumn", slices.Replace(slices.Clone(one), 8, 9, 0)},      // the key's column mask
		{"ErrZeroCount", slices.Replace(slices.Clone(one), 9, 10, 0)},    // its count
		{"ErrNumberPlace", slices.Replace(slices.Clone(one), 11, 12, 1)}, // the number's place: no key 1
		{"ErrKeyLength", slices.Replace(slices.Clone(one), 6, 7, 200)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got Terms
			if err := got.UnmarshalBinary(tc.b); !errors.Is(err, ErrTerms) {
				t.Errorf("UnmarshalBinary(%v) = %v, want ErrTerms", tc.b, err)
			}
		})
	}
	if _, err := (Terms{Keys: []string{"k"}, Freqs: make([][search.Columns]uint32, 1)}).AppendBinary(nil); err == nil {
		t.Error("a key in no column was encoded")
	}
}

// FuzzTerms feeds the decoder arbitrary bytes: it never panics, and what
// it reads the index takes without breaking what it holds.
func FuzzTerms(f *testing.F) {
	for _, c := range storetest.RealisticCirculars(3, 4) {
		b, _ := Count(search.Index(c, "")).AppendBinary(nil)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var terms Terms
		if terms.UnmarshalBinary(b) != nil {
			return
		}
		x := New()
		if err := x.Apply([]Doc{{Key: 1, Source: "RBI", Category: "UPI", Date: "2025-01-01", Slug: "s", Terms: b}}, nil, nil); err != nil {
			t.Fatalf("decoded, then refused: %v", err)
		}
		for _, k := range terms.Keys {
			if k == "" {
				continue
			}
			r := x.Find(search.Plan{Query: search.Query{Text: k}, Terms: []search.Term{{Word: k, Keys: []string{k}}}})
			if r.Total != 1 {
				t.Fatalf("key %q: %d matches, want 1", k, r.Total)
			}
		}
	})
}

func TestIndex_Apply(t *testing.T) {
	cs := storetest.RealisticCirculars(40, 2)
	t.Run("Replace", func(t *testing.T) {
		x := build(t, cs)
		c := cs[7]
		c.Title = "Zeugma obligations"
		d, words := doc(t, 8, c)
		if err := x.Apply([]Doc{d}, nil, words); err != nil {
			t.Fatal(err)
		}
		if r := find(t, x, search.Query{Text: "zeugma"}); r.Total != 1 || r.Hits[0].Key != 8 {
			t.Errorf("the new title: %+v", r)
		}
		if st := x.Stats(); st.Docs != 40 || st.Deleted != 1 {
			t.Errorf("stats %+v, want 40 documents and 1 deleted", st)
		}
	})
	t.Run("Remove", func(t *testing.T) {
		x := build(t, cs)
		if err := x.Apply(nil, []int64{8, 999}, nil); err != nil {
			t.Fatal(err)
		}
		r := find(t, x, search.Query{Text: cs[7].Slug})
		for _, m := range r.Hits {
			if m.Key == 8 {
				t.Error("a removed circular is found")
			}
		}
		docs, _ := x.Docs(context.Background(), []string{"zzz"})
		if len(docs) != 0 || x.Stats().Docs != 39 {
			t.Errorf("docs %v, stats %+v", docs, x.Stats())
		}
	})
	t.Run("ErrTermsNamesTheCircular", func(t *testing.T) {
		x := build(t, cs[:2])
		good, _ := doc(t, 3, cs[2])
		err := x.Apply([]Doc{{Key: 77, Terms: []byte{1, 2}}, good}, nil, nil)
		if !errors.Is(err, ErrTerms) || !strings.Contains(err.Error(), "circular 77") {
			t.Errorf("Apply = %v, want ErrTerms naming circular 77", err)
		}
		if x.Stats().Docs != 3 {
			t.Errorf("%d documents, want the two and the good one", x.Stats().Docs)
		}
	})
}

// TestIndex_Incremental applies random additions, changes and removals
// in batches (enough to compact several times) and, after each, requires
// every search to answer exactly as an index built afresh from the
// circulars then present.
func TestIndex_Incremental(t *testing.T) {
	pool := storetest.RealisticCirculars(120, 5)
	rng := rand.New(rand.NewPCG(1, 1))
	live := map[int64]catalog.Circular{}
	x := New()
	compactions, deleted := 0, 0
	queries := []search.Query{{Text: "payment"}, {Text: "card tokenisation"}, {Text: "upi", Page: 2},
		{Text: "escrow merchant zebra"}, {Text: "aadhaar", Source: "RBI"}, {Text: "kyc", ByDate: true, Limit: 7},
		{Text: string(pool[3].CircularNumber)}, {Text: "tokenisaton"}}
	for batch := range 30 {
		var docs []Doc
		var removed []int64
		var words []search.Word
		for range 1 + rng.IntN(12) {
			k := int64(1 + rng.IntN(60))
			if rng.IntN(4) == 0 {
				// Apply removes before it adds: a removal drops an
				// addition of the same batch.
				removed = append(removed, k)
				docs = slices.DeleteFunc(docs, func(d Doc) bool { return d.Key == k })
				delete(live, k)
				continue
			}
			c := pool[rng.IntN(len(pool))]
			c.Slug = fmt.Sprintf("c-%03d", k)
			live[k] = c
			d, ws := doc(t, k, c)
			docs = slices.DeleteFunc(docs, func(d Doc) bool { return d.Key == k })
			removed = slices.DeleteFunc(removed, func(r int64) bool { return r == k })
			docs = append(docs, d)
			words = append(words, ws...)
		}
		if err := x.Apply(docs, removed, words); err != nil {
			t.Fatal(err)
		}
		if d := x.Stats().Deleted; d < deleted {
			compactions++
		}
		deleted = x.Stats().Deleted
		fresh := New()
		keys := slices.Sorted(func(yield func(int64) bool) {
			for k := range live {
				if !yield(k) {
					return
				}
			}
		})
		for _, k := range keys {
			d, ws := doc(t, k, live[k])
			if err := fresh.Apply([]Doc{d}, nil, ws); err != nil {
				t.Fatal(err)
			}
		}
		for _, q := range queries {
			got, want := find(t, x, q), find(t, fresh, q)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("batch %d, %+v (-fresh +incremental):\n%s", batch, q, diff)
			}
		}
	}
	if compactions < 2 {
		t.Errorf("%d compactions; the test needs a few", compactions)
	}
}

// TestIndex_Walks: walking by document and by key find the same matches
// in the same order, with the same counts, for every kind of query.
func TestIndex_Walks(t *testing.T) {
	cs := storetest.RealisticCirculars(400, 6)
	x := build(t, cs)
	for _, text := range []string{"payment", "payment system bank", "escrow", "card data storage",
		"can payment aggregators keep merchant funds in an escrow account", "upi", "UPI collect request",
		string(cs[10].CircularNumber), "tokenisaton", "zebra payment", strings.Repeat("kyc wallet ", 3)} {
		for _, q := range []search.Query{{Text: text}, {Text: text, Page: 4}, {Text: text, Category: "UPI"},
			{Text: text, Source: "SEBI", Page: 2}, {Text: text, ByDate: true, Limit: 9}} {
			x.walk = walkByDoc
			byDoc := find(t, x, q)
			x.walk = walkByBits
			byKey := find(t, x, q)
			x.walk = walkAuto
			if diff := cmp.Diff(byDoc, byKey); diff != "" {
				t.Errorf("%+v (-by document +by key):\n%s", q, diff)
			}
			if byDoc.Total == 0 && q.Source == "" && q.Category == "" && !q.ByDate {
				t.Errorf("%+v: nothing found", q)
			}
		}
	}
}

func TestIndex_Vocabulary(t *testing.T) {
	x := New()
	for i, w := range []string{"tokenisation", "tokens", "token", "tokenise", "toll", "payment", "payments", "ébauche"} {
		c := storetest.Circular(fmt.Sprint("s", i), "RBI", "UPI", "2025-01-01", "low")
		c.Title, c.Content = w, w
		d, words := doc(t, int64(i+1), c)
		if err := x.Apply([]Doc{d}, nil, words); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	docs, _ := x.Docs(ctx, []string{search.Key("payments"), search.Key("tokens"), "absent"})
	if diff := cmp.Diff(map[string]int{"payment": 2, "token": 4}, docs); diff != "" { // tokenisation, tokenise too
		t.Errorf("Docs (-want +got):\n%s", diff)
	}
	words := func(ws []search.Word) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Word)
		}
		return out
	}
	got, _ := x.Prefixed(ctx, "tok", 3)
	if diff := cmp.Diff([]string{"token", "tokens", "tokenise"}, words(got)); diff != "" {
		t.Errorf("Prefixed: shortest first, then in order (-want +got):\n%s", diff)
	}
	got, _ = x.Near(ctx, "t", 4, 5)
	if diff := cmp.Diff([]string{"token", "toll"}, words(got)); diff != "" {
		t.Errorf("Near (-want +got):\n%s", diff)
	}
	got, _ = x.Near(ctx, "é", 7, 7)
	if diff := cmp.Diff([]string{"ébauche"}, words(got)); diff != "" {
		t.Errorf("Near counts characters, not bytes (-want +got):\n%s", diff)
	}
}

// TestFindTop: the best k as Find ranks them while k documents hold every
// term; fewer, and the matches widen only through the rarer terms, so a
// document holding common words alone is left out; with no rarer term
// nothing widens.
func TestFindTop(t *testing.T) {
	var cs []catalog.Circular
	add := func(slug, title string) {
		cs = append(cs, catalog.Circular{Entry: catalog.Entry{Slug: slug}, Title: title, Source: "RBI", Category: "UPI",
			PublishedDate: catalog.Date{Time: storetest.Now}})
	}
	for i := range 30 { // common words, each in half the documents or so
		if i%2 == 0 {
			add(fmt.Sprintf("common-%02d", i), "Payment system rules")
		} else {
			add(fmt.Sprintf("common-%02d", i), "Charges")
		}
	}
	add("wallet-limit", "Payment wallet limit")
	add("wallet-only", "Wallet kinds")
	add("limit-both", "Wallet limit for transit")
	x := build(t, cs)
	slugs := func(ms []Match) []string {
		var out []string
		for _, m := range ms {
			out = append(out, cs[m.Key-1].Slug)
		}
		return out
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		// One holds every term: widened through "wallet" and "limit"
		// (three documents), never to the fifteen holding only "payment".
		{"payment wallet limit", []string{"wallet-limit", "limit-both", "wallet-only"}},
		// Three hold every term: Find's first three.
		{"wallet", nil},
		// None holds both, and both are common: not widened.
		{"payment charges", []string{}},
	} {
		p, err := search.Prepare(context.Background(), search.Query{Text: tc.query}, x)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.want
		if want == nil {
			full := x.Find(p)
			want = slugs(full.Hits[:min(len(full.Hits), 3)])
		}
		if got := slugs(x.FindTop(p, 3)); !cmp.Equal(got, want, cmpopts.EquateEmpty()) {
			t.Errorf("%q: %v, want %v", tc.query, got, want)
		}
	}
}
