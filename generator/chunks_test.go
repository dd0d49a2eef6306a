package generator

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"
)

// TestWriteData: the data file holds what encoding/json would write of
// the data, the views spliced in as they are.
func TestWriteData(t *testing.T) {
	card := json.RawMessage(`{"slug":"a","card":"<article class=\"x\">A & B</article>"}`)
	for _, tc := range []struct {
		name string
		data map[string]any
	}{
		{"Views", map[string]any{"circulars": []json.RawMessage{card, json.RawMessage(`{"slug":"b"}`)},
			"circularIndex": map[string]int{"a": 0, "b": 1}, "feeds": []string{"<rbi>"}}},
		{"ViewsOnly", map[string]any{"circulars": []json.RawMessage{card}}},
		{"NoViews", map[string]any{"circulars": []json.RawMessage{}, "listPageSize": 30}},
		{"ViewsNotJSON", map[string]any{"circulars": []map[string]string{{"slug": "a", "card": "<b>"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := afero.NewMemMapFs()
			if err := writeData(fsys, "site", tc.data); err != nil {
				t.Fatal(err)
			}
			b, err := afero.ReadFile(fsys, filepath.Join("site", "data", "site.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%v in %s", err, b)
			}
			j, err := json.Marshal(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(j, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("data (-encoding/json +writeData):\n%s", diff)
			}
			if _, ok := tc.data["circulars"]; !ok {
				t.Error("writeData took the views out of the caller's data")
			}
		})
	}
}
