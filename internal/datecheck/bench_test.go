package datecheck

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// BenchmarkCheck checks the portal's content plus generated circulars
// ($REGPULSE_BENCH_CIRCULARS, else 10,000): what make check-content adds
// to loading the catalog, which it measures apart (BenchmarkLoad).
func BenchmarkCheck(b *testing.B) {
	dir := storetest.ContentWith(b, "../../content", storetest.BenchCirculars(b, 10_000))
	cat, err := catalog.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	files := os.DirFS(filepath.Dir(dir))
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b.ResetTimer()
	for b.Loop() {
		Check(cat, files, now)
	}
	b.ReportMetric(float64(len(cat.Circulars)), "circulars")
}

func BenchmarkLoad(b *testing.B) {
	dir := storetest.ContentWith(b, "../../content", storetest.BenchCirculars(b, 10_000))
	for b.Loop() {
		if _, err := catalog.Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}
