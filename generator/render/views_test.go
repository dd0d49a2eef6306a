package render

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// testView is a view as the site's are: a JSON object with a key and
// the views it goes with.
type testView struct {
	Slug  string   `json:"slug"`
	Title string   `json:"title,omitempty"`
	With  []string `json:"with,omitempty"`
	Card  string   `json:"card,omitempty"`
}

func testViewKey(v *testView) (string, []string) { return v.Slug, v.With }

// TestWithCard: a card joins a view's JSON as its card, whatever its HTML
// holds, and a view without a card is left as it is.
func TestWithCard(t *testing.T) {
	v := testView{Slug: "a", Title: `Quotes " and <b>`, With: []string{"b"}}
	enc, err := EncodeViews(t.Context(), []testView{v}, testViewKey)
	if err != nil {
		t.Fatal(err)
	}
	for _, card := range []string{"", `<article class="x">"quoted" & \ back</article>` + "\n\t\u2028"} {
		j, err := withCard(enc.JSON[0], []byte(card))
		if err != nil {
			t.Fatal(err)
		}
		var got testView
		if err := json.Unmarshal(j, &got); err != nil {
			t.Fatalf("card %q: %v in %s", card, err, j)
		}
		want := v
		want.Card = card
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("card %q (-want +got):\n%s", card, diff)
		}
	}
	want := Views{JSON: enc.JSON, Keys: []string{"a"}, With: [][]string{{"b"}}, index: map[string]int{"a": 0}}
	if diff := cmp.Diff(want, enc, cmp.AllowUnexported(Views{})); diff != "" {
		t.Errorf("views (-want +got):\n%s", diff)
	}
}
