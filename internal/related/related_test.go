package related

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/markdown"
	"regpulse/internal/store/storetest"
)

func plain(c catalog.Circular) (string, [sha256.Size]byte) {
	return markdown.PlainText(c.Content), [sha256.Size]byte{}
}

// TestRank_RealContent measures the ranking on the real content against
// testdata/expected.txt: the share of the expected related circulars
// found in each circular's top 5.
func TestRank_RealContent(t *testing.T) {
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, c := range cat.Circulars {
		index[c.Slug] = i
	}
	rel := Rank(Docs(cat.Circulars, plain), 5)

	f, err := os.Open("testdata/expected.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var circulars, expected, found int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		slug, want, _ := strings.Cut(line, ":")
		i, ok := index[slug]
		if !ok {
			t.Fatalf("expected.txt: no circular %s", slug)
		}
		var got []string
		for _, j := range rel[i] {
			got = append(got, cat.Circulars[j].Slug)
		}
		circulars++
		for _, w := range strings.Fields(want) {
			if _, ok := index[w]; !ok {
				t.Fatalf("expected.txt: no circular %s", w)
			}
			expected++
			if slices.Contains(got, w) {
				found++
			} else {
				t.Logf("%s: %s not in the top 5 %v", slug, w, got)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	rate := float64(found) / float64(expected)
	t.Logf("%d circulars, %d of %d expected related circulars in the top 5: %.1f%%", circulars, found, expected, 100*rate)
	if circulars < 15 || rate < 0.8 {
		t.Errorf("hit rate %.1f%% over %d circulars, want at least 80%% over 15 or more", 100*rate, circulars)
	}
}

func TestRank(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	docs := []Doc{
		{Title: "Card tokenisation", Text: "Card networks offer tokenisation services for cards on mobile phones.", Date: day("2019-01-08"), Number: "DPSS.CO.PD No.1463/02.14.003/2018-19"},
		{Title: "Tokenisation through card issuers", Text: "Card issuers tokenise cards on file for merchants.", Date: day("2023-12-20"), Number: "CO.DPSS.POLC.No.S-919/02-14-003/2023-24"},
		{Title: "Fraud risk management", Text: "Banks must report fraud within a week.", Date: day("2026-06-24")},
		{Title: "UPI Lite limits", Text: "The UPI Lite wallet limit is raised.", Date: day("2024-12-04")},
		{Title: "UPI Lite auto top-up", Text: "UPI Lite wallets are topped up automatically.", Date: day("2024-08-27"), Linked: []int{5}},
		{Title: "Nothing alike", Text: "Pension contributions by QR code.", Date: day("2023-12-06"), Linked: []int{4}},
		{Title: "Alone", Text: "Sibos conference venue.", Date: day("2020-01-01")},
	}
	got := Rank(docs, 5)
	want := [][]int{
		{1},    // the same words and file number; fraud shares nothing
		{0},    //
		nil,    // nothing in common with anyone
		{4},    //
		{5, 3}, // the explicit link first, though no word is shared
		{4},    //
		nil,    //
	}
	for i := range want {
		if diff := cmp.Diff(want[i], got[i], cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
			t.Errorf("doc %d (%s) (-want +got):\n%s", i, docs[i].Title, diff)
		}
	}

	t.Run("Batches", func(t *testing.T) {
		// tokenised a few docs at a time, the same terms get the same ids
		cs := storetest.RealisticCirculars(200, 1)
		docs := Docs(cs, plain)
		whole := Rank(docs, 5)
		defer func(n int) { vectorBatch = n }(vectorBatch)
		vectorBatch = 7
		if diff := cmp.Diff(whole, Rank(docs, 5)); diff != "" {
			t.Errorf("in batches of 7 (-whole +batches):\n%s", diff)
		}
	})

	t.Run("SeriesKey", func(t *testing.T) {
		for in, want := range map[string]string{
			"DPSS.CO.PD No.1463/02.14.003/2018-19":                   "rbi-file:02.14.003",
			"RBI/2023-24/91 CO.DPSS.POLC.No.S-919/02-14-003/2023-24": "rbi-file:02.14.003",
			"NPCI/UPI/OC No. 228/2025-26":                            "npci-oc:228",
			"OC 193":                                                 "npci-oc:193",
			"NPCI/UPI/OC-215A/2025-26":                               "npci-oc:215",
			"SEBI/HO/ITD-1/ITD_CSC_EXT/P/CIR/2024/113":               "",
			"": "",
		} {
			if got := seriesKey(in); got != want {
				t.Errorf("seriesKey(%q) = %q, want %q", in, got, want)
			}
		}
	})
}

// BenchmarkRank ranks generated circulars of realistic length: the cost
// per build at 10,000 and 100,000 (go test -bench Rank -benchtime 1x).
func BenchmarkRank(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		cs := storetest.RealisticCirculars(n, 1)
		docs := Docs(cs, plain)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				Rank(docs, 5)
			}
		})
	}
}

func TestLead(t *testing.T) {
	long := strings.Repeat("alpha beta ", 300) // 600 words
	if got := len(strings.Fields(Lead(long))); got != LeadWords {
		t.Errorf("Lead of 600 words has %d, want %d", got, LeadWords)
	}
	if got := Lead("a short text"); got != "a short text" {
		t.Errorf("Lead(short) = %q", got)
	}
	// what Rank reads of the lead is what it reads of the whole text
	d := Doc{Title: "t", Text: long}
	l := d
	l.Text = Lead(long)
	if !reflect.DeepEqual(termCounts(d), termCounts(l)) {
		t.Error("the lead's terms differ from the text's")
	}
}

// TestDenseCosine: denseCosine is, to the bit, the merge of two vectors
// sorted by term id that it replaced.
func TestDenseCosine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vec := func() []term {
		var v []term
		for id := range int32(300) {
			if r.IntN(3) == 0 {
				v = append(v, term{id, r.Float32()})
			}
		}
		return v
	}
	dense := make([]float32, 300)
	for range 200 {
		a, b := vec(), vec()
		for _, t := range a {
			dense[t.id] = t.w
		}
		if got, want := denseCosine(dense, b), cosine(a, b); got != want {
			t.Fatalf("denseCosine = %v, the merge %v", got, want)
		}
		clear(dense)
	}
}

// cosine is the dot product of two unit vectors sorted by term id, by
// merging them.
func cosine(a, b []term) float32 {
	var s float32
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].id < b[j].id:
			i++
		case a[i].id > b[j].id:
			j++
		default:
			s += a[i].w * b[j].w
			i++
			j++
		}
	}
	return s
}

// TestHeaviest: the k heaviest postings kept through the heap are those
// a whole sort keeps, in its order, ties in weight included.
func TestHeaviest(t *testing.T) {
	r := rand.New(rand.NewPCG(70, 2))
	for round := range 300 {
		n := 1 + r.IntN(400)
		k := 1 + r.IntN(n)
		p := make([]posting, n)
		for i := range p {
			// few weights: many ties, broken by doc
			p[i] = posting{doc: int32(r.IntN(1000)), w: float32(r.IntN(8)) / 8}
		}
		want := slices.Clone(p)
		slices.SortFunc(want, heaviestFirst)
		want = want[:k]
		got := heaviest(slices.Clone(p), k)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %d of %d postings: got %v, want %v", round, k, n, got, want)
		}
		if cap(got) != k {
			t.Fatalf("round %d: capacity %d, want %d", round, cap(got), k)
		}
	}
}
