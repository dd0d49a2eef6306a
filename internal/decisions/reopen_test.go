package decisions

import (
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

func TestReopen(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		status, want string
	}{
		{StatusNew, StatusNew},
		{StatusAssessing, StatusAssessing},
		{StatusActionPlanned, StatusAssessing},
		{StatusDone, StatusAssessing},
		{StatusNotApplicable, StatusAssessing},
	} {
		d := Decision{Applicability: Applicable, Status: c.status, TextVersion: "", Version: 4, DecidedBy: "u1"}
		got := d.Reopen(Reopening{At: at, Reason: ReopenWithdrawn, From: "", To: "2026-01-01"})
		if got.Status != c.want || got.Version != 5 || got.TextVersion != "2026-01-01" || got.DecidedBy != "u1" ||
			got.Reopened == nil || got.Reopened.PriorStatus != c.status || !got.Reopened.At.Equal(at) {
			t.Errorf("Reopen of a %s decision: %+v (%+v)", c.status, got, got.Reopened)
		}
		if d.Reopened != nil || d.Status != c.status {
			t.Errorf("Reopen changed its receiver: %+v", d)
		}
	}
}

func TestCircularReopening(t *testing.T) {
	at := time.Now()
	refs := []catalog.CircularRef{{Slug: "new-one", Title: "The new one"}}
	for _, c := range []struct {
		from, to, want string
	}{
		{"", "", ""},
		{"2026-01-01", "2026-01-01", ""},
		{"", "2026-01-01", ReopenWithdrawn},
		{"2026-01-01", "2026-02-01", ReopenWithdrawn},
		{"2026-01-01", "", ReopenReinstated},
	} {
		r := CircularReopening(c.from, c.to, refs, nil, at)
		switch {
		case c.want == "" && r != nil:
			t.Errorf("%q -> %q reopens: %+v", c.from, c.to, r)
		case c.want != "" && (r == nil || r.Reason != c.want || r.From != c.from || r.To != c.to || len(r.ReplacedBy) != 1 || r.RulesNowIn == nil):
			t.Errorf("%q -> %q: %+v, want reason %s", c.from, c.to, r, c.want)
		}
	}
}

func TestProvisionReopening(t *testing.T) {
	p := func(id, text string) *catalog.Provision { return &catalog.Provision{ID: id, Text: text} }
	c := directions.Comparison{Changes: directions.List[directions.Change]{
		{Provision: "2", Kind: directions.Changed, Before: p("2", "a"), After: p("2", "b")},
		{Provision: "3", Kind: directions.Removed, Before: p("3", "c")},
		{Provision: "5", Was: "4", Kind: directions.Renumbered, Before: p("4", "d"), After: p("5", "d")},
		{Provision: "6", Kind: directions.Added, After: p("6", "e")},
	}}
	for _, tc := range []struct {
		provision, want string
	}{
		{"1", ""},
		{"2", ReopenProvisionChanged},
		{"3", ReopenProvisionRemoved},
		{"4", ReopenProvisionChanged},
		{"5", ""}, // not a number on the version decided on
		{"6", ""},
	} {
		r := ProvisionReopening(c, tc.provision, "2021-01-01", "2025-01-01", time.Now())
		switch {
		case tc.want == "" && r != nil:
			t.Errorf("provision %s reopens: %+v", tc.provision, r)
		case tc.want != "" && (r == nil || r.Reason != tc.want || r.Diff == nil || r.Diff.Before.ID != tc.provision):
			t.Errorf("provision %s: %+v, want %s", tc.provision, r, tc.want)
		}
	}
}
