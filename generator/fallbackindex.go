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
	return fallbackIndexWithin(cat, FallbackIndexMaxGzip)
}

// fallbackIndexWithin is fallbackIndex with the cap max. The rows are
// encoded and compressed one after another, and no further once the
// compressed output has passed max: at 100,000 circulars the index is
// five times the cap, and encoding it whole, to drop it, was 0.4 s of
// every build. The JSON is json.Marshal's of the whole index.
func fallbackIndexWithin(cat *catalog.Catalog, max int) ([]byte, error) {
	type index struct {
		Fields     []string `json:"fields"`
		Sources    []string `json:"sources"`
		Categories []string `json:"categories"`
		// then "rows": one array per circular
	}
	pos := func(list []string) map[string]int {
		m := map[string]int{}
		for i, s := range list {
			m[s] = i
		}
		return m
	}
	src, cats := pos(catalog.Sources), pos(catalog.CircularCategories)
	head, err := json.Marshal(index{Fields: []string{"slug", "circularNumber", "title", "source", "category", "publishedDate"},
		Sources: catalog.Sources, Categories: catalog.CircularCategories})
	if err != nil {
		return nil, err
	}
	w := newCappedJSON(max)
	w.write(append(head[:len(head)-1:len(head)-1], `,"rows":[`...))
	for i, c := range cat.Circulars {
		row, err := json.Marshal([]any{c.Slug, string(c.CircularNumber), c.Title, src[c.Source], cats[c.Category], c.PublishedDate.String()})
		if err != nil {
			return nil, err
		}
		if i > 0 {
			row = append([]byte{','}, row...)
		}
		if !w.write(row) {
			return nil, nil
		}
	}
	w.write([]byte("]}"))
	return w.close()
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
	w := newCappedJSON(maxGzip)
	w.write(data)
	return w.close()
}

// cappedJSON takes JSON written in parts and compresses it as it comes,
// as a server would send it, until the compressed output passes a cap.
type cappedJSON struct {
	data []byte
	fed  int // how much of data the compression has taken
	gz   *gzip.Writer
	past bool // the output passed the cap
}

func newCappedJSON(max int) *cappedJSON {
	gz, _ := gzip.NewWriterLevel(&cappedCount{max: max}, gzip.BestCompression)
	return &cappedJSON{gz: gz}
}

// write adds p; false once the compressed output has passed the cap.
func (w *cappedJSON) write(p []byte) bool {
	if w.past {
		return false
	}
	w.data = append(w.data, p...)
	if len(w.data)-w.fed >= 64<<10 { // (compressed some 64 KB at a time)
		w.feed()
	}
	return !w.past
}

// feed compresses what was written since the last feed.
func (w *cappedJSON) feed() {
	if _, err := w.gz.Write(w.data[w.fed:]); err != nil { // (only errPastCap)
		w.past = true
	}
	w.fed = len(w.data)
}

// close is the JSON written, or nil when compressed it passes the cap.
func (w *cappedJSON) close() ([]byte, error) {
	if !w.past {
		w.feed()
	}
	if w.past || w.gz.Close() != nil {
		return nil, nil
	}
	return w.data, nil
}

// cappedCount counts what is written to it, failing once that passes max.
type cappedCount struct{ n, max int }

func (c *cappedCount) Write(p []byte) (int, error) {
	c.n += len(p)
	if c.n > c.max {
		return 0, errPastCap
	}
	return len(p), nil
}

// errPastCap stops a compression whose output passed its cap.
var errPastCap = errors.New("past the cap")
