package generator

import (
	"compress/gzip"
	"encoding/json"
	"errors"

	"regpulse/internal/catalog"
)

// FallbackIndexPath is the compact index /search reads when the API does
// not answer (a static host without it, an outage): each circular's
// number, title, regulator, category, date and slug, nothing else.
const FallbackIndexPath = "search-index.json"

// FallbackIndexMaxGzip caps the index: beyond 1 MB gzipped (near 20,000
// circulars) it is not written, and /search says that searching needs the
// live service and points to the lists by regulator and category.
const FallbackIndexMaxGzip = 1 << 20

// fallbackIndex is the index's JSON: the field names once, then one
// array per circular (newest first), with the regulators and categories
// as positions in their own arrays; nil when it would pass
// FallbackIndexMaxGzip.
func fallbackIndex(cat *catalog.Catalog) ([]byte, error) {
	type index struct {
		Fields     []string `json:"fields"`
		Sources    []string `json:"sources"`
		Categories []string `json:"categories"`
		Rows       [][]any  `json:"rows"`
	}
	pos := func(list []string) map[string]int {
		m := map[string]int{}
		for i, s := range list {
			m[s] = i
		}
		return m
	}
	src, cats := pos(catalog.Sources), pos(catalog.CircularCategories)
	x := index{Fields: []string{"slug", "circularNumber", "title", "source", "category", "publishedDate"},
		Sources: catalog.Sources, Categories: catalog.CircularCategories, Rows: make([][]any, len(cat.Circulars))}
	for i, c := range cat.Circulars {
		x.Rows[i] = []any{c.Slug, string(c.CircularNumber), c.Title, src[c.Source], cats[c.Category], c.PublishedDate.String()}
	}
	return jsonWithin(x, FallbackIndexMaxGzip)
}

// jsonWithin is v as JSON, or nil when that JSON gzipped (as a server
// would send it) passes maxGzip bytes: the files the browser loads whole.
// The compression stops once its output has passed maxGzip: at 100,000
// circulars the search index is many times that, and compressing it
// whole at the best level was half a second of every build.
func jsonWithin(v any, maxGzip int) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := &cappedCount{max: maxGzip}
	w, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	_, err = w.Write(data)
	if err == nil {
		err = w.Close()
	}
	switch {
	case errors.Is(err, errPastCap):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return data, nil
}

// errPastCap stops a compression whose output passed its cap.
var errPastCap = errors.New("past the cap")

// cappedCount counts what is written to it, failing once that passes max.
type cappedCount struct{ n, max int }

func (c *cappedCount) Write(p []byte) (int, error) {
	c.n += len(p)
	if c.n > c.max {
		return 0, errPastCap
	}
	return len(p), nil
}
