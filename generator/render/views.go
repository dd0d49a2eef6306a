package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// Views are what a site's pages show of its items (the circulars: a
// circular's page its own, a list its entries, a page its related
// circulars), as Hugo's runs get them: each encoded once, in the site's
// order. At 100,000 circulars the views are some 100 MB of strings and
// slices, which the collector would scan through every one of Hugo's
// runs: held as JSON, bytes it never scans, they cost each collection
// nothing, and no run encodes them again. A run's data holds only the
// views its pages show (Run.Shows), under the keys the templates read
// them by (ViewsData, ViewIndexData, ViewCountData). Through Hugo's runs
// the JSON is on disk, in the workspace's pack (spill): at 100,000
// circulars it is some 125 MB the process would otherwise hold under
// every run's heap.
type Views struct {
	JSON [][]byte // each view's JSON object, without a card; nil once spilled
	Keys []string // each view's key, by which pages name it (Page.Shows): a circular's slug
	// With are, for each view, the other views a run holding it must hold
	// too (the circulars replacing a circular, which its note names).
	With  [][]string
	index map[string]int
	pack  *Pack // where the JSON is once spilled, each view's under its key
}

// The keys of a run's data that hold its views (the templates read them
// so: _partials/circular-view.html): the views, each one's place among
// them by key, and how many the whole site has.
const (
	ViewsData     = "circulars"
	ViewIndexData = "circularIndex"
	ViewCountData = "circularCount"
)

// EncodeViews encodes views on every core; key gives each view's key
// and the views it goes with.
func EncodeViews[V any](ctx context.Context, views []V, key func(*V) (string, []string)) (Views, error) {
	out := Views{JSON: make([][]byte, len(views)), Keys: make([]string, len(views)), With: make([][]string, len(views))}
	err := InBatches(ctx, len(views), 1024, func(i int) error {
		j, err := json.Marshal(views[i])
		out.JSON[i] = j
		out.Keys[i], out.With[i] = key(&views[i])
		return err
	})
	if err != nil {
		return Views{}, err
	}
	out.index = make(map[string]int, len(out.Keys))
	for i, k := range out.Keys {
		out.index[k] = i
	}
	return out, nil
}

// Index is each view's place, by key.
func (v Views) Index() map[string]int { return v.index }

// spill moves the JSON of the views marked in keep (by place) into p,
// lets the others' go, and returns the views reading it from there: a
// view not kept can no longer be read (Run.data fails on it).
func (v Views) spill(p *Pack, keep []bool) (Views, error) {
	if v.pack != nil {
		return v, nil
	}
	if len(keep) != len(v.Keys) {
		return Views{}, fmt.Errorf("render: %d views to spill, %d marked", len(v.Keys), len(keep))
	}
	keys, data := v.Keys, v.JSON
	if slices.Contains(keep, false) {
		keys, data = nil, nil
		for i, k := range keep {
			if k {
				keys, data = append(keys, v.Keys[i]), append(data, v.JSON[i])
			}
		}
	}
	if err := p.AddAll(keys, data); err != nil {
		return Views{}, err
	}
	v.JSON, v.pack = nil, p
	return v, nil
}

// json is the view at i's JSON.
func (v Views) json(i int) ([]byte, error) {
	if v.pack == nil {
		return v.JSON[i], nil
	}
	return v.pack.Read(v.Keys[i])
}

// withCard is a view's JSON with card added as its "card", the HTML as it
// is rather than escaped, as WriteData writes it.
func withCard(view []byte, card []byte) (json.RawMessage, error) {
	if len(card) == 0 {
		return view, nil
	}
	var b bytes.Buffer
	b.Grow(len(view) + len(card) + len(card)/8 + 16)
	b.Write(bytes.TrimSuffix(bytes.TrimRight(view, " \n"), []byte("}")))
	if b.Len() > 1 { // a view has fields: it is never {}
		b.WriteByte(',')
	}
	b.WriteString(`"card":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(string(card)); err != nil {
		return nil, err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteByte('}')
	return b.Bytes(), nil
}
