package ai

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnsupported(t *testing.T) {
	const source = `Circular RBI/2025-26/45 dated 15.09.2025. Non-bank aggregators need a net worth of ₹15 crore,
and cross-border payments are capped at Rs. 25 lakh. The framework applies from 1 April 2026; a fee of 2.5% applies.
Complaints are settled within thirty days.`
	for _, tc := range []struct {
		name, output string
		want         []string
	}{
		{"Supported", "From April 1, 2026, aggregators need ₹15 crore; the cap is INR 25,00,000 and the fee 2.5 per cent.", nil},
		{"DateSpellings", "Dated 2025-09-15, or 15 September 2025, or Sept 15, 2025, in force from 01/04/2026.", nil},
		{"PartsOfDates", "It applies from April 2026, from 1 April, in 2026.", nil},
		{"NumberWord", "Complaints are settled within 30 days.", nil},
		{"Identifier", "See RBI/2025-26/45.", nil},
		{"InventedDate", "The framework applies from 1 May 2026.", []string{"1 May 2026"}},
		{"InventedMonth", "It applies from June 2026.", []string{"June 2026"}},
		{"InventedAmount", "The cap is ₹20 lakh.", []string{"₹20 lakh"}},
		{"ScaleMatters", "Aggregators need ₹15 lakh.", []string{"₹15 lakh"}},
		{"InventedPercentage", "The fee is 3%.", []string{"3%"}},
		{"InventedNumber", "Complaints are settled within 60 days.", []string{"60 days"}},
		{"InventedDurationInWords", "Complaints are settled within six weeks.", []string{"six weeks"}},
		{"DurationUnitMatters", "Complaints are settled within thirty hours.", []string{"thirty hours"}},
		{"InventedTime", "Pay by 10:30 am.", []string{"10:30 am"}},
		{"CountsInWordsNotHeld", "One of three rules applies to two kinds of entity.", nil},
		{"Several", "By 2 March 2027 pay Rs 7 crore.", []string{"2 March 2027", "Rs 7 crore"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Unsupported(tc.output, source)); diff != "" {
				t.Errorf("Unsupported(%q) (-want +got):\n%s", tc.output, diff)
			}
		})
	}
}

func TestCorrection(t *testing.T) {
	got := Correction([]string{"1 May 2026", "₹20 lakh"})
	want := `Your previous answer stated "1 May 2026", "₹20 lakh", which the source text does not state. ` +
		"Answer again using only numbers, dates, percentages and amounts that appear in the source text."
	if got != want {
		t.Errorf("Correction = %q, want %q", got, want)
	}
}
