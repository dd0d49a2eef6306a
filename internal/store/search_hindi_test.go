package store

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/pressly/goose/v3"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/search/index"
	"regpulse/internal/search/searchtest"
	"regpulse/internal/store/storetest"
)

// slugHindi is the project's made-up Hindi circular (a fixture, not a
// regulator's).
const slugHindi = "rbi-2025-06-30-fixture-hindi"

// hindiCatalog is storetest's catalog with a Hindi circular.
func hindiCatalog() *catalog.Catalog {
	cat := storetest.Catalog()
	c := storetest.Circular(slugHindi, "RBI", "Payment Systems", "2025-06-30", "low")
	c.Title = "भारतीय रिज़र्व बैंक परिपत्र (fixture)"
	c.Content = "सभी भुगतान प्रणाली परिचालक मासिक रिपोर्ट देंगे।"
	cat.Circulars = append(cat.Circulars, c)
	return cat
}

// TestSearch_Hindi: a Hindi circular is found by its words, each whole
// with its vowel signs, alone and as a phrase, and not by a fragment; a
// word of the terms list (बैंक, परिचालक) finds it first, then the English
// circulars its translation (bank, operator) finds.
func TestSearch_Hindi(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, hindiCatalog())
		for _, tt := range []struct {
			q    string
			want []string
		}{
			{"भारतीय", []string{slugHindi}},
			{"भारतीय रिज़र्व", []string{slugHindi}},
			{"रिज़र्व बैंक", []string{slugHindi}},
			{"परिचालक", []string{slugHindi}},
			{"रिजर्व", []string{slugHindi}}, // the nukta typed or not
			{"रत", nil}, // a fragment of भारतीय, which the old keys held
		} {
			r, err := db.Search(t.Context(), search.Query{Text: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			if got := slugsOrNil(r.Circulars); tt.want == nil && got != nil || !slices.Equal(got[:min(len(got), len(tt.want))], tt.want) {
				t.Errorf("search %q: %v, want %v first", tt.q, got, tt.want)
			}
		}
	})
}

// oldFragments is how the tokenizer before 00039 cut text: runs of
// letters, non-spacing marks or digits, so Devanagari's spacing vowel
// signs (Mc) cut a word (भारतीय was भ, रत, य).
func oldFragments(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) && !unicode.IsDigit(r)
	})
}

// TestMigration_SearchWholeWords: a store at 00038 whose Hindi circular
// was keyed in fragments holds whole-word keys and no fragment once
// migrated (00039) and synced, and an instance that had read the old
// index searches the new one.
func TestMigration_SearchWholeWords(t *testing.T) {
	t.Parallel()
	for _, kind := range sharedTargets() {
		t.Run(kind.name, func(t *testing.T) {
			ctx := t.Context()
			target := kind.target(t)
			cat := hindiCatalog()
			hindi, _ := circularBySlug(cat, slugHindi)
			reader := openAndClose(t, target, nil)
			old := openAndClose(t, target, nil)
			if _, err := old.SyncCatalog(ctx, cat); err != nil {
				t.Fatal(err)
			}
			// Back to 00038, with the Hindi circular's keys and words as
			// the tokenizer then made them.
			sub, err := fs.Sub(migrations, old.db.d.migrations)
			if err != nil {
				t.Fatal(err)
			}
			p, err := goose.NewProvider(old.db.d.goose, old.db.db, sub, goose.WithAllowOutofOrder(true))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.DownTo(ctx, 38); err != nil {
				t.Fatal(err)
			}
			// The later migrations again, 00039 aside: the store's reads
			// name their columns (00043's on circulars).
			for _, src := range p.ListSources() {
				if src.Version > 39 {
					if _, err := p.ApplyVersion(ctx, src.Version, true); err != nil {
						t.Fatal(err)
					}
				}
			}
			fragments := oldFragments(hindi.Title + " " + hindi.Content)
			var d search.Document
			for _, f := range fragments {
				if i := slices.Index(d.Keys, f); i >= 0 {
					d.Columns[search.ColumnTitle] = append(d.Columns[search.ColumnTitle], int32(i))
					continue
				}
				d.Columns[search.ColumnTitle] = append(d.Columns[search.ColumnTitle], int32(len(d.Keys)))
				d.Keys = append(d.Keys, f)
			}
			terms, err := index.Count(d).AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := old.db.ExecContext(ctx, q, args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if old.db.d.postgres {
				exec(`DELETE FROM search_words WHERE octet_length(word) <> char_length(word)`)
			} else {
				exec(`DELETE FROM search_words WHERE length(word) <> length(CAST(word AS BLOB))`)
			}
			exec(`UPDATE search_version SET version = version + 1`)
			exec(`UPDATE circular_terms SET terms = ?, version = (SELECT version FROM search_version)
WHERE rid = (SELECT c.rowid FROM circulars c WHERE c.id = ?)`, terms, hindi.ID)
			for _, f := range fragments {
				exec(`INSERT INTO search_words (word, key, version) VALUES (?, ?, (SELECT version FROM search_version)) ON CONFLICT (word) DO NOTHING`, f, f)
			}
			find := func(t *testing.T, q string) []string {
				t.Helper()
				r, err := reader.Search(ctx, search.Query{Text: q})
				if err != nil {
					t.Fatal(err)
				}
				return slugsOrNil(r.Circulars)
			}
			// The old keys: the whole word is not found, a fragment is.
			if got := find(t, "भारतीय"); got != nil {
				t.Fatalf("before 00039, भारतीय finds %v; the fixture's fragments did not take", got)
			}
			if got := find(t, "रत"); !slices.Equal(got, []string{slugHindi}) {
				t.Fatalf("before 00039, the fragment रत finds %v", got)
			}

			before, err := reader.storedSearchVersion(ctx)
			if err != nil {
				t.Fatal(err)
			}
			migrated := openAndClose(t, target, nil) // Open migrates
			if _, err := migrated.SyncCatalog(ctx, cat); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"भारतीय", "भारतीय रिज़र्व"} {
				if got := find(t, q); !slices.Equal(got, []string{slugHindi}) {
					t.Errorf("after 00039 and a sync, %q finds %v", q, got)
				}
			}
			if got := find(t, "रत"); got != nil {
				t.Errorf("after 00039 and a sync, the fragment रत finds %v", got)
			}
			// The words deleted are no stamped rows: the instance read its
			// index afresh, under the new generation.
			if gen := reader.search.cur.Load().generation; gen == before.generation {
				t.Errorf("the reader's index is still of generation %s, read before 00039", gen)
			}
			var stored []byte
			if err := migrated.db.QueryRowContext(ctx, `SELECT t.terms FROM circular_terms t
JOIN circulars c ON t.rid = c.rowid WHERE c.id = ?`, hindi.ID).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			var got index.Terms
			if err := got.UnmarshalBinary(stored); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"भारतीय", search.Key("रिज़र्व"), "बैंक", "परिपत्र"} {
				if !slices.Contains(got.Keys, k) {
					t.Errorf("stored keys %q lack %q", got.Keys, k)
				}
			}
			rows, err := migrated.db.QueryContext(ctx, `SELECT word FROM search_words`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var words []string
			for rows.Next() {
				var w string
				if err := rows.Scan(&w); err != nil {
					t.Fatal(err)
				}
				words = append(words, w)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"भ", "रत", "य", "ब", "क"} {
				if slices.Contains(got.Keys, f) {
					t.Errorf("stored keys still hold the fragment %q: %q", f, got.Keys)
				}
				if slices.Contains(words, f) {
					t.Errorf("search_words still holds the fragment %q", f)
				}
			}
			if !slices.Contains(words, "भारतीय") {
				t.Errorf("search_words lacks भारतीय: %q", words)
			}
		})
	}
}

// hindiCase is a Hindi, Hinglish or mixed query, its English equivalent
// and the circulars a professional would accept first.
type hindiCase struct {
	query, english string
	want           []string
}

// readHindiRelevance reads testdata/relevance_hindi.txt: "query | English | slug, slug".
func readHindiRelevance(t *testing.T) []hindiCase {
	t.Helper()
	var out []hindiCase
	for _, c := range readCases(t, "relevance_hindi.txt", "query", "English", "slugs") {
		out = append(out, hindiCase{query: c[0], english: c[1], want: slugList(c[2])})
	}
	return out
}

// TestSearch_RelevanceHindi runs the Hindi query set over the real
// content on both stores: a Hindi, Hinglish or mixed query (translated
// through internal/search's terms list) must find an accepted circular
// in its first three for 90% of the set, and so must its English
// equivalent; and 90% must find the same first three as it.
func TestSearch_RelevanceHindi(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cat, err := catalog.Load("../../content")
		if err != nil {
			t.Fatal(err)
		}
		db := openSynced(t, open, cat)
		cases := readHindiRelevance(t)
		if len(cases) < 30 {
			t.Fatalf("%d queries; the set needs at least 30", len(cases))
		}
		first3 := func(q string) []string {
			t.Helper()
			r, err := db.Search(t.Context(), search.Query{Text: q})
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			got := slugsOf(r.Circulars)
			return got[:min(len(got), 3)]
		}
		top3 := func(q string, got, want []string) bool {
			t.Helper()
			if slices.ContainsFunc(got, func(s string) bool { return slices.Contains(want, s) }) {
				return true
			}
			t.Logf("miss: %q: got %v", q, got)
			return false
		}
		var hindi, english, same float64
		for _, c := range cases {
			for _, slug := range c.want {
				if _, ok := circularBySlug(cat, slug); !ok {
					t.Fatalf("%q: no circular %s in content/", c.query, slug)
				}
			}
			h, e := first3(c.query), first3(c.english)
			if top3(c.query, h, c.want) {
				hindi++
			}
			if top3(c.english, e, c.want) {
				english++
			}
			if slices.Equal(h, e) {
				same++
			} else {
				t.Logf("%q finds %v, %q %v", c.query, h, c.english, e)
			}
		}
		n := float64(len(cases))
		t.Logf("%d queries: top-3 %.1f%% in Hindi, %.1f%% in English; the same first three %.1f%%",
			len(cases), 100*hindi/n, 100*english/n, 100*same/n)
		if hindi/n < 0.9 || english/n < 0.9 || same/n < 0.9 {
			t.Errorf("top-3 %.1f%% in Hindi, %.1f%% in English, the same first three %.1f%%; want 90%% or more of each",
				100*hindi/n, 100*english/n, 100*same/n)
		}
	})
}

// TestSearch_QuestionsHindi asks Hindi, Hinglish and mixed questions
// (../search/testdata/questions_hindi.txt, each a question of
// questions.txt in Hindi) over the real content on both stores: each
// must be read as asking its kind of fact, and 80% answered with the
// fact, citing a circular that states it.
func TestSearch_QuestionsHindi(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cat, err := catalog.Load("../../content")
		if err != nil {
			t.Fatal(err)
		}
		db := openSynced(t, open, cat)
		qs, err := searchtest.ReadQuestions("../search/testdata/questions_hindi.txt")
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) < 10 {
			t.Fatalf("%d questions; the set needs at least 10", len(qs))
		}
		answered := 0
		for _, q := range qs {
			r, err := db.Search(t.Context(), search.Query{Text: q.Text})
			if err != nil {
				t.Fatalf("%q: %v", q.Text, err)
			}
			if got := string(r.Answer.AnswerType); got != q.Type {
				t.Errorf("line %d: %q read as asking for %q, want %q", q.Line, q.Text, got, q.Type)
			}
			if o := searchtest.Judge(q, r.Answer); o == searchtest.Answered {
				answered++
			} else {
				t.Logf("line %d: %q %s: %q", q.Line, q.Text, o, r.Answer.DirectAnswer)
			}
		}
		t.Logf("%d Hindi questions: %d answered with their fact", len(qs), answered)
		if answered*10 < len(qs)*8 {
			t.Errorf("%d of %d Hindi questions answered with their fact; want 80%%", answered, len(qs))
		}
	})
}
