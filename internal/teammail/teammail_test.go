package teammail_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teammail"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestKind(t *testing.T) {
	today := storetest.Date("2025-06-30")
	for _, tc := range []struct {
		due, want string
	}{
		{"2025-06-29", teammail.KindOverdue},
		{"2024-01-01", teammail.KindOverdue},
		{"2025-06-30", teammail.KindDueSoon},
		{"2025-07-07", teammail.KindDueSoon},
		{"2025-07-08", ""},
	} {
		if got := teammail.Kind(storetest.Date(tc.due), today); got != tc.want {
			t.Errorf("Kind(%s) on %s = %q, want %q", tc.due, today, got, tc.want)
		}
	}
}

// fakeCatalog holds one of each subject.
type fakeCatalog struct{}

func (fakeCatalog) Circular(_ context.Context, id string) (catalog.Circular, error) {
	if id != "c-1" {
		return catalog.Circular{}, catalog.ErrNotFound
	}
	return catalog.Circular{Entry: catalog.Entry{ID: id, Slug: "rbi-2025-06-20-upi-fraud-controls"}, Title: "UPI fraud risk controls"}, nil
}

func (fakeCatalog) ObligationByID(_ context.Context, id string) (catalog.Obligation, error) {
	if id != "o-1" {
		return catalog.Obligation{}, catalog.ErrNotFound
	}
	return catalog.Obligation{ID: id, What: "Report frauds to the bank ", CircularSlug: "rbi-2025-06-20-upi-fraud-controls",
		CircularTitle: "UPI fraud risk controls"}, nil
}

func (fakeCatalog) Direction(_ context.Context, slug string) (catalog.MasterDirection, error) {
	if slug != "kyc" {
		return catalog.MasterDirection{}, errors.New("the store broke")
	}
	return catalog.MasterDirection{Title: "Master Direction – KYC"}, nil
}

// TestSubjectPage: each kind of subject's title and page; one the
// catalog lost is named and linked to the organisation; a store's
// failure is an error.
func TestSubjectPage(t *testing.T) {
	for _, tc := range []struct {
		s       decisions.Subject
		want    teammail.Page
		wantErr bool
	}{
		{decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"},
			teammail.Page{Title: "UPI fraud risk controls", Path: "/circulars/rbi-2025-06-20-upi-fraud-controls"}, false},
		{decisions.Subject{Type: decisions.SubjectObligation, ID: "o-1"},
			teammail.Page{Title: "Report frauds to the bank (UPI fraud risk controls)", Path: "/circulars/rbi-2025-06-20-upi-fraud-controls#obligations-heading"}, false},
		{decisions.Subject{Type: decisions.SubjectProvision, ID: "kyc", Provision: "15(a)(i)"},
			teammail.Page{Title: "Master Direction – KYC, paragraph 15(a)(i)", Path: catalog.DirectionPath("kyc") + "/#" + catalog.ProvisionAnchor("15(a)(i)")}, false},
		{decisions.Subject{Type: decisions.SubjectCircular, ID: "gone"}, teammail.Page{Title: "circular gone", Path: "/organisation"}, false},
		{decisions.Subject{Type: decisions.SubjectProvision, ID: "other", Provision: "1"}, teammail.Page{}, true},
	} {
		got, err := teammail.SubjectPage(t.Context(), fakeCatalog{}, tc.s)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("SubjectPage(%v) = %+v, %v; want %+v (error %v)", tc.s, got, err, tc.want, tc.wantErr)
		}
	}
}
