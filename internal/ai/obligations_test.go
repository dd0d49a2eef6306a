package ai

import (
	"strings"
	"testing"

	"regpulse/internal/catalog"
)

func TestCheckObligations(t *testing.T) {
	c := catalog.Circular{Content: "Aggregators must settle funds by 31 March 2026.\n\nIssuers shall report frauds. The fee is ₹500."}
	due := func(s string) *catalog.Date {
		var d catalog.Date
		if err := d.UnmarshalText([]byte(s)); err != nil {
			t.Fatal(err)
		}
		return &d
	}
	ok := catalog.Obligation{AppliesTo: catalog.TextList{"Aggregator"}, What: "Settle funds.", Kind: "new-requirement",
		Deadline: "by 31 March 2026", DueDate: due("2026-03-31"), SourceText: "Aggregators must settle funds by 31 March 2026."}
	for _, tc := range []struct {
		name  string
		edit  func(o *catalog.Obligation)
		fault string
	}{
		{"Kept", func(*catalog.Obligation) {}, ""},
		{"ErrDateNotInSentence", func(o *catalog.Obligation) { o.SourceText = "Issuers shall report frauds."; o.Deadline = "" },
			`states "2026-03-31", which its source sentence does not`},
		// A value the text states elsewhere is still not the sentence's.
		{"ErrAmountElsewhere", func(o *catalog.Obligation) { o.What = "Settle funds and pay ₹500." }, `states "₹500"`},
		{"ErrPeriod", func(o *catalog.Obligation) { o.What = "Settle funds within 30 days." }, `states "30 days"`},
		{"ErrSourceNotInText", func(o *catalog.Obligation) { o.SourceText = "Aggregators must settle funds." }, "not in the text"},
		{"ErrKind", func(o *catalog.Obligation) { o.Kind = "rule" }, `unknown kind "rule"`},
		{"ErrParty", func(o *catalog.Obligation) { o.AppliesTo = catalog.TextList{"Bank"} }, "appliesTo must name"},
		{"ErrEmptyWhat", func(o *catalog.Obligation) { o.What = " " }, "what is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.edit(&o)
			kept, faults := CheckObligations(c, []catalog.Obligation{o})
			if tc.fault == "" {
				if len(faults) > 0 || len(kept) != 1 || catalog.SliceUTF16(c.Content, kept[0].SourceStart, kept[0].SourceEnd) != o.SourceText {
					t.Fatalf("kept %+v, faults %v", kept, faults)
				}
				return
			}
			if len(kept) != 0 || len(faults) != 1 || !strings.Contains(faults[0], tc.fault) {
				t.Errorf("faults = %v, want one with %q", faults, tc.fault)
			}
		})
	}
}
