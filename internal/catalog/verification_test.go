package catalog

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestLoad_Verification(t *testing.T) {
	const official = "officialUrl: https://rbi.org.in/x\n"
	for _, tc := range []struct {
		name, lines string
		want        OptString
	}{
		{"Checked", official + "verification: checked\n", "checked"},
		{"Reported", "verification: reported\n", "reported"},
		{"Pending", official + "verification: pending\n", "pending"},
		// Not stated: derived from the links.
		{"DerivedReported", "sourceKind: report\n", "reported"},
		{"DerivedReportedUnofficial", "sourceKind: unofficial\n", "reported"},
		{"DerivedReportedNull", "sourceKind: report\nverification:\n", "reported"},
		{"DerivedPending", official + "sourceKind: report\n", "pending"},
		{"DerivedPendingUnlabelledSource", official + "sourceKind:\n", "pending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": circularFile("2026-01-01", tc.lines)})
			if problems != nil {
				t.Fatal(problems)
			}
			c := cat.Circulars[0]
			if c.Verification != tc.want {
				t.Errorf("Verification = %q, want %q", c.Verification, tc.want)
			}
			if derived := strings.HasPrefix(tc.name, "Derived"); c.VerificationDerived != derived {
				t.Errorf("VerificationDerived = %v, want %v", c.VerificationDerived, derived)
			}
		})
	}

	// An unlabelled sourceUrl on the regulator's own site is official, as
	// a report there would be refused: pending.
	t.Run("DerivedPendingRegulatorSite", func(t *testing.T) {
		cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": {Data: []byte(
			"---\ntitle: t\nsource: RBI\ncategory: UPI\npublishedDate: 2026-01-01\nimpactLevel: low\nentityImpact: {PSP: low}\nsourceUrl: https://www.rbi.org.in/x\n---\nbody\n")}})
		if problems != nil {
			t.Fatal(problems)
		}
		if c := cat.Circulars[0]; c.Verification != "pending" || c.SourceKind != "official" {
			t.Errorf("Verification %q, SourceKind %q; want pending, official", c.Verification, c.SourceKind)
		}
	})

	for _, tc := range []struct {
		name, lines string
		want        []string
	}{
		// Neither stated nor derivable: the source's kind is not given.
		{"ErrNotStatedNorDerivable", "sourceKind:\n", []string{
			"content/circulars/a.md:9: verification: not stated, and sourceUrl says not what it is: state verification (checked, reported or pending), or sourceKind (report or unofficial) to derive it"}},
		{"ErrNotStatedNorDerivableNull", "sourceKind:\nverification:\n", []string{
			"content/circulars/a.md:9: verification: not stated, and sourceUrl says not what it is: state verification (checked, reported or pending), or sourceKind (report or unofficial) to derive it"}},
		{"ErrUnknownValue", "verification: verified\n", []string{
			`content/circulars/a.md:10: verification: unknown value "verified" (allowed: checked, reported, pending)`}},
		// Values are spelled as the API filters them: no other case.
		{"ErrCase", "verification: Reported\n", []string{
			`content/circulars/a.md:10: verification: unknown value "Reported" (allowed: checked, reported, pending)`}},
		{"ErrList", "verification:\n  - reported\n", []string{
			"content/circulars/a.md:11: verification: must be a single value, not a list or map"}},
		{"ErrCheckedWithoutOfficialURL", "verification: checked\n", []string{
			"content/circulars/a.md:10: verification: checked needs officialUrl: the regulator's text it was checked against"}},
		// A bad link is reported as such, and the check still has no text.
		{"ErrCheckedWithBadOfficialURL", "officialUrl: not-a-link\nverification: checked\n", []string{
			`content/circulars/a.md:10: officialUrl: not a valid http(s) URL: "not-a-link"`,
			"content/circulars/a.md:11: verification: checked needs officialUrl: the regulator's text it was checked against"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := problemsOf(t, fstest.MapFS{"circulars/a.md": circularFile("2026-01-01", tc.lines)})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}

	// An unpublished file's value is checked all the same: it is wrong,
	// not missing.
	t.Run("ErrUnknownValueUnpublished", func(t *testing.T) {
		_, got := problemsOf(t, fstest.MapFS{"circulars/a.md": circularFile("2026-01-01", "published: false\nverification: maybe\n")})
		want := []string{`content/circulars/a.md:11: verification: unknown value "maybe" (allowed: checked, reported, pending)`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
	})
}

func TestCircular_AwaitsVerification(t *testing.T) {
	for v, want := range map[OptString]bool{"": false, "checked": false, "reported": true, "pending": true} {
		if got := (Circular{Verification: v}).AwaitsVerification(); got != want {
			t.Errorf("AwaitsVerification() with %q = %v, want %v", v, got, want)
		}
	}
}

// Every value has the label cards show and the note pages show, and no
// label is given for a value the loader refuses.
func TestVerificationLabels(t *testing.T) {
	for _, v := range Verifications {
		if VerificationLabel(v) == "" || VerificationNote(v) == "" {
			t.Errorf("%s: label %q, note %q", v, VerificationLabel(v), VerificationNote(v))
		}
	}
	if len(verificationLabels) != len(Verifications) || len(verificationNotes) != len(Verifications) {
		t.Errorf("%d labels and %d notes for %d values", len(verificationLabels), len(verificationNotes), len(Verifications))
	}
	if VerificationLabel("") != "" || VerificationNote("") != "" {
		t.Error("an absent verification has a label or note")
	}
	for _, v := range UncheckedVerifications {
		if VerificationLabel(v) == "" {
			t.Errorf("unchecked verification %q is not a value", v)
		}
	}
}
