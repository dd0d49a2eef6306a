package newsletter_test

import (
	"slices"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
)

// TestNewIssue_SibosNotOver: an issue's upcoming events are the Sibos
// editions not over by the month's end (catalog.Edition.Past): one still
// called upcoming after its dates, or of a past year without dates, is
// left out.
func TestNewIssue_SibosNotOver(t *testing.T) {
	date := func(s string) *catalog.Date {
		var d catalog.Date
		if err := d.UnmarshalText([]byte(s)); err != nil {
			t.Fatal(err)
		}
		return &d
	}
	cat := &catalog.Catalog{Sibos: []catalog.SibosEvent{
		{Title: "over, still upcoming", Year: 2026, Status: "upcoming", StartDate: date("2026-09-28"), EndDate: date("2026-10-01")},
		{Title: "past year, no dates", Year: 2025, Status: "upcoming"},
		{Title: "completed", Year: 2026, Status: "completed"},
		{Title: "ends after the month", Year: 2026, Status: "upcoming", StartDate: date("2026-10-30"), EndDate: date("2026-11-02")},
		{Title: "next year, no dates", Year: 2027, Status: "upcoming"},
	}}
	var got []string
	for _, s := range newsletter.NewIssue(cat, time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)).Sibos {
		got = append(got, s.Title)
	}
	if want := []string{"ends after the month", "next year, no dates"}; !slices.Equal(got, want) {
		t.Errorf("Sibos = %q, want %q", got, want)
	}
}
