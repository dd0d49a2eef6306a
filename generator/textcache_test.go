package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regpulse/generator/render"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// settle waits until files written now are old enough for the record to
// trust their stamps (render.recentCutoff): only then is a circular's
// text cached, and found again.
func settle() { time.Sleep(2100 * time.Millisecond) }

// TestTextCache: a build keeps every circular's text in the cache beside
// its output; a cache of another program, or unreadable, is not read.
func TestTextCache(t *testing.T) {
	content := withObligations(t)
	settle()
	out := filepath.Join(t.TempDir(), "public")
	opts := Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out,
		BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test", Now: func() time.Time { return fixtureNow },
	}
	res, err := Build(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	cache := readTextCache(out)
	if n := len(res.Catalog.Circulars); n == 0 || len(cache.last) != n {
		t.Fatalf("the cache holds %d texts for %d circulars", len(cache.last), n)
	}
	t.Run("OtherProgram", func(t *testing.T) {
		if err := os.WriteFile(cachePath(out, textCacheName), []byte("not a cache"), 0o644); err != nil {
			t.Fatal(err)
		}
		if c := readTextCache(out); len(c.last) != 0 {
			t.Errorf("an unreadable cache gave %d texts", len(c.last))
		}
		var buf bytes.Buffer
		enc := gob.NewEncoder(&buf) // as render's map files begin (a base's head), by another program
		if err := enc.Encode(struct {
			Program string
			ID      [16]byte
			Len     int
		}{Program: "another", ID: [16]byte{1}, Len: 1}); err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(struct {
			K string
			V cachedText
		}{K: "k", V: cachedText{Start: "stale"}}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cachePath(out, textCacheName), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if c := readTextCache(out); len(c.last) != 0 {
			t.Errorf("another program's cache gave %d texts", len(c.last))
		}
	})
}

// TestRenderTexts_Cache: renderTexts takes from the cache only the
// circulars whose file and obligations are the cached ones, and gives
// the results a render without the cache gives; fillTexts writes the
// page texts it did not render.
func TestRenderTexts_Cache(t *testing.T) {
	const src = "Banks must report frauds within seven days."
	cs := []catalog.Circular{
		{Entry: catalog.Entry{Slug: "a", Path: "content/circulars/a.md"}, Content: "Payment aggregators must keep funds in escrow.\n\n" + src},
		{Entry: catalog.Entry{Slug: "b", Path: "content/circulars/b.md"}, Content: "Card issuers shall *tokenise* cards.",
			Obligations: []catalog.Obligation{{ID: "o1", What: "Report frauds.", Kind: "reporting", SourceText: src}}},
		// (a lead longer than what previews read: the cache keeps its start)
		{Entry: catalog.Entry{Slug: "c", Path: "content/circulars/c.md"}, Content: "Unchanged: " + src + "\n\n" +
			strings.Repeat("Each bank shall keep a record of every report it files. ", 10)},
	}
	// the record's hash of each file: here of its text alone
	sum := func(c catalog.Circular) ([sha256.Size]byte, bool) { return sha256.Sum256([]byte(c.Content)), true }
	pack := func(t *testing.T) *render.Pack {
		p, err := render.CreatePack(filepath.Join(t.TempDir(), "texts.pack"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	// run renders cs with the cache last left (nil: none), and returns
	// what it made, the cache it leaves and its pack
	run := func(t *testing.T, cs []catalog.Circular, last *textCache) (texts, *textCache, *render.Pack) {
		t.Helper()
		tc := &textCache{last: map[string]cachedText{}, next: map[string]cachedText{}}
		if last != nil {
			tc.last = last.next
		}
		o := textsOpts{pack: pack(t), cache: tc, sum: sum}
		txt, err := renderTexts(t.Context(), cs, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := fillTexts(t.Context(), cs, txt, o, func(string) bool { return true }, t.TempDir()); err != nil {
			t.Fatal(err)
		}
		return txt, tc, o.pack
	}
	want := func(t *testing.T, cs []catalog.Circular, got texts, p *render.Pack) {
		t.Helper()
		fresh, err := renderTexts(t.Context(), cs, textsOpts{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			w, g := fresh[c.Slug], got[c.Slug]
			// (a text from the cache keeps of its lead the start its
			// previews read, and the lead's hash)
			plain := w.Plain
			if g.startOnly {
				plain = catalog.PreviewStart(w.Plain)
			}
			if g.Plain != plain || g.LeadSum != w.LeadSum || g.MarkedSum != w.MarkedSum || !cmp.Equal(g.Obligations, w.Obligations) ||
				g.ObligationsSum != w.ObligationsSum {
				t.Errorf("%s: got %+v, rendered %+v", c.Slug, g, w)
			}
			if gp, wp := got.preview(c, catalog.CardPreviewLen), fresh.preview(c, catalog.CardPreviewLen); gp != wp {
				t.Errorf("%s: preview %q, rendered %q", c.Slug, gp, wp)
			}
			if text, err := p.Read(textName(c.Slug)); err != nil || string(text) != w.Marked {
				t.Errorf("%s: the pack holds %q (%v), want %q", c.Slug, text, err, w.Marked)
			}
		}
	}
	_, first, _ := run(t, cs, nil)
	if len(first.next) != len(cs) {
		t.Fatalf("the cache kept %d texts of %d", len(first.next), len(cs))
	}
	changed := slices.Clone(cs)
	changed[0].Content += " Amended."
	changed[1].Obligations = []catalog.Obligation{{ID: "o1", What: "Report frauds.", Kind: "prohibition", SourceText: src}}
	p, err := render.CreatePack(filepath.Join(t.TempDir(), "probe.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// (the unchanged circular is the cache's: not rendered into the pack)
	tc := &textCache{last: first.next, next: map[string]cachedText{}}
	if _, err := renderTexts(t.Context(), changed, textsOpts{pack: p, cache: tc, sum: sum}); err != nil {
		t.Fatal(err)
	}
	if p.Has(textName("c")) || !p.Has(textName("a")) || !p.Has(textName("b")) {
		t.Errorf("rendered a: %t, b: %t, c: %t; want the changed ones only", p.Has(textName("a")), p.Has(textName("b")), p.Has(textName("c")))
	}
	got, _, gotPack := run(t, changed, first)
	want(t, changed, got, gotPack)
	if c := got["c"]; !c.startOnly || utf8.RuneCountInString(c.Plain) != catalog.CardPreviewLen+1 {
		t.Errorf("c, from the cache: start only %t, %d characters of its lead; want its first %d", c.startOnly,
			utf8.RuneCountInString(c.Plain), catalog.CardPreviewLen+1)
	}

	t.Run("KeptHTML", func(t *testing.T) {
		// the feeds' circulars keep their HTML: cached with it, a hit
		// gives it without rendering; cached while its HTML was not
		// kept, the circular is rendered again
		fresh, err := renderTexts(t.Context(), cs, textsOpts{})
		if err != nil {
			t.Fatal(err)
		}
		keep := map[string]bool{"c": true}
		for _, tc := range []struct {
			name     string
			last     map[string]cachedText
			rendered bool
		}{
			{"cached without its HTML", first.next, true},
			{"cached with it", nil, false},
		} {
			last := tc.last
			if last == nil {
				// the last build kept c's HTML
				cache := &textCache{last: map[string]cachedText{}, next: map[string]cachedText{}}
				if _, err := renderTexts(t.Context(), cs, textsOpts{pack: pack(t), cache: cache, sum: sum, keepHTML: keep}); err != nil {
					t.Fatal(err)
				}
				last = cache.next
			}
			p := pack(t)
			got, err := renderTexts(t.Context(), cs, textsOpts{pack: p, cache: &textCache{last: last, next: map[string]cachedText{}}, sum: sum, keepHTML: keep})
			if err != nil {
				t.Fatal(err)
			}
			if got["c"].HTML != fresh["c"].HTML || got["c"].HTML == "" {
				t.Errorf("%s: c's HTML is %q, want %q", tc.name, got["c"].HTML, fresh["c"].HTML)
			}
			if p.Has(textName("c")) != tc.rendered {
				t.Errorf("%s: c rendered %t, want %t", tc.name, p.Has(textName("c")), tc.rendered)
			}
			if got["a"].HTML != "" {
				t.Errorf("%s: a's HTML kept, though not in keepHTML", tc.name)
			}
		}
	})

	t.Run("Extracted", func(t *testing.T) {
		// a's extracted obligations, from the store: cached by their
		// stamp, read only for the texts rendered, and a write after the
		// build read the stamps is shown, not a stale cache
		e := []catalog.Obligation{{ID: "e1", CircularID: "a", What: "Report frauds.", Kind: "reporting", SourceText: src, Origin: catalog.OriginExtracted}}
		store := newStoredObligations(map[string][]catalog.Obligation{"a": e, "b": e})
		cs := slices.Clone(cs)
		cs[0].ID, cs[1].ID = "a", "b"
		opts := func(t *testing.T, last map[string]cachedText) textsOpts {
			t.Helper()
			ex, err := readExtracted(t.Context(), Options{Obligations: store})
			if err != nil {
				t.Fatal(err)
			}
			return textsOpts{pack: pack(t), cache: &textCache{last: last, next: map[string]cachedText{}}, sum: sum, extracted: ex}
		}
		o := opts(t, map[string]cachedText{})
		first, err := renderTexts(t.Context(), cs, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := store.read(); !slices.Equal(got, []string{"a"}) {
			t.Errorf("read the obligations of %v; want a's (b has written ones)", got)
		}
		if v := first["a"].Obligations; len(v) != 1 || v[0].Origin != catalog.OriginExtracted || v[0].Anchor == "" {
			t.Errorf("a's views %+v; want its extracted one, marked", v)
		}
		if v := first["b"].Obligations; len(v) != 1 || v[0].ID != "o1" {
			t.Errorf("b's views %+v; want its written one", v)
		}

		// the same stamps: all from the cache, nothing read
		again := opts(t, o.cache.next)
		got, err := renderTexts(t.Context(), cs, again)
		if err != nil {
			t.Fatal(err)
		}
		if r := store.read(); len(r) != 0 || !got["a"].startOnly || got["a"].ObligationsSum != first["a"].ObligationsSum {
			t.Errorf("with the same stamps: read %v, a from the cache %t", r, got["a"].startOnly)
		}
		// written since the stamps were read: the page shows the new one
		store.set("a", []catalog.Obligation{{ID: "e2", CircularID: "a", What: "Report all frauds.", Kind: "reporting", SourceText: src, Origin: catalog.OriginExtracted}})
		if err := fillTexts(t.Context(), cs, got, again, func(slug string) bool { return slug == "a" }, t.TempDir()); err != nil {
			t.Fatalf("fillTexts after a write: %v", err)
		}
		if v := got["a"].Obligations; len(v) != 1 || v[0].ID != "e2" {
			t.Errorf("a's views after a write %+v; want the new one", v)
		}
		store.read()
		// the new stamp: a rendered again
		p := opts(t, again.cache.next)
		if _, err := renderTexts(t.Context(), cs, p); err != nil {
			t.Fatal(err)
		}
		if r := store.read(); !slices.Equal(r, []string{"a"}) || !p.pack.Has(textName("a")) || p.pack.Has(textName("c")) {
			t.Errorf("with a's new stamp: read %v, a rendered %t", r, p.pack.Has(textName("a")))
		}
	})

	t.Run("ChangedSinceLoaded", func(t *testing.T) {
		// a file changed between the load and its text's read: its results
		// are cached under the bytes read, never under the bytes loaded
		loaded, read := "Loaded text.", "Text changed since."
		d := []catalog.Circular{{Entry: catalog.Entry{Slug: "d", Path: "content/circulars/d.md"}}}
		tc := &textCache{last: map[string]cachedText{}, next: map[string]cachedText{}}
		o := textsOpts{pack: pack(t), cache: tc,
			sum: func(catalog.Circular) ([sha256.Size]byte, bool) { return sha256.Sum256([]byte(loaded)), true },
			read: func(catalog.Circular) (string, [sha256.Size]byte, error) {
				return read, sha256.Sum256([]byte(read)), nil
			}}
		if _, err := renderTexts(t.Context(), d, o); err != nil {
			t.Fatal(err)
		}
		for text, want := range map[string]bool{loaded: false, read: true} {
			key, err := textKey(sha256.Sum256([]byte(text)), d[0], "")
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := tc.next[key]; ok != want {
				t.Errorf("cached under the hash of %q: %t, want %t", text, ok, want)
			}
		}
	})
}

// TestCommitCaches: the caches a build staged land beside its output,
// replacing the last build's; a cache the build did not make leaves the
// last one in place.
func TestCommitCaches(t *testing.T) {
	dir := t.TempDir()
	staging, out := filepath.Join(dir, "work", "public"), filepath.Join(dir, "public")
	if err := os.MkdirAll(filepath.Dir(staging), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(cachePath(out, textCacheName), "last texts")
	write(cachePath(out, relatedCacheName), "last related")
	write(cachePath(staging, textCacheName), "new texts")
	if err := commitCaches(staging, out); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{cachePath(out, textCacheName): "new texts", cachePath(out, relatedCacheName): "last related"} {
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", path, got, err, want)
		}
	}
	if _, err := os.Stat(cachePath(staging, textCacheName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the staged cache is still there: %v", err)
	}
}
