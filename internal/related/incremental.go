package related

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"sync"
)

// State is a ranking with what it was made from, for the next ranking
// of mostly the same docs (RankFrom): each doc's counts, so that only
// the docs whose words changed are tokenised again, and what each doc's
// ranking read, so that only the docs whose ranking can have changed
// are ranked again. Its fields are exported for encoding only (gob).
type State struct {
	K   int      // the ranking's k
	IDs []string // each doc's ID, by position
	// Inputs are each doc's title, summary and text, hashed: what its
	// counts are made of.
	Inputs [][sha256.Size]byte
	Vocab  []string // the terms, by id
	// Terms and Counts are each doc's term ids (of Vocab) and counts, in
	// the order vectors made them (by the terms' keys).
	Terms  [][]int32
	Counts [][]float32
	// Vectors, Meta and Series hash each doc's weighted vector, its date,
	// number series and links, and its number series' docs; Posts each
	// term's postings (by Vocab id).
	Vectors, Meta, Series []uint64
	Posts                 []uint64
	// Read are the docs each doc's ranking read (rankOne); Out the
	// ranking.
	Read [][]int32
	Out  [][]int32

	ranked int // how many docs this ranking ranked (the others were last's)
}

// RankFrom is Rank, taking from last (the State of an earlier ranking;
// nil: none) what did not change: a doc whose title, summary and lead
// are the same is not tokenised again, and, when the docs are the same
// ones in the same places, a doc is ranked again only if its vector,
// date, number or links changed, a term it looks up has other postings,
// or a doc its ranking read changed. Every other input of rankOne being
// the same, its ranking is the same: the result is Rank's, bit for bit
// (TestRankFrom). It returns the State of this ranking.
//
// A doc given by its LeadSum alone must have its counts in last: the
// docs NeedText names are given their texts first, else RankFrom fails.
func RankFrom(docs []Doc, k int, last *State) ([][]int, *State, error) {
	n := len(docs)
	st := &State{K: k, IDs: make([]string, n)}
	for i, d := range docs {
		st.IDs[i] = d.ID
	}
	st.Inputs = inputSums(docs)
	if need := st.needText(docs, last); len(need) > 0 {
		return nil, nil, fmt.Errorf("related: %d docs are given without their texts and were not ranked before (first %s): NeedText names them", len(need), docs[need[0]].ID)
	}
	// the docs' series keys beside their vectors (a pattern matched on
	// each number: 0.12 s at 100,000 docs)
	keys := make([]string, n)
	var keyed sync.WaitGroup
	keyed.Go(func() {
		for i, d := range docs {
			keys[i] = seriesKey(d.Number)
		}
	})
	vecs, df := st.vectors(docs, last)
	idf := make([]float32, len(df))
	for t, d := range df {
		idf[t] = float32(math.Log(1 + float64(n)/float64(d)))
	}
	for i := range vecs {
		normalise(vecs[i], idf)
	}
	post := postings(vecs, len(df))
	keyed.Wait()
	series := seriesIndex(keys)
	st.hash(docs, keys, vecs, post, series)

	redo := make([]bool, n)
	same := last != nil && last.K == k && slices.Equal(last.IDs, st.IDs) && len(last.Out) == n
	if same {
		changed := make([]bool, n)
		for i := range n {
			changed[i] = st.Vectors[i] != last.Vectors[i] || st.Meta[i] != last.Meta[i] || st.Series[i] != last.Series[i]
		}
		lastID := st.lastIDs(last)
		moved := make([]bool, len(st.Posts)) // terms whose postings changed
		for t, h := range st.Posts {
			moved[t] = lastID[t] < 0 || last.Posts[lastID[t]] != h
		}
		isMoved := func(t term) bool { return moved[t.id] }
		for i := range n {
			// (its query is among its terms: only a doc with a moved term
			// is sorted for its query, some 0.4 s at 100,000 docs)
			redo[i] = changed[i] || slices.ContainsFunc(vecs[i], isMoved) && slices.ContainsFunc(queryOf(vecs[i]), isMoved) ||
				slices.ContainsFunc(last.Read[i], func(j int32) bool { return changed[j] })
		}
	} else {
		for i := range redo {
			redo[i] = true
		}
	}

	for _, r := range redo {
		if r {
			st.ranked++
		}
	}
	out := make([][]int, n)
	st.Read, st.Out = make([][]int32, n), make([][]int32, n)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			s := scratch{acc: make([]float32, n), seen: make([]int32, n), dense: make([]float32, len(df))}
			for i := w; i < n; i += workers {
				if !redo[i] {
					st.Read[i], st.Out[i] = last.Read[i], last.Out[i]
					out[i] = make([]int, len(last.Out[i]))
					for x, j := range last.Out[i] {
						out[i][x] = int(j)
					}
					continue
				}
				out[i], st.Read[i] = s.rankOne(i, docs, keys, vecs, post, series, k)
				st.Out[i] = make([]int32, len(out[i]))
				for x, j := range out[i] {
					st.Out[i][x] = int32(j)
				}
			}
		})
	}
	wg.Wait()
	return out, st, nil
}

// NeedText are the positions of the docs given without their texts
// (their LeadSum alone) whose counts last does not have: RankFrom needs
// their texts.
func NeedText(docs []Doc, last *State) []int {
	st := &State{Inputs: inputSums(docs)}
	return st.needText(docs, last)
}

// needText is NeedText with st's Inputs made.
func (st *State) needText(docs []Doc, last *State) []int {
	var lastPos map[string]int
	var need []int
	for i, d := range docs {
		if d.textGiven() {
			continue
		}
		if lastPos == nil && last != nil {
			lastPos = make(map[string]int, len(last.IDs))
			for p, id := range last.IDs {
				lastPos[id] = p
			}
		}
		if p, ok := lastPos[d.ID]; !ok || last.Inputs[p] != st.Inputs[i] {
			need = append(need, i)
		}
	}
	return need
}

// queryOf is the terms of a doc's vector that rankOne looks up: its
// queryTerms heaviest.
func queryOf(v []term) []term {
	q := slices.Clone(v)
	slices.SortFunc(q, func(a, b term) int { return cmp.Compare(b.w, a.w) })
	return q[:min(len(q), queryTerms)]
}

// inputSums hash each doc's title, summary and LeadSum: what
// termCounts reads.
func inputSums(docs []Doc) [][sha256.Size]byte {
	out := make([][sha256.Size]byte, len(docs))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			// one hash and one buffer a worker: at 100,000 docs a copy of
			// each text to hash it was some 300 MB for the collector
			h := sha256.New()
			var buf []byte
			for i := w; i < len(docs); i += workers {
				h.Reset()
				buf = buf[:0]
				for _, s := range []string{docs[i].Title, docs[i].Summary} {
					buf = binary.LittleEndian.AppendUint64(buf, uint64(len(s)))
					buf = append(buf, s...)
				}
				lead := docs[i].LeadSum
				if lead == ([sha256.Size]byte{}) {
					lead = LeadSum(docs[i].Text)
				}
				buf = append(buf, lead[:]...)
				h.Write(buf)
				h.Sum(out[i][:0])
			}
		})
	}
	wg.Wait()
	return out
}

// vectors are the docs' term counts (weighted by field), each sorted by
// term id, and each term's document frequency; the ids are given in the
// order the terms first appear, each doc's in its keys' order, so that
// they do not depend on scheduling or on last. A doc whose inputs are
// last's is not tokenised: its counts are last's. It sets st's Vocab,
// Terms and Counts.
func (st *State) vectors(docs []Doc, last *State) ([][]term, []int32) {
	var lastPos map[string]int
	var lastVocab map[string]int32
	var lastToNew []int32
	if last != nil {
		lastPos = make(map[string]int, len(last.IDs))
		for i, id := range last.IDs {
			lastPos[id] = i
		}
		lastVocab = make(map[string]int32, len(last.Vocab))
		lastToNew = make([]int32, len(last.Vocab))
		for t, v := range last.Vocab {
			lastVocab[v] = int32(t)
			lastToNew[t] = -1
		}
	}
	// cached is, for each doc, its position in last when its counts are
	// last's
	cached := func(i int) (int, bool) {
		p, ok := lastPos[docs[i].ID]
		return p, ok && last.Inputs[p] == st.Inputs[i]
	}
	newVocab := map[string]int32{} // the terms not in last's vocabulary
	var df []int32
	id := func(key string, lastID int32) int32 {
		if lastID < 0 {
			if l, ok := lastVocab[key]; ok {
				lastID = l
			}
		}
		if lastID >= 0 {
			if lastToNew[lastID] < 0 {
				lastToNew[lastID] = int32(len(df))
				st.Vocab = append(st.Vocab, last.Vocab[lastID])
				df = append(df, 0)
			}
			return lastToNew[lastID]
		}
		t, ok := newVocab[key]
		if !ok {
			t = int32(len(df))
			newVocab[key] = t
			st.Vocab = append(st.Vocab, key)
			df = append(df, 0)
		}
		return t
	}
	vecs := make([][]term, len(docs))
	st.Terms, st.Counts = make([][]int32, len(docs)), make([][]float32, len(docs))
	// Tokenising is most of the work: on every core, then the vocabulary
	// in order so ids do not depend on scheduling. In batches: a doc's
	// counts are a map of some hundred words, and 100,000 of them at once
	// were over a gigabyte.
	workers := runtime.GOMAXPROCS(0)
	counts := make([]map[string]float32, min(len(docs), vectorBatch))
	for lo := 0; lo < len(docs); lo += vectorBatch {
		batch := docs[lo:min(lo+vectorBatch, len(docs))]
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(batch); i += workers {
					if _, ok := cached(lo + i); !ok {
						counts[i] = termCounts(batch[i])
					}
				}
			})
		}
		wg.Wait()
		for i := range batch {
			var ids []int32
			var cs []float32
			if p, ok := cached(lo + i); ok {
				ids, cs = make([]int32, len(last.Terms[p])), last.Counts[p]
				for x, l := range last.Terms[p] {
					ids[x] = id("", l)
				}
			} else {
				c := counts[i]
				keys := make([]string, 0, len(c))
				for k := range c {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				ids, cs = make([]int32, len(keys)), make([]float32, len(keys))
				for x, k := range keys {
					ids[x], cs[x] = id(k, -1), c[k]
				}
				counts[i] = nil
			}
			v := make([]term, len(ids))
			for x, t := range ids {
				df[t]++
				v[x] = term{t, cs[x]}
			}
			slices.SortFunc(v, func(a, b term) int { return cmp.Compare(a.id, b.id) })
			vecs[lo+i], st.Terms[lo+i], st.Counts[lo+i] = v, ids, cs
		}
	}
	return vecs, df
}

// lastIDs maps each of st's term ids to last's (-1: a new term).
func (st *State) lastIDs(last *State) []int32 {
	index := make(map[string]int32, len(last.Vocab))
	for t, v := range last.Vocab {
		index[v] = int32(t)
	}
	out := make([]int32, len(st.Vocab))
	for t, v := range st.Vocab {
		l, ok := index[v]
		if !ok {
			l = -1
		}
		out[t] = l
	}
	return out
}

// hash sets st's Vectors, Meta, Series and Posts: each term by its key,
// each doc by its position, so that they compare across rankings of
// the same docs whatever ids the terms got.
func (st *State) hash(docs []Doc, keys []string, vecs [][]term, post [][]posting, series map[string][]int) {
	termSums := make([]uint64, len(st.Vocab))
	for t, v := range st.Vocab {
		h := fnv.New64a()
		h.Write([]byte(v))
		termSums[t] = h.Sum64()
	}
	// the postings' sums beside the docs'
	var wg sync.WaitGroup
	st.Posts = make([]uint64, len(post))
	wg.Go(func() {
		for t, p := range post {
			h := fnvOffset
			for _, e := range p {
				h = mix(mix(h, uint64(e.doc)), uint64(math.Float32bits(e.w)))
			}
			st.Posts[t] = h
		}
	})
	n := len(docs)
	st.Vectors, st.Meta, st.Series = make([]uint64, n), make([]uint64, n), make([]uint64, n)
	seriesSums := map[string]uint64{}
	for k, docs := range series {
		seriesSums[k] = sumInts(0, docs...)
	}
	for i, v := range vecs {
		h := fnvOffset
		for _, t := range v {
			h = mix(mix(h, termSums[t.id]), uint64(math.Float32bits(t.w)))
		}
		st.Vectors[i] = h
		kh := fnv.New64a()
		kh.Write([]byte(keys[i]))
		st.Meta[i] = sumInts(mix(mix(fnvOffset, kh.Sum64()), uint64(docs[i].Date.UnixNano())), docs[i].Linked...)
		st.Series[i] = seriesSums[keys[i]]
	}
	wg.Wait()
}

const fnvOffset uint64 = 14695981039346656037

// mix adds v to the hash h (FNV-1a over v's bytes).
func mix(h, v uint64) uint64 {
	for range 8 {
		h ^= v & 0xff
		h *= 1099511628211
		v >>= 8
	}
	return h
}

func sumInts(h uint64, vs ...int) uint64 {
	h = mix(h, uint64(len(vs)))
	for _, v := range vs {
		h = mix(h, uint64(v))
	}
	return h
}
