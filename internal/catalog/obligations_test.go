package catalog

import (
	"fmt"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// obligationFile is a circular whose body is text, with front matter
// lines extra.
func obligationFile(docType, text, extra string) *fstest.MapFile {
	return &fstest.MapFile{Data: fmt.Appendf(nil,
		"---\ntitle: t\nsource: RBI\ncategory: UPI\npublishedDate: 2026-01-01\ndocumentType: %s\nimpactLevel: high\nentityImpact: {PSP: high}\nsourceUrl: https://example.org/\nsourceKind: report\n%s---\n%s\n",
		docType, extra, text)}
}

const obligationText = "Banks shall report frauds within seven days.\n\nPayment aggregators must settle funds by 31 March 2026."

func TestLoad_Obligations(t *testing.T) {
	t.Run("Read", func(t *testing.T) {
		cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": obligationFile("circular", obligationText, `obligations:
  - appliesTo: [Aggregator]
    what: Settle funds by the date.
    kind: new-requirement
    deadline: 2026-03-31
    source: "Payment aggregators must settle funds by
      31 March 2026."
  - appliesTo: [all]
    what: Report frauds within seven days.
    kind: reporting
    deadline: within seven days
    source: Banks shall report frauds within seven days.
`)})
		if problems != nil {
			t.Fatal(problems)
		}
		c := cat.Circulars[0]
		due := Date{time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)}
		want := []Obligation{{
			CircularID: c.ID, Position: 1, AppliesTo: TextList{"Aggregator"}, What: "Settle funds by the date.",
			Kind: "new-requirement", DueDate: &due, Deadline: "2026-03-31", Binding: true,
			SourceText: "Payment aggregators must settle funds by 31 March 2026.", SourceStart: 46, SourceEnd: 101,
			Origin: OriginEditor, Accepted: true, CircularSlug: "a", CircularTitle: "t", Source: "RBI", ImpactLevel: "high",
		}, {
			CircularID: c.ID, Position: 2, AppliesTo: TextList{"all"}, What: "Report frauds within seven days.",
			Kind: "reporting", Deadline: "within seven days", Binding: true,
			SourceText: "Banks shall report frauds within seven days.", SourceStart: 0, SourceEnd: 44,
			Origin: OriginEditor, Accepted: true, CircularSlug: "a", CircularTitle: "t", Source: "RBI", ImpactLevel: "high",
		}}
		for i := range want {
			want[i].ID = c.Obligations[i].ID
		}
		if diff := cmp.Diff(want, c.Obligations); diff != "" {
			t.Errorf("obligations (-want +got):\n%s", diff)
		}
		if got := SliceUTF16(c.Content, c.Obligations[0].SourceStart, c.Obligations[0].SourceEnd); got != want[0].SourceText {
			t.Errorf("offsets hold %q", got)
		}
		if c.Obligations[0].ID == c.Obligations[1].ID || c.Obligations[0].ID != ObligationID(c.ID, want[0].SourceText, 0) {
			t.Errorf("ids %s %s are not the stable ones", c.Obligations[0].ID, c.Obligations[1].ID)
		}
	})
	t.Run("DraftBindsNoOne", func(t *testing.T) {
		cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": obligationFile("draft", obligationText,
			"obligations:\n  - {appliesTo: [PSP], what: w, kind: reporting, source: Banks shall report frauds within seven days.}\n")})
		if problems != nil {
			t.Fatal(problems)
		}
		if cat.Circulars[0].Obligations[0].Binding {
			t.Error("a draft's obligation binds")
		}
	})
	for _, tc := range []struct {
		name, lines string
		want        []string
	}{
		{"ErrNotAList", "obligations: yes\n", []string{
			"content/circulars/a.md:11: obligations: must be a list of {appliesTo, what, kind, deadline, source}"}},
		{"ErrUnknownKind", "obligations:\n  - {appliesTo: [PSP], what: w, kind: rule, source: Banks shall report frauds within seven days.}\n", []string{
			`content/circulars/a.md:12: obligations: unknown kind "rule" (allowed: new-requirement, amendment, prohibition, reporting, deadline-extension, repeal)`}},
		{"ErrUnknownParty", "obligations:\n  - appliesTo: [Bank]\n    what: w\n    kind: reporting\n    source: Banks shall report frauds within seven days.\n", []string{
			`content/circulars/a.md:12: obligations: unknown party "Bank" in appliesTo (allowed: PSP, Issuer, Aggregator, all)`}},
		{"ErrSourceNotInText", "obligations:\n  - appliesTo: [PSP]\n    what: w\n    kind: reporting\n    source: Banks shall report frauds at once.\n", []string{
			`content/circulars/a.md:15: obligations: source is not a sentence of the circular's text: "Banks shall report frauds at once."`}},
		{"ErrBadDate", "obligations:\n  - {appliesTo: [PSP], what: w, kind: reporting, deadline: 2026-02-30, source: Banks shall report frauds within seven days.}\n", []string{
			`content/circulars/a.md:12: obligations: bad date "2026-02-30" in deadline (want YYYY-MM-DD, or the rule as stated)`}},
		{"ErrBeforePublished", "obligations:\n  - {appliesTo: [PSP], what: w, kind: reporting, deadline: 2025-02-01, source: Banks shall report frauds within seven days.}\n", []string{
			`content/circulars/a.md:12: obligations: deadline 2025-02-01 is before publishedDate`}},
		{"ErrMissing", "obligations:\n  - {appliesTo: [PSP], kind: reporting}\n", []string{
			`content/circulars/a.md:12: obligations: an obligation needs what`,
			`content/circulars/a.md:12: obligations: an obligation needs source`}},
		{"ErrUnknownKey", "obligations:\n  - {appliesTo: [PSP], what: w, kind: reporting, due: soon, source: Banks shall report frauds within seven days.}\n", []string{
			`content/circulars/a.md:12: obligations: unknown key "due" in an obligation (want appliesTo, what, kind, deadline, source, cites)`}},
		{"ErrAllAlone", "obligations:\n  - {appliesTo: [all, PSP], what: w, kind: reporting, source: Banks shall report frauds within seven days.}\n", []string{
			`content/circulars/a.md:12: obligations: appliesTo: all stands alone`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": obligationFile("circular", obligationText, tc.lines)})
			if diff := cmp.Diff(tc.want, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
