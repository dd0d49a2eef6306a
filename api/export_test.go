package api

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestHandler_Export(t *testing.T) {
	cat := storetest.Catalog()
	// A hostile title and a title with a quote, a comma and a line break.
	cat.Circulars[0].Title = "=HYPERLINK(\"https://evil.example\",\"click\")"
	// Links as the loader derives them: the official first, a report.
	cat.Circulars[0].Links = catalog.List[catalog.SourceLink]{
		catalog.NewSourceLink("https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1", "official"),
		catalog.NewSourceLink("https://www.taxmann.com/post/x", "report"),
	}
	cat.Circulars[1].Title = "Quotes \"and\", commas\nand lines — ₹ UTF-8"
	f := newFixture(t, cat)

	t.Run("CSV", func(t *testing.T) {
		res := f.get(t, "/circulars.csv?source=rbi&category=UPI")
		if res.status != http.StatusOK {
			t.Fatalf("status %d: %s", res.status, res.body)
		}
		if got := res.header.Get("Content-Type"); got != "text/csv; charset=utf-8; header=present" {
			t.Errorf("Content-Type %q", got)
		}
		if got, want := res.header.Get("Content-Disposition"), `attachment; filename="regpulse-circulars-rbi.csv"`; got != want {
			t.Errorf("Content-Disposition %q, want %q", got, want)
		}
		if diff := cmp.Diff(catalog.CircularQuery{Source: "RBI", Category: "UPI", Sort: catalog.SortDate}, f.store.circulars); diff != "" {
			t.Errorf("query (-want +got):\n%s", diff)
		}
		if !strings.Contains(string(res.body), "\r\n") {
			t.Error("lines do not end in CRLF")
		}
		recs, err := csv.NewReader(strings.NewReader(string(res.body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != len(cat.Circulars)+1 {
			t.Fatalf("%d records, want a header and %d rows", len(recs), len(cat.Circulars))
		}
		if diff := cmp.Diff([]string{"id", "circularNumber", "title", "source", "category", "documentType", "impactLevel", "publishedDate", "officialUrl", "summary", "content", "verification", "officialUrlConfidence", "links"}, recs[0]); diff != "" {
			t.Errorf("header (-want +got):\n%s", diff)
		}
		if got := recs[1][2]; got != "'"+cat.Circulars[0].Title {
			t.Errorf("formula title exported as %q", got)
		}
		if got := recs[2][2]; got != cat.Circulars[1].Title {
			t.Errorf("title read back as %q, want %q", got, cat.Circulars[1].Title)
		}
		// The links column labels each link as the circular's page does.
		if got, want := recs[1][13], "View on rbi.org.in <https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1>; Reported by taxmann.com <https://www.taxmann.com/post/x>"; got != want {
			t.Errorf("links %q, want %q", got, want)
		}
		if got := recs[2][13]; got != "" {
			t.Errorf("links of a circular without any: %q", got)
		}
		if got, want := recs[1][0], cat.Circulars[0].ID; got != want {
			t.Errorf("id %q, want %q", got, want)
		}
		if got, want := recs[1][7], cat.Circulars[0].PublishedDate.String(); got != want {
			t.Errorf("publishedDate %q, want %q", got, want)
		}
		// Each row says how far its circular was checked ("" when the
		// entry does not say).
		var verifications []string
		for i, c := range cat.Circulars {
			if got := recs[i+1][11]; got != string(c.Verification) {
				t.Errorf("%s: verification %q, want %q", c.Slug, got, c.Verification)
			}
			verifications = append(verifications, recs[i+1][11])
		}
		if !slices.Contains(verifications, "reported") {
			t.Errorf("verifications %q: the fixture's reported circular is not among them", verifications)
		}
	})

	t.Run("CSVVerification", func(t *testing.T) {
		res := f.get(t, "/circulars.csv?verification=Reported")
		if res.status != http.StatusOK {
			t.Fatalf("status %d: %s", res.status, res.body)
		}
		if diff := cmp.Diff(catalog.CircularQuery{Verification: "reported", Sort: catalog.SortDate}, f.store.circulars); diff != "" {
			t.Errorf("query (-want +got):\n%s", diff)
		}
	})

	t.Run("JSON", func(t *testing.T) {
		res := f.get(t, "/circulars.json")
		if got, want := res.header.Get("Content-Disposition"), `attachment; filename="regpulse-circulars.json"`; got != want {
			t.Errorf("Content-Disposition %q, want %q", got, want)
		}
		var got []catalog.Circular
		if err := json.Unmarshal(res.body, &got); err != nil {
			t.Fatalf("%v: %s", err, res.body)
		}
		want := slices.Clone(cat.Circulars)
		for i := range want {
			want[i].Lang = want[i].TextLang() // computed as it is served, never stored
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(catalog.Entry{}, "Path")); diff != "" {
			t.Errorf("circulars (-want +got):\n%s", diff)
		}
	})

	t.Run("JSONEmpty", func(t *testing.T) {
		res := newFixture(t, nil).get(t, "/circulars.json")
		if got := strings.TrimSpace(string(res.body)); got != "[]" {
			t.Errorf("empty export %q, want []", got)
		}
	})

	t.Run("CSVEmptyHasHeader", func(t *testing.T) {
		res := newFixture(t, nil).get(t, "/circulars.csv")
		if got := string(res.body); !strings.HasPrefix(got, "id,circularNumber,") || strings.Count(got, "\r\n") != 1 {
			t.Errorf("empty export %q, want the header row alone", got)
		}
	})

	for _, tc := range []struct{ name, target, field string }{
		{"ErrLimit", "/circulars.csv?limit=5", "limit"},
		{"ErrOffset", "/circulars.json?offset=5", "offset"},
		{"ErrSource", "/circulars.csv?source=FED", "source"},
		{"ErrVerification", "/circulars.csv?verification=verified", "verification"},
		{"ErrUnknown", "/circulars.json?page=2", "page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.get(t, tc.target)
			if res.status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400", res.status)
			}
			var e Error
			if err := json.Unmarshal(res.body, &e); err != nil || e.Fields[tc.field] == "" {
				t.Errorf("body %s, want a JSON error naming %s", res.body, tc.field)
			}
		})
	}

	t.Run("ErrStore", func(t *testing.T) {
		broken := newFixture(t, cat)
		broken.store.err = errBroken
		res := broken.get(t, "/circulars.csv")
		if res.status != http.StatusInternalServerError || !strings.HasPrefix(res.header.Get("Content-Type"), "application/json") {
			t.Errorf("status %d %q, want a JSON 500", res.status, res.header.Get("Content-Type"))
		}
	})
}
