package generator

import (
	"bytes"
	"context"
	"encoding/json"
)

// runViews are the circulars' views as Hugo's runs get them, each encoded
// once, in the catalog's order. The views themselves are some 100 MB of
// strings and slices at 100,000 circulars, which the collector would scan
// through every one of Hugo's runs: held as JSON, bytes it never scans,
// they cost each collection nothing, and no run encodes them again.
type runViews struct {
	json  [][]byte // each view's JSON object, without a card
	slugs []string
	// replacedBy are the circulars replacing each (SupersededBy): a run's
	// data holds their views too (superseded-note.html names them).
	replacedBy [][]string
}

// encodeViews encodes views on every core.
func encodeViews(ctx context.Context, views []circularView) (runViews, error) {
	out := runViews{json: make([][]byte, len(views)), slugs: make([]string, len(views)), replacedBy: make([][]string, len(views))}
	err := inBatches(ctx, len(views), 1024, func(i int) error {
		j, err := json.Marshal(views[i])
		out.json[i], out.slugs[i], out.replacedBy[i] = j, views[i].Slug, views[i].SupersededBy
		return err
	})
	return out, err
}

// withCard is a view's JSON with card added as its "card" (circularView's
// Card), the HTML as it is rather than escaped, as writeData writes it.
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
