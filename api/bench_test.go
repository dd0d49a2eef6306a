package api

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// BenchmarkListCirculars serves GET /api/circulars from the SQLite store of 100,000
// generated circulars (about 1,040 per source and category pair). Filtered
// is the payment body page's query: source, category, search, sort=impact,
// limit 50. The others bound it: no filter at all, and a search over every
// circular ranked by relevance (a full scan).
func BenchmarkListCirculars(b *testing.B) {
	db, err := store.Open(b.Context(), ":memory:", store.WithNow(storetest.Clock))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SyncCatalog(b.Context(), &catalog.Catalog{Circulars: storetest.Circulars(100_000)}); err != nil {
		b.Fatal(err)
	}
	f := &fixture{api: New(db, discardLog, cheapAuth)}
	for _, bc := range []struct{ name, target string }{
		{"Filtered", "/circulars?source=RBI&category=UPI&search=merchant+gateway&sort=impact&limit=50"},
		{"Default", "/circulars?limit=50"},
		{"SearchAllByRelevance", "/circulars?search=merchant+gateway&sort=relevance&limit=50"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			res := f.get(b, bc.target)
			var list []json.RawMessage
			if err := json.Unmarshal(res.body, &list); res.status != 200 || err != nil || len(list) == 0 {
				b.Fatalf("GET %s = %d, %d results, %v", bc.target, res.status, len(list), err)
			}
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				f.api.ServeHTTP(rec, httptest.NewRequest("GET", bc.target, nil))
				if rec.Code != 200 {
					b.Fatalf("status %d", rec.Code)
				}
			}
			b.ReportMetric(float64(len(list)), "results")
		})
	}
}

// BenchmarkAI serves each AI call with the local provider (no model) over
// the SQLite store of the real content: a circular's summary (its longest,
// the PA master direction) and impact analysis, both stored, and the
// summary of pasted text (every circular's text, about 50,000 characters).
// The rate limit is raised out of the way.
func BenchmarkAI(b *testing.B) {
	db, err := store.Open(b.Context(), ":memory:", store.WithNow(storetest.Clock))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cat, err := catalog.Load("../content")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.SyncCatalog(b.Context(), cat); err != nil {
		b.Fatal(err)
	}
	f := &fixture{api: New(db, discardLog, WithAI(AIConfig{RateLimit: 1 << 30}))}
	var id string
	var all strings.Builder
	for _, c := range cat.Circulars {
		if c.Slug == "rbi-2025-09-15-payment-aggregators-master-direction" {
			id = c.ID
		}
		all.WriteString(c.Content + "\n\n")
	}
	text, _ := json.Marshal(SummarizeRequest{Content: all.String()})
	for _, bc := range []struct{ name, target, body string }{
		{"SummarizeCircular", "/circulars/" + id + "/summarize", ""},
		{"AnalyzeImpact", "/circulars/" + id + "/impact", `{"entityType":"Aggregator"}`},
		{"SummarizeText", "/ai/summarize", string(text)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			contentType := ""
			if bc.body != "" {
				contentType = "application/json"
			}
			if res := f.post(b, bc.target, contentType, bc.body); res.status != 200 {
				b.Fatalf("POST %s = %d %s", bc.target, res.status, res.body)
			}
			b.ReportAllocs()
			for b.Loop() {
				if res := f.post(b, bc.target, contentType, bc.body); res.status != 200 {
					b.Fatalf("status %d", res.status)
				}
			}
		})
	}
}
