package catalog

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// derivedContent is a small content tree for the derived lists: RBI's
// and NPCI's circulars (some about UPI), the RBI body, the UPI network,
// an event with editions and Sibos with its collection. Each circular is
// given as source, date and title; sup names one it supersedes.
func derivedContent(dates map[string]string, gffEnd2025, sibos2026Status string) fstest.MapFS {
	circ := func(slug, source, title, extra string) *fstest.MapFile {
		return &fstest.MapFile{Data: fmt.Appendf(nil,
			"---\ntitle: %q\nsource: %s\ncategory: Payment Systems\npublishedDate: %s\nimpactLevel: low\nentityImpact:\n  PSP: low\nsourceUrl: https://example.org/%s\nsourceKind: report\n%s---\nbody\n",
			title, source, dates[slug], slug, extra)}
	}
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		"circulars/rbi-lite.md":     circ("rbi-lite", "RBI", "UPI Lite limits raised", ""),
		"circulars/rbi-cards.md":    circ("rbi-cards", "RBI", "Card data storage", ""),
		"circulars/rbi-neft.md":     circ("rbi-neft", "RBI", "NEFT timings", ""),
		"circulars/rbi-old-neft.md": circ("rbi-old-neft", "RBI", "NEFT timings before", ""),
		"circulars/rbi-new-neft.md": circ("rbi-new-neft", "RBI", "NEFT timings replaced", "supersedes:\n- rbi-old-neft\n"),
		// "upi" inside a word, and the acronym in lower case, are not UPI
		"circulars/npci-ids.md":     circ("npci-ids", "NPCI", "UPI transaction IDs", ""),
		"circulars/npci-grupi.md":   circ("npci-grupi", "NPCI", "Grupi handles and upi ids", ""),
		"circulars/npci-unified.md": circ("npci-unified", "NPCI", "Unified Payments Interface: collect requests end", ""),
		"bodies/rbi.md":             file("---\nname: Reserve Bank of India\nshortName: RBI\nkeyFunctions:\n- Regulates payments\n---\n"),
		"networks/upi.md": file("---\nname: UPI (NPCI)\ndescription: The UPI rail.\nguidelines:\n- One rule\nguidelinesAsOf: 2025-01-01\n" +
			"circularTerms:\n- UPI\n- Unified Payments Interface\n---\n"),
		"events/gff.md": file("---\nname: GFF\ngroup: major\neditions:\n" +
			"- {year: 2026, startDate: 2026-09-08, endDate: 2026-09-11, location: Mumbai, status: upcoming, sourceUrl: \"https://example.org/gff26\"}\n" +
			"- {year: 2025, startDate: 2025-10-07, endDate: " + gffEnd2025 + ", location: Mumbai, status: upcoming, sourceUrl: \"https://example.org/gff25\"}\n" +
			"---\n\nAbout.\n"),
		"events/sibos.md": file("---\nname: Sibos\ngroup: major\n---\n\nAbout.\n"),
		"sibos/2026.md":   file("---\ntitle: Sibos 2026\nyear: 2026\nstatus: " + sibos2026Status + "\nstartDate: 2026-09-28\nendDate: 2026-10-01\n---\n\nMiami.\n"),
		"sibos/2027.md":   file("---\ntitle: Sibos 2027\nyear: 2027\nstatus: upcoming\nlocation: Singapore\n---\n\nSingapore.\n"),
	}
}

// TestDerivedLists changes circulars' dates and editions' dates and sees
// each derived list follow: a body's recent updates, a network's recent
// circulars, an event's next edition (and Sibos's, from its collection).
func TestDerivedLists(t *testing.T) {
	dates := map[string]string{
		"rbi-lite": "2025-01-10", "rbi-cards": "2025-03-01", "rbi-neft": "2024-06-01",
		"rbi-old-neft": "2023-01-01", "rbi-new-neft": "2024-01-01",
		"npci-ids": "2025-02-01", "npci-grupi": "2025-04-01", "npci-unified": "2024-12-01",
	}
	day := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	for _, tc := range []struct {
		name       string
		redate     map[string]string // circular slug to its new publishedDate
		gffEnd2025 string
		sibos2026  string // its status
		now        string
		body       []string // RBI's recent updates
		network    []string // UPI's recent circulars
		gff, sibos int      // the next editions' years (0: none)
		stale      []string // editions still called upcoming after their dates
	}{
		{name: "as written", gffEnd2025: "2025-10-09", sibos2026: "upcoming", now: "2025-06-01",
			// the replaced NEFT circular is left out; newest first
			body:    []string{"rbi-cards", "rbi-lite", "rbi-neft", "rbi-new-neft"},
			network: []string{"npci-ids", "rbi-lite", "npci-unified"},
			gff:     2025, sibos: 2026},
		{name: "a circular redated to the newest moves to the top of both lists", redate: map[string]string{"npci-unified": "2025-05-01", "rbi-neft": "2025-04-01"},
			gffEnd2025: "2025-10-09", sibos2026: "upcoming", now: "2025-06-01",
			body:    []string{"rbi-neft", "rbi-cards", "rbi-lite", "rbi-new-neft"},
			network: []string{"npci-unified", "npci-ids", "rbi-lite"},
			gff:     2025, sibos: 2026},
		{name: "a circular redated to the oldest moves to the bottom", redate: map[string]string{"rbi-cards": "2023-06-01", "rbi-lite": "2023-07-01"},
			gffEnd2025: "2025-10-09", sibos2026: "upcoming", now: "2025-06-01",
			body:    []string{"rbi-neft", "rbi-new-neft", "rbi-lite", "rbi-cards"},
			network: []string{"npci-ids", "npci-unified", "rbi-lite"},
			gff:     2025, sibos: 2026},
		{name: "on the edition's last day it is still next", gffEnd2025: "2025-10-09", sibos2026: "upcoming", now: "2025-10-09",
			body: []string{"rbi-cards", "rbi-lite", "rbi-neft", "rbi-new-neft"}, network: []string{"npci-ids", "rbi-lite", "npci-unified"},
			gff: 2025, sibos: 2026},
		{name: "the day after, the next one is", gffEnd2025: "2025-10-09", sibos2026: "upcoming", now: "2025-10-10",
			body: []string{"rbi-cards", "rbi-lite", "rbi-neft", "rbi-new-neft"}, network: []string{"npci-ids", "rbi-lite", "npci-unified"},
			gff: 2026, sibos: 2026, stale: []string{"GFF 2025"}},
		{name: "an edition's end date moved earlier passes it sooner", gffEnd2025: "2025-10-07", sibos2026: "upcoming", now: "2025-10-08",
			body: []string{"rbi-cards", "rbi-lite", "rbi-neft", "rbi-new-neft"}, network: []string{"npci-ids", "rbi-lite", "npci-unified"},
			gff: 2026, sibos: 2026, stale: []string{"GFF 2025"}},
		{name: "after every dated edition: none for GFF, Sibos's undated 2027", gffEnd2025: "2025-10-09", sibos2026: "completed", now: "2026-12-01",
			body: []string{"rbi-cards", "rbi-lite", "rbi-neft", "rbi-new-neft"}, network: []string{"npci-ids", "rbi-lite", "npci-unified"},
			gff: 0, sibos: 2027, stale: []string{"GFF 2025", "GFF 2026"}},
		{name: "Sibos 2026 still called upcoming after its dates", gffEnd2025: "2025-10-09", sibos2026: "upcoming", now: "2026-12-01",
			body: []string{"rbi-cards", "rbi-lite", "rbi-neft", "rbi-new-neft"}, network: []string{"npci-ids", "rbi-lite", "npci-unified"},
			gff: 0, sibos: 2027, stale: []string{"GFF 2025", "GFF 2026", "Sibos 2026"}},
		{name: "an undated edition of a past year is past", gffEnd2025: "2025-10-09", sibos2026: "completed", now: "2028-01-01",
			body: []string{"rbi-cards", "rbi-lite", "rbi-neft", "rbi-new-neft"}, network: []string{"npci-ids", "rbi-lite", "npci-unified"},
			gff: 0, sibos: 0, stale: []string{"GFF 2025", "GFF 2026", "Sibos 2027"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := maps.Clone(dates)
			maps.Copy(d, tc.redate)
			now := day(tc.now)
			cat, err := LoadFS(derivedContent(d, tc.gffEnd2025, tc.sibos2026), "content", func() time.Time { return now })
			if err != nil {
				t.Fatal(err)
			}
			if got := circularSlugs(cat.RecentFrom(cat.Bodies[0].Source(), now, RecentLimit)); !slices.Equal(got, tc.body) {
				t.Errorf("RBI's recent updates = %v, want %v", got, tc.body)
			}
			if got := circularSlugs(cat.AboutNetwork(cat.Networks[0], now, RecentLimit)); !slices.Equal(got, tc.network) {
				t.Errorf("UPI's recent circulars = %v, want %v", got, tc.network)
			}
			var stale []string
			for _, ev := range cat.Events {
				want := map[string]int{"gff": tc.gff, "sibos": tc.sibos}[ev.Slug]
				got := 0
				if e := ev.NextEdition(now); e != nil {
					got = e.Year
				}
				if got != want {
					t.Errorf("%s's next edition = %d, want %d", ev.Slug, got, want)
				}
				for _, e := range ev.Editions {
					if e.StaleStatus(now) {
						stale = append(stale, fmt.Sprintf("%s %d", ev.Name, e.Year))
					}
				}
			}
			slices.Sort(stale)
			if !slices.Equal(stale, tc.stale) {
				t.Errorf("stale editions = %v, want %v", stale, tc.stale)
			}
		})
	}
}

func TestRecentFrom_LimitAndNoSource(t *testing.T) {
	var cat Catalog
	for i := range 8 {
		var d Date
		_ = d.UnmarshalText(fmt.Appendf(nil, "2025-01-%02d", i+1))
		cat.Circulars = append(cat.Circulars, Circular{Entry: Entry{Slug: fmt.Sprint("c", i)}, Source: "SEBI", PublishedDate: d})
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	got := cat.RecentFrom("SEBI", now, RecentLimit)
	if len(got) != RecentLimit || got[0].Slug != "c7" || got[4].Slug != "c3" {
		t.Errorf("RecentFrom = %v, want c7..c3", got)
	}
	if cat.Circulars[0].Slug != "c0" {
		t.Errorf("RecentFrom sorted the catalog's own list: it starts with %s", cat.Circulars[0].Slug)
	}
	// a body whose short name is no catalog source has no circulars
	if b := (PaymentBody{ShortName: "XYZ"}); b.Source() != "" || cat.RecentFrom(b.Source(), now, RecentLimit) != nil {
		t.Errorf("a body of no source has recent circulars")
	}
	if got := (PaymentBody{ShortName: "PFRDA"}).Source(); got != "PFRDA" {
		t.Errorf("PFRDA's source = %q", got)
	}
}

func TestContainsTerm(t *testing.T) {
	for _, tc := range []struct {
		text, term string
		want       bool
	}{
		{"UPI Lite limits", "UPI", true},
		{"UPI-based payments", "UPI", true},
		{"(UPI)", "UPI", true},
		{"upi handles", "UPI", false}, // an acronym matches its case
		{"GRUPI handles", "UPI", false},
		{"UPI123", "UPI", false},
		{"the unified payments interface", "Unified Payments Interface", true}, // other terms in any case
		{"Unified Payments Interfaces", "Unified Payments Interface", false},
		{"RuPay cards", "RuPay", true},
		{"rupay cards", "RuPay", true},
		{"card networks", "card network", false},
		{"", "UPI", false},
		{"UPI", "", false},
		{"NPCI's UPI", "UPI", true},
		{"é UPI é", "UPI", true},
		{"éUPI", "UPI", false},
		// Devanagari: the four words of the title are whole words, and a
		// term never matches inside one through its vowel sign (ी, Mc) or
		// virama (्, Mn), which a letters-only rule took for boundaries.
		{"भारतीय रिज़र्व बैंक परिपत्र", "भारतीय", true},
		{"भारतीय रिज़र्व बैंक परिपत्र", "रिज़र्व बैंक", true},
		{"भारतीय रिज़र्व बैंक परिपत्र", "बैंक", true},
		{"भारतीय रिज़र्व बैंक परिपत्र", "परिपत्र", true},
		{"भारतीय रिज़र्व बैंक परिपत्र", "भारत", false},
		{"भारतीय रिज़र्व बैंक परिपत्र", "परिपत", false},
		{"क्\u200dष", "क्", false},
	} {
		if got := containsTerm(tc.text, tc.term); got != tc.want {
			t.Errorf("containsTerm(%q, %q) = %v, want %v", tc.text, tc.term, got, tc.want)
		}
	}
}

// TestUpperCase: upperCase is strings.ToUpper(s) == s.
func TestUpperCase(t *testing.T) {
	for _, s := range []string{"", "UPI", "upi", "Upi", "NEFT/RTGS", "e-RUPI", "RuPay", "ß", "SS", "ÉTAT", "été", "ǅ", "Ǆ", "यूपीआई", "123", "Σ", "σ"} {
		if got, want := upperCase(s), strings.ToUpper(s) == s; got != want {
			t.Errorf("upperCase(%q) = %t, want %t", s, got, want)
		}
	}
}

// TestAboutNetworks: one walk for every network finds what AboutNetwork
// finds for each, over random catalogs (unsorted too), terms and limits.
func TestAboutNetworks(t *testing.T) {
	words := []string{"UPI", "upi", "NEFT", "RuPay", "rupay", "Bharat BillPay", "bharat billpay", "cards", "e-RUPI", "payments", "Lite"}
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(n int) string {
		var parts []string
		for range n {
			parts = append(parts, words[rng.IntN(len(words))])
		}
		return strings.Join(parts, " ")
	}
	for seed := range 40 {
		cat := &Catalog{}
		for i := range 200 {
			c := Circular{Entry: Entry{Slug: fmt.Sprintf("c-%03d", i)}, Title: pick(3), Summary: OptString(pick(rng.IntN(3))),
				PublishedDate: Date{now.AddDate(0, 0, -rng.IntN(400))}}
			if rng.IntN(5) == 0 {
				c.WithdrawnOn = &Date{now.AddDate(0, 0, -rng.IntN(30))}
			}
			cat.Circulars = append(cat.Circulars, c)
		}
		if seed%2 == 0 {
			sortStableByKey(cat.Circulars, newestFirstKey, compareNewestFirst) // as the loader leaves them
		}
		var ns []Network
		for range 6 {
			var terms TextList
			for range rng.IntN(3) {
				terms = append(terms, words[rng.IntN(len(words))])
			}
			ns = append(ns, Network{CircularTerms: terms})
		}
		for _, limit := range []int{0, 1, 3, RecentLimit, 500} {
			got := cat.AboutNetworks(ns, now, limit)
			for i, n := range ns {
				if want := cat.AboutNetwork(n, now, limit); !slices.EqualFunc(got[i], want, func(a, b Circular) bool { return a.Slug == b.Slug }) {
					t.Fatalf("seed %d, limit %d, terms %q: %v, want %v", seed, limit, n.CircularTerms, circularSlugs(got[i]), circularSlugs(want))
				}
			}
		}
	}
}

// circularSlugs is the slugs of cs, in order.
func circularSlugs(cs []Circular) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Slug)
	}
	return out
}
