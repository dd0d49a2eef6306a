package generator

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
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
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w.Write(data)
		w.Close()
		size := gz.Len()
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
