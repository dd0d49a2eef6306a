package ingest

import (
	"testing"
	"time"
)

func TestRefKey(t *testing.T) {
	tests := []struct{ source, title, body, want string }{
		{"RBI", "RBI/2025-26/141 - Payment Aggregators", "", "RBI/2025-26/141"},
		{"RBI", "rbi/2025-2026/141 Payment Aggregators", "", "RBI/2025-26/141"},
		{"RBI", "Directions (RBI/DPSS/2021-22/82)", "", "RBI/DPSS/2021-22/82"},
		{"RBI", "RBI/2019-20/47 DPSS.CO.PD.No.447/02.14.003/2019-20: Tokenisation", "",
			"DPSS.CO.PD.447/02.14.003/2019-20 RBI/2019-20/47"},
		{"RBI", "DPSS.CO.PD No.447/02-14-003/2019-2020", "", "DPSS.CO.PD.447/02.14.003/2019-20"},
		// Hindi: भारिबैं is RBI and Devanagari digits are digits.
		{"RBI", "भारिबैं/2020-21/60 परिपत्र", "", "RBI/2020-21/60"},
		{"RBI", "भारिबैं/२०२०-२१/६०", "", "RBI/2020-21/60"},
		{"RBI", "भारिबैं / 2020-21 / 60", "", "RBI/2020-21/60"},
		// The body's head when the title has none; not numbers further on.
		{"RBI", "Fixture press release 4", "Ref. RBI/2025-26/9 dated ...", "RBI/2025-26/9"},
		{"RBI", "Fixture press release 5", string(make([]byte, refHead)) + " supersedes RBI/2019-20/1", ""},
		{"SEBI", "Circular SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/0000013 on UPI", "", "SEBI/HO/MIRSD/MIRSD-POD/P/CIR/2025/13"},
		{"SEBI", "sebi/ho/mirsd/mirsd-pod/p/cir/2025/13", "", "SEBI/HO/MIRSD/MIRSD-POD/P/CIR/2025/13"},
		// NPCI: the OC number with its addendum's letter, as the listing,
		// the circular and the PDF's name print it.
		{"NPCI", "UPI | OC No. 228 | FY 2025-26 | Fixture enhancement", "", "NPCI:UPI:OC:228"},
		{"NPCI", "NPCI/UPI/OC No. 228/2025-26", "", "NPCI:UPI:OC:228"},
		{"NPCI", "UPI | OC No. 208A | FY 2025-26 | Fixture addendum", "", "NPCI:UPI:OC:208A"},
		{"NPCI", "UPI OC No 215 A FY 2025 26 Guidelines pdf", "", "NPCI:UPI:OC:215A"},
		{"NPCI", "UPI OC No 193 C FY 24 25 Addendum to OC 193", "", "NPCI:UPI:OC:193C"},
		{"NPCI", "IMPS OC No. 12", "", "NPCI:IMPS:OC:12"},
		// The OC an addendum amends is not its number; without its own,
		// it has none.
		{"NPCI", "Addendum to OC 193 on fixture specifications", "", ""},
		{"NPCI", "UPI OC No 193 C FY 24 25 Addendum to OC 193 compliance", "", "NPCI:UPI:OC:193C"},
		{"NPCI", "OC No. 908A Fixture addendum to OC 908", "", "NPCI:UPI:OC:908A"},
		// An OC number means nothing outside NPCI; no number, no key.
		{"RBI", "OC No. 228", "", ""},
		{"RBI", "Master Direction – Know Your Customer (KYC) Direction, 2025", "", ""},
		{"RBI", "Press Release: 2025-2026/1520", "", ""},
	}
	for _, tt := range tests {
		if got := RefKey(tt.source, tt.title, tt.body); got != tt.want {
			t.Errorf("RefKey(%s, %q) = %q, want %q", tt.source, tt.title, got, tt.want)
		}
	}
	if RefKey("NPCI", "OC No. 208", "") == RefKey("NPCI", "OC No. 208A", "") {
		t.Error("an addendum has the identity of the OC it amends")
	}
}

func TestIndexNeverMergesDifferentRefs(t *testing.T) {
	day := time.Date(2025, 11, 28, 0, 0, 0, 0, time.UTC)
	body := "Fixture body of an operating circular that its addenda repeat almost word for word, " +
		"saying which members must change what in their systems by which date and how they report it. " +
		"Members shall carry out the changes in their switch and their apps, test them with the fixture " +
		"network in its sandbox, certify them, and tell the network when they are live, keeping a record " +
		"of the tests for inspection; a member that cannot meet the date writes to the network beforehand."
	x := NewIndex()
	x.Add(Known{Identity: Identify("NPCI", day, "UPI | OC No. 908 | Fixture limits", "https://npci.example.org/908", body)}, -1)
	for _, tt := range []struct {
		title, link string
		wantOK      bool
		wantRule    Rule
	}{
		{"UPI | OC No. 908A | Fixture limits", "https://npci.example.org/908a", false, ""},
		{"Fixture limits", "https://npci.example.org/908-copy", true, BySimHash},
		{"UPI | OC No. 908 | Fixture limits (repost)", "https://npci.example.org/repost/908", true, ByRef},
		{"x", "https://NPCI.example.org/908/", true, ByLink},
	} {
		_, rule, ok := x.Match(Identify("NPCI", day.AddDate(0, 0, 1), tt.title, tt.link, body))
		if ok != tt.wantOK || rule != tt.wantRule {
			t.Errorf("%q: matched %v by %q, want %v by %q", tt.title, ok, rule, tt.wantOK, tt.wantRule)
		}
	}
	// Beyond the window, a near copy is another instrument.
	if _, rule, ok := x.Match(Identify("NPCI", day.AddDate(0, 0, 8), "Fixture limits", "https://npci.example.org/x", body)); ok {
		t.Errorf("8 days later: matched by %s", rule)
	}
}
