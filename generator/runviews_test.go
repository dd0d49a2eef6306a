package generator

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestWithCard: a card joins a view's JSON as its Card, whatever its HTML
// holds, and a view without a card is left as it is.
func TestWithCard(t *testing.T) {
	var v circularView
	v.Slug, v.Title, v.SupersededBy = "a", `Quotes " and <b>`, []string{"b"}
	enc, err := encodeViews(t.Context(), []circularView{v})
	if err != nil {
		t.Fatal(err)
	}
	for _, card := range []string{"", `<article class="x">"quoted" & \ back</article>` + "\n\t\u2028"} {
		j, err := withCard(enc.json[0], []byte(card))
		if err != nil {
			t.Fatal(err)
		}
		var got circularView
		if err := json.Unmarshal(j, &got); err != nil {
			t.Fatalf("card %q: %v in %s", card, err, j)
		}
		want := v
		want.Card = card
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("card %q (-want +got):\n%s", card, diff)
		}
	}
	if diff := cmp.Diff(runViews{json: enc.json, slugs: []string{"a"}, replacedBy: [][]string{{"b"}}}, enc, cmp.AllowUnexported(runViews{})); diff != "" {
		t.Errorf("views (-want +got):\n%s", diff)
	}
}
