package decisions

import (
	"slices"
	"strings"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/teams"
)

func day(s string) *catalog.Date {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return &catalog.Date{Time: t}
}

func TestResolveDue(t *testing.T) {
	facts := Facts{Effective: day("2026-04-01"), Deadline: day("2026-06-30")}
	for _, c := range []struct {
		due, subject string
		facts        Facts
		want, err    string
	}{
		{"", SubjectCircular, facts, "", ""},
		{"2026-05-15", SubjectProvision, Facts{}, "2026-05-15", ""},
		{"effective+30d", SubjectCircular, facts, "2026-05-01", ""},
		{"Effective-1d", SubjectObligation, facts, "2026-03-31", ""},
		{"deadline-14d", SubjectObligation, facts, "2026-06-16", ""},
		{"deadline+0d", SubjectObligation, facts, "2026-06-30", ""},
		{"effective+30d", SubjectCircular, Facts{}, "", "no effective date"},
		{"deadline-14d", SubjectObligation, Facts{Effective: facts.Effective}, "", "no dated deadline"},
		{"deadline-14d", SubjectCircular, facts, "", "only an obligation"},
		{"effective+3d", SubjectProvision, facts, "", "a provision has no effective date"},
		{"effective+30", SubjectCircular, facts, "", "use a date"},
		{"2026-02-30", SubjectCircular, facts, "", "use a date"},
		{"next week", SubjectCircular, facts, "", "use a date"},
	} {
		got, err := ResolveDue(c.due, c.subject, c.facts)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q on a %s: %v, want an error with %q", c.due, c.subject, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q on a %s: %v", c.due, c.subject, err)
		case c.err == "" && c.want == "" && got != nil:
			t.Errorf("%q: %v, want none", c.due, got)
		case c.want != "" && (got == nil || got.String() != c.want):
			t.Errorf("%q on a %s: %v, want %s", c.due, c.subject, got, c.want)
		}
	}
}

func TestDecision_Check(t *testing.T) {
	for _, c := range []struct {
		name  string
		d     Decision
		field string // "" for none
	}{
		{"applicable", Decision{Applicability: Applicable, Status: StatusAssessing}, ""},
		{"unknown applicability", Decision{Applicability: "maybe"}, "applicability"},
		{"not applicable needs a reason", Decision{Applicability: NotApplicable}, "reason"},
		{"an unknown reason", Decision{Applicability: NotApplicable, Reason: "lazy"}, "reason"},
		{"a reason", Decision{Applicability: NotApplicable, Reason: ReasonDuplicate}, ""},
		{"other needs a note", Decision{Applicability: NotApplicable, Reason: ReasonOther, Note: "  "}, "note"},
		{"other with a note", Decision{Applicability: NotApplicable, Reason: ReasonOther, Note: "we hold no cards"}, ""},
		{"a reason when applicable", Decision{Applicability: Applicable, Reason: ReasonDuplicate}, "reason"},
		{"deferred needs a date", Decision{Applicability: Deferred}, "deferredUntil"},
		{"deferred", Decision{Applicability: Deferred, DeferredUntil: day("2026-09-01")}, ""},
		{"a date when not deferred", Decision{Applicability: Applicable, DeferredUntil: day("2026-09-01")}, "deferredUntil"},
		{"unknown status", Decision{Applicability: Applicable, Status: "started"}, "status"},
		{"a long note", Decision{Applicability: Applicable, Note: catalog.OptString(strings.Repeat("x", MaxNote+1))}, "note"},
	} {
		f := c.d.Check()
		if c.field == "" && len(f) != 0 || c.field != "" && (len(f) != 1 || f[c.field] == "") {
			t.Errorf("%s: %v, want a fault of %q", c.name, f, c.field)
		}
	}
}

func TestMentioned(t *testing.T) {
	members := []teams.Member{{UserID: "u1", Username: "asha"}, {UserID: "u2", Username: "Ravi.K"}, {UserID: "u3", Username: "meera-s"}}
	for _, c := range []struct {
		body string
		want []string
	}{
		{"@asha please look", []string{"u1"}},
		{"ask @ravi.k and @ASHA, then @asha again.", []string{"u2", "u1"}},
		{"@meera-s: done? cc @nobody", []string{"u3"}},
		{"mail asha@example.com, not a mention", nil},
		{"@@asha", nil},
		{"(@asha)", []string{"u1"}},
		{"no one", nil},
	} {
		var got []string
		for _, m := range Mentioned(c.body, members) {
			got = append(got, m.UserID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.body, got, c.want)
		}
	}
}

func TestDecision_OverdueOn(t *testing.T) {
	today := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		status string
		due    *catalog.Date
		want   bool
	}{
		{StatusNew, day("2026-12-01"), true},
		{StatusActionPlanned, day("2026-11-01"), true},
		{StatusAssessing, day("2026-12-02"), false}, // due today is not late yet
		{StatusNew, day("2026-12-03"), false},
		{StatusNew, nil, false},
		{StatusDone, day("2026-11-01"), false},
		{StatusNotApplicable, day("2026-11-01"), false},
	} {
		if got := (Decision{Status: c.status, DueDate: c.due}).OverdueOn(today); got != c.want {
			t.Errorf("%s due %v: overdue %v, want %v", c.status, c.due, got, c.want)
		}
	}
}

// TestLabel: every value a page offers has a name.
func TestLabel(t *testing.T) {
	for _, list := range [][]string{Applicabilities, Reasons, Statuses, EvidenceStates, ReopenReasons} {
		for _, v := range list {
			if Label(v) == "" {
				t.Errorf("%q has no label", v)
			}
		}
	}
}
