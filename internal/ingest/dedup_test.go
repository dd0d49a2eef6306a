package ingest

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The dedup fixture: 50 known pairs (two copies of one instrument each)
// and 500 distinct items, among them near misses, all made up by the
// project: titles say "Fixture", links are on example.org, numbers are in
// ranges no regulator has used with these titles. Generated, not stored,
// so that the shapes are plain in the code below.

type fixtureItem struct {
	group                     int // the instrument: copies share it
	kind                      string
	source, title, link, body string
	date                      time.Time
}

var fixtureVocab = strings.Fields(`bank payment system member shall must report date return account customer
directions circular network card limit transaction merchant aggregator settlement rules apply entity regulated
compliance audit record data security fraud risk board policy review annual monthly quarterly submit portal form
within days from issue effect amend replace withdraw paragraph clause schedule annex wallet prepaid instrument
issuer acquirer gateway escrow nodal refund chargeback dispute grievance officer ombudsman disclosure consent
storage localisation tokenisation device authentication factor mandate recurring limit threshold cap fee charge
interest rate deposit credit loan borrower lender guarantee collateral capital adequacy liquidity exposure
reporting format template timeline penalty supervisory inspection examination cyber incident outage continuity
vendor outsourcing cloud provider agreement contract termination notice period applicability commencement`)

// fixtureBody is n words drawn with r, so two bodies share words but not
// their mix.
func fixtureBody(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fixtureVocab[r.IntN(len(fixtureVocab))]
	}
	return strings.Join(w, " ") + "."
}

// toDevanagari writes s's digits as Devanagari digits.
func toDevanagari(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '०' + (r - '0')
		}
		return r
	}, s)
}

func dedupFixture() (pairs [][2]fixtureItem, distinct []fixtureItem) {
	r := rand.New(rand.NewPCG(45, 45))
	day0 := time.Date(2025, 11, 3, 0, 0, 0, 0, time.UTC)
	g := 0
	pair := func(kind string, a, b fixtureItem) {
		g++
		a.group, b.group, a.kind, b.kind = g, g, kind, kind
		pairs = append(pairs, [2]fixtureItem{a, b})
	}
	for i := range 10 {
		// An RBI notification and its press release: the release's
		// title is its own; its first line gives the number.
		d, body := day0.AddDate(0, 0, i), fixtureBody(r, 150)
		n := fmt.Sprintf("RBI/2025-26/9%02d", i)
		pair("notification/press release",
			fixtureItem{source: "RBI", date: d, title: fmt.Sprintf("%s Fixture Directions on topic %d", n, i),
				link: fmt.Sprintf("https://rbi.example.org/notification/%d", 900+i), body: body},
			fixtureItem{source: "RBI", date: d, title: fmt.Sprintf("Fixture press release: RBI issues directions on topic %d", i),
				link: fmt.Sprintf("https://rbi.example.org/pressrelease/%d", 5000+i), body: "Ref. " + n + ". " + fixtureBody(r, 60)})
		// The English and the Hindi text: भारिबैं and Devanagari digits.
		d, n = day0.AddDate(0, 0, 11+i), fmt.Sprintf("2024-25/5%02d", i)
		pair("English/Hindi",
			fixtureItem{source: "RBI", date: d, title: fmt.Sprintf("RBI/%s Fixture circular on returns %d", n, i),
				link: fmt.Sprintf("https://rbi.example.org/en/%d", 500+i), body: fixtureBody(r, 120)},
			fixtureItem{source: "RBI", date: d, title: fmt.Sprintf("भारिबैं/%s फिक्स्चर परिपत्र %d", toDevanagari(n), i),
				link: fmt.Sprintf("https://rbi.example.org/hi/%d", 500+i), body: "फिक्स्चर परिपत्र का पाठ"})
		// The HTML page and the PDF: same title and day, no number.
		d = day0.AddDate(0, 0, 22+i)
		title := fmt.Sprintf("Fixture notice on settlement windows %d", i)
		pair("HTML/PDF",
			fixtureItem{source: "SEBI", date: d, title: title, link: fmt.Sprintf("https://sebi.example.org/html/%d.html", i), body: fixtureBody(r, 90)},
			fixtureItem{source: "SEBI", date: d, title: " " + strings.ToUpper(title[:1]) + title[1:] + " ", link: fmt.Sprintf("https://sebi.example.org/pdf/%d.pdf", i)})
		// NPCI's listing and its repost under another path, named by the
		// OC number (addenda among them).
		d = day0.AddDate(0, 0, 33+i)
		oc := fmt.Sprintf("3%02d", i)
		if i%3 == 1 {
			oc += "A"
		}
		pair("NPCI repost",
			fixtureItem{source: "NPCI", date: d, title: fmt.Sprintf("UPI | OC No. %s | FY 2025-26 | Fixture enhancement %d", oc, i),
				link: fmt.Sprintf("https://npci.example.org/uploads/UPI_OC_No_%s_FY_2025_26_fixture_%d.pdf", oc, i)},
			fixtureItem{source: "NPCI", date: d.AddDate(0, 0, 2), title: fmt.Sprintf("Fixture enhancement %d", i),
				link: fmt.Sprintf("https://npci.example.org/PDF/npci/upi/circular/2025/UPI-OC-No-%s-FY-2025-26-fixture-%d.pdf",
					strings.Replace(oc, "A", "-A", 1), i)})
		// A repost with no number, another title and a day later: the
		// text alone says it is the same (a sentence added). 500 words,
		// a short circular's length: on 200-word texts the added
		// sentence moved 2 of these 10 fingerprints by more than simBits,
		// so a short repost with no number may still become a draft.
		d, body = day0.AddDate(0, 0, 44+i), fixtureBody(r, 500)
		pair("repost (text only)",
			fixtureItem{source: "RBI", date: d, title: fmt.Sprintf("Fixture guidance note %d", i),
				link: fmt.Sprintf("https://rbi.example.org/guidance/%d", i), body: body},
			fixtureItem{source: "RBI", date: d.AddDate(0, 0, 1), title: fmt.Sprintf("Reposted: fixture guidance %d", i),
				link: fmt.Sprintf("https://repost.example.org/rbi/guidance-%d", i), body: body + " Reposted by the fixture desk for members."})
	}

	add := func(kind string, it fixtureItem) {
		g++
		it.group, it.kind = g, kind
		distinct = append(distinct, it)
	}
	// 200 RBI circulars with their own numbers, a few a day.
	for i := range 200 {
		add("RBI numbered", fixtureItem{source: "RBI", date: day0.AddDate(0, 0, i/4),
			title: fmt.Sprintf("RBI/2023-24/%d Fixture circular %d", 100+i, i),
			link:  fmt.Sprintf("https://rbi.example.org/c/%d", 10000+i), body: fixtureBody(r, 100)})
	}
	// 100 SEBI circulars.
	for i := range 100 {
		add("SEBI numbered", fixtureItem{source: "SEBI", date: day0.AddDate(0, 0, i/3),
			title: fmt.Sprintf("SEBI/HO/FIX/FIX-POD/P/CIR/2025/%07d Fixture SEBI circular %d", 200+i, i),
			link:  fmt.Sprintf("https://sebi.example.org/c/%d", i), body: fixtureBody(r, 100)})
	}
	// 60 NPCI OCs in addendum chains (OC, A, B) on one day, their text
	// almost the same: near misses told apart by their numbers.
	for i := range 20 {
		base := fixtureBody(r, 120)
		for j, suffix := range []string{"", "A", "B"} {
			add("NPCI addenda", fixtureItem{source: "NPCI", date: day0.AddDate(0, 0, i),
				title: fmt.Sprintf("UPI | OC No. 7%02d%s | FY 2025-26 | Fixture limits %d", i, suffix, i),
				link:  fmt.Sprintf("https://npci.example.org/oc/7%02d%s", i, suffix),
				body:  base + strings.Repeat(" addendum", j)})
		}
	}
	// 60 monthly returns: the same title but the month, the same text,
	// a month apart; and an annual statement with the same title yearly.
	monthly := fixtureBody(r, 80)
	for i := range 48 {
		d := day0.AddDate(0, i-48, 0)
		add("monthly return", fixtureItem{source: "RBI", date: d,
			title: "Fixture monthly return for " + d.Format("January 2006"),
			link:  fmt.Sprintf("https://rbi.example.org/monthly/%d", i), body: monthly})
	}
	for i := range 12 {
		add("annual statement", fixtureItem{source: "SEBI", date: day0.AddDate(i-12, 0, 0),
			title: "Fixture annual statement of compliance",
			link:  fmt.Sprintf("https://sebi.example.org/annual/%d", i), body: monthly})
	}
	// 40 on one day from one department, titles alike, each numbered.
	for i := range 40 {
		add("same day, same department", fixtureItem{source: "RBI", date: day0,
			title: fmt.Sprintf("DOR.FIX.REC.%d/99.01.001/2025-26 Fixture directions on payment aggregators, part %d", 300+i, i),
			link:  fmt.Sprintf("https://rbi.example.org/dor/%d", i), body: fixtureBody(r, 100)})
	}
	// 40 with no number, the same day and source, titles and texts their own.
	for i := range 40 {
		add("unnumbered", fixtureItem{source: "RBI", date: day0.AddDate(0, 0, 1),
			title: fmt.Sprintf("Fixture speech %d on %s", i, fixtureVocab[i]),
			link:  fmt.Sprintf("https://rbi.example.org/speech/%d", i), body: fixtureBody(r, 100)})
	}
	return pairs, distinct
}

func TestDedup(t *testing.T) {
	pairs, distinct := dedupFixture()
	if len(pairs) != 50 || len(distinct) != 500 {
		t.Fatalf("fixture: %d pairs, %d distinct", len(pairs), len(distinct))
	}
	// Arrival order: every first copy and the distinct items interleaved,
	// then the second copies (as a press release follows its notification).
	var order []fixtureItem
	for i, it := range distinct {
		order = append(order, it)
		if i%10 == 0 && i/10 < len(pairs) {
			order = append(order, pairs[i/10][0])
		}
	}
	for _, p := range pairs {
		order = append(order, p[1])
	}
	x := NewIndex()
	groups := []int{} // place in the index → fixture group
	dups, falseMerges := 0, 0
	byRule := map[Rule]int{}
	for _, it := range order {
		id := Identify(it.source, it.date, it.title, it.link, it.body)
		at, rule, ok := x.Match(id)
		isSecond := it.kind != "" && isPairSecond(pairs, it)
		switch {
		case ok && groups[x.At(at).Canonical] != it.group:
			falseMerges++
			t.Errorf("false merge by %s: %s %q with %q", rule, it.kind, it.title, x.At(x.At(at).Canonical).TitleDate)
		case ok && !isSecond:
			falseMerges++
			t.Errorf("false merge by %s: a first copy %q", rule, it.title)
		case ok:
			byRule[rule]++
			t.Logf("merged by %-10s %-28s %q", rule, it.kind, it.title)
		case isSecond:
			dups++
			t.Errorf("duplicate: %s %q not matched", it.kind, it.title)
		}
		if ok {
			groups = append(groups, groups[x.At(at).Canonical])
			x.Add(Known{Identity: id}, at)
		} else {
			groups = append(groups, it.group)
			x.Add(Known{Identity: id}, -1)
		}
	}
	t.Logf("pairs %d, distinct %d: duplicates %d, false merges %d; merged by rule %v", len(pairs), len(distinct), dups, falseMerges, byRule)
}

func isPairSecond(pairs [][2]fixtureItem, it fixtureItem) bool {
	for _, p := range pairs {
		if p[1].link == it.link {
			return true
		}
	}
	return false
}

// BenchmarkIdentify is what one arriving item costs: its identity
// (reference numbers, title key, SimHash of a 150-word body), then its
// lookup in an index of 10k and 100k known instruments (a miss, which
// probes every rule; a hit by reference). It reports the index's heap per
// instrument too.
func BenchmarkIdentify(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	day0 := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	body := fixtureBody(r, 150)
	b.Run("identity", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Identify("RBI", day0, "RBI/2025-26/141 Fixture press release on a new topic", "https://rbi.example.org/new", body)
		}
	})
	for _, n := range []int{10_000, 100_000} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		x := NewIndex()
		for i := range n {
			x.Add(Known{Identity: Identify("RBI", day0.AddDate(0, 0, i/10),
				fmt.Sprintf("RBI/2015-16/%d Fixture circular %d", i, i), fmt.Sprintf("https://rbi.example.org/c/%d", i),
				fixtureBody(r, 150))}, -1)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perItem := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
		miss := Identify("RBI", day0.AddDate(0, 0, n/20), "Fixture press release on a new topic", "https://rbi.example.org/new", body)
		hit := Identify("RBI", day0.AddDate(0, 0, n/20), fmt.Sprintf("Press release on RBI/2015-16/%d", n/2), "https://rbi.example.org/pr", "")
		b.Run(fmt.Sprintf("match-miss/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, ok := x.Match(miss); ok {
					b.Fatal("matched")
				}
			}
			b.ReportMetric(perItem, "index-B/instrument")
		})
		b.Run(fmt.Sprintf("match-hit/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, rule, ok := x.Match(hit); !ok || rule != ByRef {
					b.Fatal("not matched by reference")
				}
			}
		})
		runtime.KeepAlive(x)
	}
}
