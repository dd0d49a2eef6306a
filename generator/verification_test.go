package generator

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"regpulse/internal/catalog"
)

// The fixture's circulars: the payment aggregator guidelines are checked,
// the UPI transaction IDs reported, tokenisation pending (a circular
// stating none has one derived: internal/catalog's TestLoad_Verification).
// Each shows its label on its card and page, the page its note, the feeds
// both, and the dashboard counts the two awaiting a check.
func TestBuild_Verification(t *testing.T) {
	out, _ := buildSiteAt(t, fixtureContent, templatesDir, fixtureNow)
	const (
		checked  = "rbi-2020-03-17-pa-guidelines"
		reported = "npci-2024-03-28-upi-ids"
		pending  = "rbi-2021-09-07-tokenisation"
	)
	// labels are the labels under n, leaving out those of the cards of
	// other circulars inside n (a page's related circulars).
	labels := func(n *html.Node) []string {
		var got []string
		for _, b := range findAll(n, "data-verification", "*") {
			inCard := false
			for p := b.Parent; p != nil && p != n; p = p.Parent {
				_, card := attr(p, "data-circular")
				inCard = inCard || card
			}
			if !inCard {
				got = append(got, text(b))
			}
		}
		return got
	}

	for _, tc := range []struct {
		name, slug, verification string
	}{
		{"Checked", checked, "checked"},
		{"Reported", reported, "reported"},
		{"Pending", pending, "pending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			if tc.verification != "" {
				want = []string{catalog.VerificationLabel(tc.verification)}
			}
			page := parseFile(t, filepath.Join(out, "circulars", tc.slug, "index.html"))
			if diff := cmp.Diff(want, labels(page)); diff != "" {
				t.Errorf("page's labels (-want +got):\n%s", diff)
			}
			notes := findAll(page, "data-verification-note", "*")
			switch {
			case tc.verification == "" && len(notes) != 0:
				t.Errorf("a note on a circular that says nothing: %q", text(notes[0]))
			case tc.verification != "" && len(notes) != 1:
				t.Fatalf("%d notes, want 1", len(notes))
			case tc.verification != "":
				if v, _ := attr(notes[0], "data-verification-note"); v != tc.verification {
					t.Errorf("note for %q, want %q", v, tc.verification)
				}
				if got := text(notes[0]); !strings.Contains(got, catalog.VerificationNote(tc.verification)) {
					t.Errorf("note %q lacks %q", got, catalog.VerificationNote(tc.verification))
				}
			}
			// Cards say it wherever they are drawn: the list of all
			// circulars and the search page.
			for _, list := range []string{"circulars", "search"} {
				card := find(t, parseFile(t, filepath.Join(out, list, "index.html")), "data-circular", tc.slug)
				if diff := cmp.Diff(want, labels(card)); diff != "" {
					t.Errorf("%s card's labels (-want +got):\n%s", list, diff)
				}
			}
		})
	}

	t.Run("NotCheckedSaysSo", func(t *testing.T) {
		note := text(find(t, parseFile(t, filepath.Join(out, "circulars", reported, "index.html")), "data-verification-note", "reported"))
		if !strings.Contains(note, "not yet been checked against the regulator's own text") {
			t.Errorf("note %q does not say the summary is unchecked", note)
		}
	})

	t.Run("Atom", func(t *testing.T) {
		var f struct {
			Entries []struct {
				ID         string `xml:"id"`
				Categories []struct {
					Term string `xml:"term,attr"`
				} `xml:"category"`
				Content string `xml:"content"`
			} `xml:"entry"`
		}
		data, err := os.ReadFile(filepath.Join(out, "feeds", "circulars.atom"))
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		got := map[string][2]bool{} // id: has the label, content starts with the note
		for _, e := range f.Entries {
			var label bool
			for _, c := range e.Categories {
				label = label || c.Term == catalog.VerificationLabel("reported") || c.Term == catalog.VerificationLabel("checked") ||
					c.Term == catalog.VerificationLabel("pending")
			}
			got[strings.TrimPrefix(e.ID, "urn:uuid:")] = [2]bool{label, strings.HasPrefix(e.Content, "<p><strong>")}
		}
		want := map[string][2]bool{
			catalog.IDForPath("circulars/" + checked + ".md"):  {true, true},
			catalog.IDForPath("circulars/" + reported + ".md"): {true, true},
			catalog.IDForPath("circulars/" + pending + ".md"):  {true, true},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("label, note (-want +got):\n%s", diff)
		}
	})

	t.Run("JSONFeed", func(t *testing.T) {
		var f struct {
			Items []struct {
				URL         string   `json:"url"`
				Tags        []string `json:"tags"`
				ContentHTML string   `json:"content_html"`
			} `json:"items"`
		}
		data, err := os.ReadFile(filepath.Join(out, "feeds", "npci.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		if len(f.Items) != 1 || !strings.HasSuffix(f.Items[0].URL, reported) {
			t.Fatalf("items %+v, want the reported circular alone", f.Items)
		}
		it := f.Items[0]
		want := []string{"NPCI", "UPI", "low impact", "Circular", catalog.VerificationLabel("reported")}
		if diff := cmp.Diff(want, it.Tags); diff != "" {
			t.Errorf("tags (-want +got):\n%s", diff)
		}
		note := "<p><strong>" + catalog.VerificationLabel("reported") + ".</strong> "
		if !strings.HasPrefix(it.ContentHTML, note) {
			t.Errorf("content_html %q does not start with the note", it.ContentHTML)
		}
	})

	t.Run("Dashboard", func(t *testing.T) {
		line := text(find(t, parseFile(t, filepath.Join(out, "index.html")), "data-awaiting-verification", "*"))
		if !strings.HasPrefix(line, "2 circulars awaiting verification") {
			t.Errorf("dashboard line %q, want 2 circulars awaiting verification", line)
		}
	})
}
