package generator

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"regpulse/internal/catalog"
)

// TestJSONWithin: the JSON is kept exactly when it gzips to the cap or
// less, whether the compression's output passes the cap while the JSON
// is written or only when it is closed.
func TestJSONWithin(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 6))
	for _, n := range []int{0, 1, 10, 1000, 50000} {
		rows := make([]string, n)
		for i := range rows {
			rows[i] = fmt.Sprintf("row %d %x", i, r.Uint64())
		}
		data, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		size := gzippedSize(data)
		for _, c := range []struct {
			max  int
			kept bool
		}{{size, true}, {size + 1, true}, {size - 1, false}, {size / 2, false}, {0, false}} {
			got, err := jsonWithin(rows, c.max)
			if err != nil {
				t.Fatal(err)
			}
			if kept := got != nil; kept != c.kept || (kept && !bytes.Equal(got, data)) {
				t.Errorf("%d rows (%d bytes gzipped), cap %d: kept %v, want %v", n, size, c.max, kept, c.kept)
			}
		}
	}
}

// TestFallbackIndex: the index, encoded row by row, is json.Marshal's of
// the whole of it, kept exactly when it gzips to the cap or less.
func TestFallbackIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	for _, n := range []int{0, 1, 3000} {
		cat := &catalog.Catalog{Circulars: make([]catalog.Circular, n)}
		rows := make([][]any, n)
		for i := range cat.Circulars {
			c := &cat.Circulars[i]
			c.Slug, c.CircularNumber = fmt.Sprintf("bench-%06d", i), catalog.OptString(fmt.Sprintf("RBI/%x <&>", r.Uint32()))
			c.Title = fmt.Sprintf("Circular %d on \"payments\" %x", i, r.Uint64())
			c.Source, c.Category = catalog.Sources[i%len(catalog.Sources)], catalog.CircularCategories[i%len(catalog.CircularCategories)]
			c.PublishedDate = catalog.Date{Time: time.Date(2020, 1, 1+i%300, 0, 0, 0, 0, time.UTC)}
			rows[i] = []any{c.Slug, string(c.CircularNumber), c.Title, i % len(catalog.Sources), i % len(catalog.CircularCategories), c.PublishedDate.String()}
		}
		want, err := json.Marshal(struct {
			Fields     []string `json:"fields"`
			Sources    []string `json:"sources"`
			Categories []string `json:"categories"`
			Rows       [][]any  `json:"rows"`
		}{[]string{"slug", "circularNumber", "title", "source", "category", "publishedDate"}, catalog.Sources, catalog.CircularCategories, rows})
		if err != nil {
			t.Fatal(err)
		}
		size := gzippedSize(want)
		for _, c := range []struct {
			max  int
			kept bool
		}{{1 << 30, true}, {size, true}, {size - 1, false}, {size / 4, false}} {
			got, err := fallbackIndexWithin(cat, c.max)
			if err != nil {
				t.Fatal(err)
			}
			if kept := got != nil; kept != c.kept || (kept && !bytes.Equal(got, want)) {
				t.Errorf("%d circulars (%d bytes gzipped), cap %d: kept %v (same bytes: %v), want %v", n, size, c.max, kept, bytes.Equal(got, want), c.kept)
			}
		}
	}
}

// gzippedSize is data's size gzipped at the level jsonWithin compresses at.
func gzippedSize(data []byte) int {
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(data)
	w.Close()
	return gz.Len()
}
