package catalog

import (
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
		{"Absent", "", ""},
		{"Checked", official + "verification: checked\n", "checked"},
		{"Reported", "verification: reported\n", "reported"},
		{"Pending", official + "verification: pending\n", "pending"},
		{"Null", "verification:\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": circularFile("2026-01-01", tc.lines)})
			if problems != nil {
				t.Fatal(problems)
			}
			if got := cat.Circulars[0].Verification; got != tc.want {
				t.Errorf("Verification = %q, want %q", got, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		name, lines string
		want        []string
	}{
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
