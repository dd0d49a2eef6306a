package impact

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

func date(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestScore(t *testing.T) {
	for _, tc := range []struct{ high, medium, want int }{
		{0, 0, 100}, {1, 0, 95}, {0, 1, 98}, {1, 1, 93}, {2, 5, 80}, {20, 0, 0}, {0, 50, 0}, {30, 30, 0},
	} {
		if got := Score(tc.high, tc.medium); got != tc.want {
			t.Errorf("Score(%d, %d) = %d, want %d", tc.high, tc.medium, got, tc.want)
		}
	}
}

func TestWindow(t *testing.T) {
	for _, tc := range []struct {
		now      time.Time
		from, to string
	}{
		{time.Date(2026, 11, 21, 16, 10, 0, 0, time.UTC), "2025-11-22", "2026-11-21"},
		{time.Date(2025, 6, 30, 0, 0, 0, 0, time.UTC), "2024-07-01", "2025-06-30"},
		{time.Date(2025, 6, 30, 23, 59, 59, 0, time.UTC), "2024-07-01", "2025-06-30"},
		// a leap day inside the window: 365 days still end on now's date
		{time.Date(2024, 12, 31, 12, 0, 0, 0, time.UTC), "2024-01-02", "2024-12-31"},
		// the date is taken in UTC: 03:00 in Kolkata on the 1st is still the 30th
		{time.Date(2025, 7, 1, 3, 0, 0, 0, time.FixedZone("IST", 5*3600+1800)), "2024-07-01", "2025-06-30"},
	} {
		from, to := Window(tc.now)
		if got := [2]string{from.Format(time.DateOnly), to.Format(time.DateOnly)}; got != [2]string{tc.from, tc.to} {
			t.Errorf("Window(%v) = %v, want [%s %s]", tc.now, got, tc.from, tc.to)
		}
		if d := to.Sub(from).Hours() / 24; d != WindowDays-1 {
			t.Errorf("Window(%v) spans %v days between its ends, want %d", tc.now, d, WindowDays-1)
		}
	}
}

func TestBand(t *testing.T) {
	for _, tc := range []struct {
		score int
		want  string
	}{
		{100, Good}, {90, Good}, {89, Warning}, {80, Warning}, {79, Poor}, {0, Poor},
	} {
		if got := Band(tc.score); got != tc.want {
			t.Errorf("Band(%d) = %q, want %q", tc.score, got, tc.want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for _, tc := range []struct{ typ, want string }{
		{"PSP", "Payment Service Providers"},
		{"Issuer", "Card Issuers"},
		{"Aggregator", "Payment Aggregators"},
		{"Anything", "Payment Aggregators"},
		{"psp", "Payment Aggregators"}, // types are exact
	} {
		if got := DisplayName(tc.typ); got != tc.want {
			t.Errorf("DisplayName(%q) = %q, want %q", tc.typ, got, tc.want)
		}
	}
}

func circular(slug, published, level string, entity ...string) catalog.Circular {
	c := catalog.Circular{Entry: catalog.Entry{ID: "id-" + slug, Slug: slug}, PublishedDate: catalog.Date{Time: date(published)}, ImpactLevel: level}
	for i := 0; i+1 < len(entity); i += 2 {
		c.EntityImpact = append(c.EntityImpact, catalog.EntityImpact{EntityType: entity[i], ImpactLevel: entity[i+1]})
	}
	return c
}

// newest first, as the catalog lists them
var circulars = []catalog.Circular{
	circular("future", "2025-07-02", "high", "PSP", "high"), // after now: counted, not scored
	circular("a", "2025-06-20", "high", "PSP", "high", "Issuer", "medium", "Aggregator", "low"),
	circular("b", "2025-06-10", "medium", "PSP", "medium", "Issuer", "low"),
	circular("c", "2024-07-01", "high", "Aggregator", "high"),            // the window's first day
	circular("d", "2024-06-30", "high", "PSP", "high", "Issuer", "high"), // a day too old
}

func TestRecords(t *testing.T) {
	now := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	got := Records(circulars, now)
	want := []Record{
		{ID: RecordID("PSP"), CircularID: "id-future", EntityType: "PSP", Name: "Payment Service Providers",
			ComplianceScore: 93, Band: Good, HighImpactCount: 3, MediumImpactCount: 1, UpdatedAt: now},
		{ID: RecordID("Issuer"), CircularID: "id-a", EntityType: "Issuer", Name: "Card Issuers",
			ComplianceScore: 98, Band: Good, HighImpactCount: 1, MediumImpactCount: 1, LowImpactCount: 1, UpdatedAt: now},
		{ID: RecordID("Aggregator"), CircularID: "id-a", EntityType: "Aggregator", Name: "Payment Aggregators",
			ComplianceScore: 95, Band: Good, HighImpactCount: 1, LowImpactCount: 1, UpdatedAt: now},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Records (-want +got):\n%s", diff)
	}
	// Two years on nothing is in the window: every score is back to 100.
	for _, r := range Records(circulars, now.AddDate(2, 0, 0)) {
		if r.ComplianceScore != 100 || r.Band != Good {
			t.Errorf("%s two years on: score %d band %s, want 100 good", r.EntityType, r.ComplianceScore, r.Band)
		}
	}
	if got := Records(nil, now); len(got) != len(catalog.EntityTypes) || got[0].ComplianceScore != 100 || got[0].CircularID != "" {
		t.Errorf("Records(nil) = %+v, want every type at 100", got)
	}
}

func TestActive(t *testing.T) {
	now := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	slugs := func(cs []catalog.Circular) []string {
		out := []string{}
		for _, c := range cs {
			out = append(out, c.Slug)
		}
		return out
	}
	for _, tc := range []struct {
		level string
		now   time.Time
		want  []string
	}{
		{"high", now, []string{"a", "c"}},
		{"medium", now, []string{"b"}},
		{"low", now, []string{}},
		{"high", now.AddDate(0, 0, 2), []string{"future", "a"}}, // c has left the window
		{"high", now.AddDate(2, 0, 0), []string{}},
	} {
		if got := slugs(Active(circulars, tc.level, tc.now)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Active(%s, %s) = %v, want %v", tc.level, tc.now.Format(time.DateOnly), got, tc.want)
		}
	}
}

func TestIsActive(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) // window 2025-11-25..2026-11-24
	day := func(s string) *catalog.Date { return &catalog.Date{Time: date(s)} }
	old := circular("old", "2020-01-10", "high", "PSP", "high")
	for _, tc := range []struct {
		name string
		edit func(*catalog.Circular)
		want bool
	}{
		{"published long ago, no later date", func(c *catalog.Circular) {}, false},
		{"published in the window", func(c *catalog.Circular) { c.PublishedDate = *day("2026-03-01") }, true},
		{"published on the window's first day", func(c *catalog.Circular) { c.PublishedDate = *day("2025-11-25") }, true},
		{"published the day before", func(c *catalog.Circular) { c.PublishedDate = *day("2025-11-24") }, false},
		{"effective date in the window", func(c *catalog.Circular) { c.EffectiveDate = day("2026-01-01") }, true},
		{"effective date still to come", func(c *catalog.Circular) { c.EffectiveDate = day("2027-04-01") }, true},
		{"effective date too old", func(c *catalog.Circular) { c.EffectiveDate = day("2021-04-01") }, false},
		{"compliance date still to come", func(c *catalog.Circular) {
			c.ComplianceDates = []catalog.ComplianceDate{{Date: *day("2021-01-01"), What: "a"}, {Date: *day("2027-06-30"), What: "b"}}
		}, true},
		{"superseded, though recent", func(c *catalog.Circular) {
			c.PublishedDate = *day("2026-03-01")
			c.SupersededBy = catalog.TextList{"newer"}
		}, false},
		{"withdrawn today, though recent", func(c *catalog.Circular) {
			c.PublishedDate, c.WithdrawnOn = *day("2026-03-01"), day("2026-11-24")
		}, false},
		{"withdrawn from tomorrow", func(c *catalog.Circular) {
			c.PublishedDate, c.WithdrawnOn = *day("2026-03-01"), day("2026-11-25")
		}, true},
		{"not yet issued as of now", func(c *catalog.Circular) { c.PublishedDate = *day("2026-11-25") }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := old
			tc.edit(&c)
			if got := IsActive(c, now); got != tc.want {
				t.Errorf("IsActive = %v, want %v", got, tc.want)
			}
		})
	}
}

// A draft, a consultation paper or an announcement never lowers a score
// nor counts as an obligation; it is listed as open for comment instead.
func TestRecords_NonBindingDocuments(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	final := circular("final", "2026-05-01", "high", "PSP", "high")
	final.DocumentType = "master-direction"
	draft := circular("draft", "2026-06-01", "high", "PSP", "high")
	draft.DocumentType = "draft"
	paper := circular("paper", "2026-04-09", "medium", "PSP", "medium")
	paper.DocumentType = "discussion-paper"
	all := []catalog.Circular{draft, final, paper}

	psp := Records(all, now)[0]
	if psp.ComplianceScore != 95 || psp.HighImpactCount != 1 || psp.MediumImpactCount != 0 || psp.CircularID != "id-final" {
		t.Errorf("PSP record %+v: want score 95 and counts from the final circular only", psp)
	}
	var got []string
	for _, c := range Active(all, "high", now) {
		got = append(got, c.Slug)
	}
	for _, c := range Open(all, now) {
		got = append(got, "open:"+c.Slug)
	}
	if diff := cmp.Diff([]string{"final", "open:draft", "open:paper"}, got); diff != "" {
		t.Errorf("Active high, then Open (-want +got):\n%s", diff)
	}
}
