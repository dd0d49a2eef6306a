package render

import (
	"encoding/json"
	"fmt"
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
			if err := WriteData(fsys, "site", tc.data); err != nil {
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
				t.Errorf("data (-encoding/json +WriteData):\n%s", diff)
			}
			if _, ok := tc.data["circulars"]; !ok {
				t.Error("WriteData took the views out of the caller's data")
			}
		})
	}
}

// TestRunData: a run's data has the keys asked for, the views of the
// items its pages and the run itself show and of those they go with, in
// the site's order, and the whole site's count; the same with the views
// spilled into a pack.
func TestRunData(t *testing.T) {
	views := []testView{{Slug: "a"}, {Slug: "b"}, {Slug: "c", With: []string{"a"}}, {Slug: "d"}, {Slug: "e"}}
	data := map[string]any{"events": 1, "news": 2}
	enc, err := EncodeViews(t.Context(), views, testViewKey)
	if err != nil {
		t.Fatal(err)
	}
	pack, err := CreatePack(filepath.Join(t.TempDir(), "views.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer pack.Close()
	items := Page{Front: map[string]any{}, Shows: []string{"b"}}
	items.SetItemsIn() // (it reads no view: b is not the run's)
	run := Run{Data: []string{"events"}, Shows: []string{"e"},
		Pages: []Page{{Shows: []string{"c", "d"}}, {Shows: []string{"c", "missing"}}, items}}
	// only the views the run shows are spilled (b is not)
	keep := make([]bool, len(views))
	for i := range run.shown(enc) {
		keep[i] = true
	}
	if diff := cmp.Diff([]bool{true, false, true, true, true}, keep); diff != "" {
		t.Errorf("views shown (-want +got):\n%s", diff)
	}
	spilled, err := enc.spill(pack, keep)
	if err != nil {
		t.Fatal(err)
	}
	if spilled.JSON != nil {
		t.Fatal("spilled views still hold their JSON")
	}
	if _, err := pack.Read("b"); err == nil {
		t.Error("a view no run shows was spilled")
	}
	if _, _, err := (Run{Shows: []string{"b"}}).data(data, spilled); err == nil {
		t.Error("a view not spilled was read without an error")
	}
	if _, err := enc.spill(pack, keep[1:]); err == nil {
		t.Error("views spilled with fewer marks than views")
	}
	for name, views := range map[string]Views{"in memory": enc, "spilled": spilled} {
		t.Run(name, func(t *testing.T) {
			got, slugs, err := run.data(data, views)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"a", "c", "d", "e"}, slugs); diff != "" {
				t.Errorf("slugs (-want +got):\n%s", diff)
			}
			var decoded []string
			for _, j := range got[ViewsData].([]json.RawMessage) {
				var v testView
				if err := json.Unmarshal(j, &v); err != nil {
					t.Fatal(err)
				}
				decoded = append(decoded, v.Slug)
			}
			if diff := cmp.Diff(slugs, decoded); diff != "" {
				t.Errorf("views (-slugs +views' own):\n%s", diff)
			}
			if diff := cmp.Diff(map[string]int{"a": 0, "c": 1, "d": 2, "e": 3}, got[ViewIndexData]); diff != "" {
				t.Errorf("index (-want +got):\n%s", diff)
			}
			if got[ViewCountData] != 5 || got["events"] != 1 || got["news"] != nil {
				t.Errorf("data %v: want events, a count of 5 and no news", got)
			}
		})
	}
}

// TestPartition: runs hold at most size pages and 2·size views
// shown, pages showing the same circulars go together, and every page is
// in one run.
func TestPartition(t *testing.T) {
	index := map[string]int{}
	for i := range 20 {
		index[fmt.Sprint(i)] = i
	}
	var pages []Page
	for _, list := range []string{"a", "b"} { // two lists of the same circulars, 2 a page
		for i := 0; i < 20; i += 2 {
			pages = append(pages, Page{File: fmt.Sprintf("%s/%d", list, i), Shows: []string{fmt.Sprint(i), fmt.Sprint(i + 1)}})
		}
	}
	runs := partition(pages, index, 3)
	var all []string
	for _, r := range runs {
		shown := map[string]bool{}
		for _, p := range r {
			all = append(all, p.File)
			for _, s := range p.Shows {
				shown[s] = true
			}
		}
		if len(r) > 3 || len(shown) > 6 {
			t.Errorf("a run of %d pages shows %d circulars, want at most 3 and 6", len(r), len(shown))
		}
	}
	if len(all) != len(pages) {
		t.Errorf("%d pages in runs, want %d", len(all), len(pages))
	}
	// pages showing 10 views each: a run each, but for pages whose items
	// are set in, which read no views (runs of size pages)
	wide := make([]Page, 6)
	for i := range wide {
		wide[i] = Page{Front: map[string]any{}, Shows: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}
	}
	for _, setIn := range []bool{false, true} {
		if setIn {
			for i := range wide {
				wide[i].SetItemsIn()
			}
		}
		want := map[bool]int{false: 6, true: 2}[setIn]
		if runs := partition(wide, index, 3); len(runs) != want {
			t.Errorf("items set in %v: 6 pages of 10 views each in %d runs, want %d", setIn, len(runs), want)
		}
	}
	// a/0 and b/0 show the same circulars: the same run
	if runs[0][0].File != "a/0" || runs[0][1].File != "b/0" {
		t.Errorf("first run %v: want a/0 and b/0 together", runs[0])
	}
}

// TestRunFramed: only a run of framed pages goes without its views'
// cards (Run.framed): one page that is not framed reads them.
func TestRunFramed(t *testing.T) {
	tests := []struct {
		name  string
		pages []Page
		want  bool
	}{
		{"none", nil, false},
		{"all framed", []Page{{framed: true}, {framed: true}}, true},
		{"one not", []Page{{framed: true}, {}}, false},
	}
	for _, tt := range tests {
		if got := (Run{Pages: tt.pages}).framed(); got != tt.want {
			t.Errorf("%s: framed() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
