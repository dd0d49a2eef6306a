package generator

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"regpulse/internal/catalog"
)

func TestImpactEntries(t *testing.T) {
	entries := func(n int, preview func(i int) string) []circularView {
		out := make([]circularView, n)
		for i := range out {
			out[i] = newCircularView(catalog.Circular{Entry: catalog.Entry{ID: fmt.Sprint(i), Slug: fmt.Sprintf("c-%d", i)},
				Title: "T", Source: "RBI", DocumentType: "circular", Preview: preview(i)}, nil, time.Now())
		}
		return out
	}
	short := func(int) string { return "A preview." }
	t.Run("NoneWhileEachListFits", func(t *testing.T) {
		got, err := impactEntries(impactTrackerView{High: entries(ListPageSize, short), Medium: entries(ListPageSize, short)})
		if err != nil || got != nil {
			t.Errorf("got %d bytes, %v; want none", len(got), err)
		}
	})
	t.Run("EveryListWhenOneRunsOver", func(t *testing.T) {
		got, err := impactEntries(impactTrackerView{High: entries(ListPageSize+1, short), Medium: entries(2, short)})
		if err != nil {
			t.Fatal(err)
		}
		var m map[string][]impactEntry
		if err := json.Unmarshal(got, &m); err != nil {
			t.Fatal(err)
		}
		if len(m["high"]) != ListPageSize+1 || len(m["medium"]) != 2 || len(m["open"]) != 0 || m["high"][3].Slug != "c-3" {
			t.Errorf("entries: high %d, medium %d, open %d", len(m["high"]), len(m["medium"]), len(m["open"]))
		}
	})
	t.Run("NoneBeyondTheCap", func(t *testing.T) {
		// previews that hardly compress: 6,000 of 400 random letters
		r := rand.New(rand.NewPCG(1, 2))
		random := func(int) string {
			b := make([]byte, 400)
			for i := range b {
				b[i] = byte('a' + r.IntN(26))
			}
			return string(b)
		}
		got, err := impactEntries(impactTrackerView{High: entries(6000, random)})
		if err != nil || got != nil {
			t.Errorf("got %d bytes, %v; want none beyond %d gzipped", len(got), err, ImpactEntriesMaxGzip)
		}
	})
}
