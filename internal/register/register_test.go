package register

import (
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
)

func TestGroup(t *testing.T) {
	now := time.Date(2026, 11, 26, 23, 30, 0, 0, time.UTC)
	d := func(s string) *catalog.Date {
		var x catalog.Date
		if err := x.UnmarshalText([]byte(s)); err != nil {
			t.Fatal(err)
		}
		return &x
	}
	since := time.Date(2026, 10, 1, 18, 0, 0, 0, time.UTC) // the day counts, not the hour
	for _, tc := range []struct {
		due  *catalog.Date
		want string
	}{
		{nil, GroupNoDate},
		{d("2026-11-25"), GroupOverdue},
		{d("2026-10-01"), GroupOverdue}, // due the day tracking began
		{d("2026-09-30"), GroupInForce},
		{d("2020-01-01"), GroupInForce},
		{d("2026-11-26"), GroupThisMonth},
		{d("2026-11-30"), GroupThisMonth},
		{d("2026-12-01"), GroupLater},
	} {
		if got := Group(tc.due, since, now); got != tc.want {
			t.Errorf("Group(%v) = %s, want %s", tc.due, got, tc.want)
		}
	}
	// A register tracking since today: every past date is in force.
	if got := Group(d("2026-11-25"), now, now); got != GroupInForce {
		t.Errorf("tracking since today: %s, want %s", got, GroupInForce)
	}
}

func TestScoreOf(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tally Tally
		want  int // -1: null
		app   int
	}{
		{"None", Tally{}, -1, 0},
		{"AllTodo", Tally{"high": {StatusTodo: 2}}, 0, 2},
		{"Weighted", Tally{"high": {StatusDone: 1}, "low": {StatusTodo: 1}}, 75, 2},
		{"NotApplicableSettles", Tally{"medium": {StatusNotApplicable: 1, StatusInProgress: 1}}, 50, 2},
		{"AllDone", Tally{"high": {StatusDone: 1}, "medium": {StatusNotApplicable: 3}}, 100, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ScoreOf(tc.tally, []string{"PSP"})
			switch {
			case tc.want < 0 && s.Score != nil, tc.want >= 0 && (s.Score == nil || *s.Score != tc.want), s.Applicable != tc.app:
				t.Errorf("ScoreOf = %+v, want %d of %d", s, tc.want, tc.app)
			}
		})
	}
}

func TestStatusOfDecision(t *testing.T) {
	for _, tc := range []struct{ decision, want string }{
		{"", StatusTodo},
		{decisions.StatusNew, StatusTodo},
		{decisions.StatusAssessing, StatusInProgress},
		{decisions.StatusActionPlanned, StatusInProgress},
		{decisions.StatusDone, StatusDone},
		{decisions.StatusNotApplicable, StatusNotApplicable},
		{"unknown", StatusTodo},
	} {
		if got := StatusOfDecision(tc.decision); got != tc.want {
			t.Errorf("StatusOfDecision(%q) = %q, want %q", tc.decision, got, tc.want)
		}
	}
	// Every status of a decision is mapped: a new one would be to do silently.
	for _, s := range decisions.Statuses {
		if _, ok := decisionStatuses[s]; !ok {
			t.Errorf("decision status %q has no register status", s)
		}
	}
}
