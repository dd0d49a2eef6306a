package generator

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// The fixture's circulars' links: the payment aggregator guidelines have
// the regulator's page, a report and an unofficial copy; the UPI IDs
// circular an unofficial copy alone; tokenisation a link that says not
// what it is (labelled a copy). Pages, both feeds and the cards show each
// with its label, the regulator's first.
func TestBuild_SourceLinks(t *testing.T) {
	out, _ := buildSiteAt(t, fixtureContent, templatesDir, fixtureNow)
	const (
		official = "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=11822&Mode=0"
		report   = "https://example.org/pa-guidelines"
		copy     = "https://copies.example.net/pa.pdf"
	)
	type link struct{ Kind, Text, Href string }
	for _, tc := range []struct {
		slug         string
		want         []link
		noOfficial   bool
		cardOfficial bool
	}{
		{"rbi-2020-03-17-pa-guidelines", []link{
			{"official", "View on rbi.org.in", official},
			{"report", "Reported by example.org", report},
			{"unofficial", "Unofficial copy on copies.example.net", copy},
		}, false, true},
		{"npci-2024-03-28-upi-ids", []link{{"unofficial", "Unofficial copy on example.org", "https://example.org/upi-ids"}}, true, false},
		{"rbi-2021-09-07-tokenisation", []link{{"unofficial", "Unofficial copy on example.org", "https://example.org/tokenisation"}}, true, false},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			page := parseFile(t, filepath.Join(out, "circulars", tc.slug, "index.html"))
			lists := findAll(page, "data-source-links", "*")
			if len(lists) != 1 {
				t.Fatalf("%d lists of sources, want 1", len(lists))
			}
			var got []link
			for _, a := range findAll(lists[0], "data-source-kind", "*") {
				kind, _ := attr(a, "data-source-kind")
				href, _ := attr(a, "href")
				target, _ := attr(a, "target")
				if target != "_blank" {
					t.Errorf("%s opens in the same tab", href)
				}
				// The visible text, without what only screen readers hear.
				visible := strings.TrimSpace(strings.SplitN(text(a), " (", 2)[0])
				got = append(got, link{kind, visible, href})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("links (-want +got):\n%s", diff)
			}
			if got := len(findAll(page, "data-no-official", "*")) == 1; got != tc.noOfficial {
				t.Errorf("says no official page was found: %v, want %v", got, tc.noOfficial)
			}
			// No link of the page's own leads off the portal unlabelled:
			// every external link of the article is one of the sources
			// (or a related card's, checked on its own page).
			for _, a := range findAll(page, "target", "_blank") {
				href, _ := attr(a, "href")
				if strings.Contains(href, "example.org/upi-ids") && tc.slug != "npci-2024-03-28-upi-ids" {
					t.Errorf("another circular's weak link %s on this page", href)
				}
			}
		})
	}

	t.Run("Cards", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(out, "circulars", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		list := string(data)
		// "View Official Document" only on the card of the circular that has one.
		if got := strings.Count(list, "View Official Document"); got != 1 {
			t.Errorf("View Official Document on %d cards, want 1", got)
		}
	})

	t.Run("Atom", func(t *testing.T) {
		var f struct {
			Entries []struct {
				ID    string `xml:"id"`
				Links []struct {
					Rel   string `xml:"rel,attr"`
					Type  string `xml:"type,attr"`
					Href  string `xml:"href,attr"`
					Title string `xml:"title,attr"`
				} `xml:"link"`
				Content string `xml:"content"`
			} `xml:"entry"`
		}
		data, err := os.ReadFile(filepath.Join(out, "feeds", "rbi.atom"))
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		id := "urn:uuid:" + catalog.IDForPath("circulars/rbi-2020-03-17-pa-guidelines.md")
		for _, e := range f.Entries {
			if e.ID != id {
				continue
			}
			type l struct{ Rel, Type, Href, Title string }
			var got []l
			for _, x := range e.Links {
				got = append(got, l{x.Rel, x.Type, x.Href, x.Title})
			}
			want := []l{
				{"alternate", "text/html", "https://regpulse.example/circulars/rbi-2020-03-17-pa-guidelines", ""},
				{"alternate", "", official, "View on rbi.org.in"},
				{"related", "", report, "Reported by example.org"},
				{"related", "", copy, "Unofficial copy on copies.example.net"},
			}
			if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b l) bool {
				// The portal's address depends on the build's base URL.
				return a.Rel == b.Rel && a.Type == b.Type && a.Title == b.Title &&
					(a.Href == b.Href || strings.HasSuffix(a.Href, "/circulars/rbi-2020-03-17-pa-guidelines") && strings.HasSuffix(b.Href, "/circulars/rbi-2020-03-17-pa-guidelines"))
			})); diff != "" {
				t.Errorf("links (-want +got):\n%s", diff)
			}
			if !strings.Contains(e.Content, `Sources: <a href="`+strings.ReplaceAll(official, "&", "&amp;")+`">View on rbi.org.in</a>`) {
				t.Errorf("content does not end with the labelled sources: %s", e.Content)
			}
			return
		}
		t.Fatalf("no entry %s", id)
	})

	t.Run("JSONFeed", func(t *testing.T) {
		var f struct {
			Items []struct {
				URL         string `json:"url"`
				ExternalURL string `json:"external_url"`
				ContentHTML string `json:"content_html"`
			} `json:"items"`
		}
		data, err := os.ReadFile(filepath.Join(out, "feeds", "npci.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		it := f.Items[0]
		if it.ExternalURL != "" {
			t.Errorf("external_url %q for a circular with no official page", it.ExternalURL)
		}
		if !strings.Contains(it.ContentHTML, `<a href="https://example.org/upi-ids">Unofficial copy on example.org</a>`) {
			t.Errorf("content_html lacks the labelled copy: %s", it.ContentHTML)
		}
	})
}
