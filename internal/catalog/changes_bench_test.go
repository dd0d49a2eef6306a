package catalog_test

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// BenchmarkCheckChanges is what the CMS pays per save: the real content
// plus REGPULSE_BENCH_CIRCULARS (10,000) generated circulars, one of
// them edited, loaded and checked whole.
func BenchmarkCheckChanges(b *testing.B) {
	n := storetest.BenchCirculars(b, 10000)
	dir := storetest.ContentWith(b, "../../content", n)
	fsys := os.DirFS(dir)
	entries, err := fs.ReadDir(fsys, "circulars")
	if err != nil {
		b.Fatal(err)
	}
	p := path.Join("circulars", entries[len(entries)/2].Name())
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		b.Fatal(err)
	}
	edited := []byte(strings.Replace(string(data), "\n---\n", "\n---\n\nEdited. ", 1))
	b.ReportMetric(float64(len(entries)), "circulars")
	b.ResetTimer()
	for b.Loop() {
		if err := catalog.CheckChanges(fsys, "content", map[string][]byte{p: edited}, storetest.Clock); err != nil {
			b.Fatal(err)
		}
	}
}
