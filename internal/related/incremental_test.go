package related

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/store/storetest"
)

// TestRankFrom: after random edits of a few docs (their text, title,
// date, number, links), ranking from the last State gives Rank's result
// and the State a ranking from scratch gives, while ranking again fewer
// docs than all; a ranking with other docs or another k ranks them all.
func TestRankFrom(t *testing.T) {
	docs := Docs(storetest.RealisticCirculars(200, 1), plain)
	r := rand.New(rand.NewPCG(49, 1))
	words := []string{"payment", "aggregator", "escrow", "tokenisation", "zebra", "quokka", "settlement", "kyc", "fraud", "nodal"}
	edit := func(d Doc, i int) Doc {
		switch r.IntN(6) {
		case 0: // a word at the start of the text (the lead)
			d.Text = words[r.IntN(len(words))] + " " + d.Text
		case 1: // a word never seen before
			d.Text = fmt.Sprintf("neverseen%d ", r.IntN(1000)) + d.Text
		case 2:
			d.Title += " " + words[r.IntN(len(words))]
		case 3:
			d.Date = d.Date.Add(time.Duration(r.IntN(4000)) * time.Hour)
		case 4:
			d.Number = fmt.Sprintf("DPSS.CO.PD No.%d/02.14.00%d/2024-25", i, r.IntN(3))
		case 5:
			d.Linked = append(slices.Clone(d.Linked), r.IntN(len(docs)))
		}
		return d
	}
	_, last := rankFrom(t, docs, 5, nil)
	for round := range 10 {
		docs = slices.Clone(docs)
		for range 1 + r.IntN(3) {
			i := r.IntN(len(docs))
			docs[i] = edit(docs[i], i)
		}
		got, st := rankFrom(t, docs, 5, last)
		want, full := rankFrom(t, docs, 5, nil)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d: ranked from the last state (-full +incremental):\n%s", round, diff)
		}
		ranked := st.ranked
		full.ranked, st.ranked = 0, 0
		if !reflect.DeepEqual(full, st) {
			t.Fatalf("round %d: the state is not a full ranking's", round)
		}
		t.Logf("round %d: %d docs ranked again", round, ranked)
		last = writeAndRead(t, st) // as the generator keeps it between builds
	}
	t.Run("NewWord", func(t *testing.T) {
		// a word no other doc has moves no other doc's vector: the docs
		// ranked again are the edited one, those that read it and those
		// looking up one of its terms (at 200 docs, most of them: each
		// term's postings hold every doc but for the commonest)
		docs := slices.Clone(docs)
		docs[7].Title += " neverseenbefore"
		got, st := rankFrom(t, docs, 5, last)
		if st.ranked >= len(docs) {
			t.Errorf("ranked %d of %d docs again", st.ranked, len(docs))
		}
		if diff := cmp.Diff(Rank(docs, 5), got); diff != "" {
			t.Errorf("(-full +incremental):\n%s", diff)
		}
	})
	t.Run("Unchanged", func(t *testing.T) {
		if _, st := rankFrom(t, docs, 5, last); st.ranked != 0 {
			t.Errorf("ranked %d docs again, none changed", st.ranked)
		}
	})
	// the docs given by their LeadSum alone, as the generator gives those
	// whose texts it no longer holds
	t.Run("BySum", func(t *testing.T) {
		bySum := slices.Clone(docs)
		for i := range bySum {
			bySum[i].Text, bySum[i].LeadSum = "", LeadSum(bySum[i].Text)
		}
		if need := NeedText(bySum, last); len(need) != 0 {
			t.Errorf("NeedText = %v, with every doc's counts in the last state", need)
		}
		got, st := rankFrom(t, bySum, 5, last)
		if diff := cmp.Diff(Rank(docs, 5), got); diff != "" {
			t.Errorf("ranked by sums (-by texts +by sums):\n%s", diff)
		}
		if st.ranked != 0 {
			t.Errorf("ranked %d docs again, none changed", st.ranked)
		}
		// an edited title: its counts are not the last state's, and its
		// text is needed; given it, the ranking is Rank's
		edited := slices.Clone(docs)
		edited[3].Title += " escrow quokka"
		bySum[3].Title = edited[3].Title
		if need := NeedText(bySum, last); !slices.Equal(need, []int{3}) {
			t.Errorf("NeedText = %v after doc 3's title changed, want [3]", need)
		}
		if _, _, err := RankFrom(bySum, 5, last); err == nil || !strings.Contains(err.Error(), edited[3].ID) {
			t.Errorf("RankFrom without the text it needs: %v, want an error naming %s", err, edited[3].ID)
		}
		bySum[3].Text = edited[3].Text
		got, _ = rankFrom(t, bySum, 5, last)
		if diff := cmp.Diff(Rank(edited, 5), got); diff != "" {
			t.Errorf("(-by texts +by sums, one text given):\n%s", diff)
		}
		// with no last state every text is needed, but an empty one's
		bySum[5].LeadSum = LeadSum("")
		if need := NeedText(bySum, nil); len(need) != len(bySum)-2 || slices.Contains(need, 3) || slices.Contains(need, 5) {
			t.Errorf("NeedText with no last state = %d docs (%v), want all but 3 (its text given) and 5 (an empty text)", len(need), need)
		}
	})
	t.Run("OtherDocs", func(t *testing.T) {
		fewer := docs[1:]
		for i := range fewer {
			fewer[i].Linked = nil // (positions of docs)
		}
		got, st := rankFrom(t, fewer, 5, last)
		if st.ranked != len(fewer) {
			t.Errorf("ranked %d of %d docs after one was removed", st.ranked, len(fewer))
		}
		if diff := cmp.Diff(Rank(fewer, 5), got); diff != "" {
			t.Errorf("(-full +incremental):\n%s", diff)
		}
		if _, st := rankFrom(t, docs, 4, last); st.ranked != len(docs) {
			t.Errorf("ranked %d of %d docs for another k", st.ranked, len(docs))
		}
	})
}

// rankFrom is RankFrom, failing t on its error.
func rankFrom(t *testing.T, docs []Doc, k int, last *State) ([][]int, *State) {
	t.Helper()
	out, st, err := RankFrom(docs, k, last)
	if err != nil {
		t.Fatal(err)
	}
	return out, st
}

// writeAndRead is st written by WriteTo and read back by ReadState,
// checked to be st.
func writeAndRead(t *testing.T, st *State) *State {
	t.Helper()
	var b bytes.Buffer
	n, err := st.WriteTo(&b)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(b.Len()) {
		t.Errorf("WriteTo says %d bytes, wrote %d", n, b.Len())
	}
	got, err := ReadState(&b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, got, cmpopts.IgnoreUnexported(State{}), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("read back (-written +read):\n%s", diff)
	}
	return got
}

// TestReadState: a state read back is the state written, and appending
// to one doc's slice leaves the next doc's alone; a state cut short, of
// another version or with an absurd count is an error.
func TestReadState(t *testing.T) {
	_, st := rankFrom(t, Docs(storetest.RealisticCirculars(50, 2), plain), 5, nil)
	got := writeAndRead(t, st)
	next := slices.Clone(got.Terms[1])
	_ = append(got.Terms[0], -1)
	_ = append(got.Counts[0], -1)
	if !slices.Equal(got.Terms[1], next) || got.Counts[1][0] != st.Counts[1][0] {
		t.Error("appending to a doc's terms or counts wrote into the next doc's")
	}
	var b bytes.Buffer
	if _, err := st.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	whole := b.Bytes()
	for _, cut := range []int{0, 10, len(stateMagic) + 3, len(whole) / 2, len(whole) - 1} {
		if _, err := ReadState(bytes.NewReader(whole[:cut])); err == nil {
			t.Errorf("a state cut at %d of %d bytes: no error", cut, len(whole))
		}
	}
	other := slices.Clone(whole)
	other[len(stateMagic)-1]++
	if _, err := ReadState(bytes.NewReader(other)); err == nil {
		t.Error("another version: no error")
	}
	huge := append([]byte(stateMagic), binary.AppendUvarint(nil, 5)...)
	huge = binary.AppendUvarint(huge, 1<<40)
	if _, err := ReadState(bytes.NewReader(huge)); err == nil {
		t.Error("a count of 2^40 docs: no error")
	}
	// a file whose bytes were damaged: each index out of range
	for _, damage := range []func(*State){
		func(s *State) { s.Posts = s.Posts[1:] },
		func(s *State) { s.Terms[3] = []int32{int32(len(s.Vocab))}; s.Counts[3] = []float32{1} },
		func(s *State) { s.Read[4] = []int32{-1} },
		func(s *State) { s.Out[5] = []int32{int32(len(s.IDs))} },
	} {
		d := writeAndRead(t, st)
		damage(d)
		var b bytes.Buffer
		if _, err := d.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadState(&b); err == nil {
			t.Error("a state with an index out of range read without an error")
		}
	}
	bad := *st
	bad.Counts = bad.Counts[1:]
	if _, err := bad.WriteTo(io.Discard); err == nil {
		t.Error("a state with a list short of a doc written without an error")
	}
}
