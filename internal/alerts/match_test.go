package alerts_test

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/mail"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// generated is n alerts over the circulars' words: half with a query of
// one to three words of some circular's title, as people search (no
// stop words: they are what a query says, not what it looks for), so
// some match; the others filters only; all created at storetest.Now.
func generated(n int, cs []catalog.Circular, seed uint64) []alerts.Alert {
	r := rand.New(rand.NewPCG(seed, 3))
	pick := func(list []string, most int) []string {
		var out []string
		for range r.IntN(most + 1) {
			if v := list[r.IntN(len(list))]; !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	out := make([]alerts.Alert, n)
	for i := range out {
		a := alerts.Alert{ID: fmt.Sprintf("a%06d", i), Kind: alerts.KindSearch, Frequency: alerts.Daily, Enabled: true, CreatedAt: storetest.Now,
			Filters: alerts.Filters{Sources: pick(alerts.FilterSources, 2), ImpactLevels: pick(alerts.FilterImpactLevels, 2)}}
		if r.IntN(2) == 0 {
			words := slices.DeleteFunc(strings.Fields(strings.ToLower(cs[r.IntN(len(cs))].Title)), search.StopWord)
			k := 1 + r.IntN(3)
			start := r.IntN(max(1, len(words)-k))
			a.Query = strings.Join(words[start:min(len(words), start+k)], " ")
			a.Sources = pick(alerts.FilterSources, 1)
		} else {
			a.Categories = pick(alerts.FilterCategories, 3)
			a.EntityTypes = pick(alerts.FilterEntityTypes, 1)
			a.DocumentTypes = pick([]string{"circular", "master-direction", "draft"}, 1)
		}
		out[i] = a
	}
	return out
}

func arrivals(cs []catalog.Circular) []alerts.Arrival {
	out := make([]alerts.Arrival, len(cs))
	for i, c := range cs {
		out[i] = alerts.Arrival{Circular: c, At: storetest.Now.Add(time.Minute)}
	}
	return out
}

// bruteForce is what the index must find: every alert checked in full.
func bruteForce(as []alerts.Alert, arrs []alerts.Arrival) []alerts.Match {
	var out []alerts.Match
	for _, arr := range arrs {
		d := search.StrongDocument(arr.Circular)
		for _, a := range as {
			if arr.At.Before(a.CreatedAt) || !a.Passes(arr.Circular) {
				continue
			}
			if a.Query != "" {
				p, err := search.PlanText(a.Query)
				if err != nil || !search.Strong(p, d) {
					continue
				}
			}
			out = append(out, alerts.Match{AlertID: a.ID, CircularID: arr.Circular.ID})
		}
	}
	return out
}

func TestIndex_SameAsEveryAlertChecked(t *testing.T) {
	cs := storetest.RealisticCirculars(60, 11)
	as := generated(3000, cs, 5)
	arrs := arrivals(cs)
	got := alerts.NewIndex(as).MatchAll(arrs)
	want := bruteForce(as, arrs)
	byPair := func(a, b alerts.Match) int {
		return cmp.Compare(a.CircularID+" "+a.AlertID, b.CircularID+" "+b.AlertID)
	}
	slices.SortFunc(got, byPair)
	slices.SortFunc(want, byPair)
	if len(want) < 100 {
		t.Fatalf("the generated alerts match too little to test: %d", len(want))
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("index matches (-brute force +index):\n%s", diff)
	}
}

func TestIndex_Match(t *testing.T) {
	cat := storetest.Catalog()
	fraud := cat.Circulars[slices.IndexFunc(cat.Circulars, func(c catalog.Circular) bool { return c.Slug == storetest.SlugUPIFraud })]
	// UPI fraud risk controls, RBI, high; PSP high, Issuer medium, Aggregator low
	at := storetest.Now
	cases := []struct {
		name  string
		alert alerts.Alert
		want  bool
	}{
		{"NoFilters", alerts.Alert{}, true},
		{"Source", alerts.Alert{Filters: alerts.Filters{Sources: []string{"RBI"}}}, true},
		{"OtherSource", alerts.Alert{Filters: alerts.Filters{Sources: []string{"SEBI"}}}, false},
		{"TitleWords", alerts.Alert{Query: "fraud controls"}, true},
		{"TitleWordsOtherCase", alerts.Alert{Query: "FRAUD Control"}, true},
		{"NumberAsTyped", alerts.Alert{Query: "RBI/2025-26/41"}, true},
		{"OnlyInText", alerts.Alert{Query: "board"}, false}, // "Fraud reports go to the bank": text only
		{"LevelForBusiness", alerts.Alert{Filters: alerts.Filters{ImpactLevels: []string{"low"}}, EntityTypes: []string{"Aggregator"}}, true},
		{"LevelOverall", alerts.Alert{Filters: alerts.Filters{ImpactLevels: []string{"low"}}}, false},
		{"OtherBusiness", alerts.Alert{EntityTypes: []string{"Issuer"}, Filters: alerts.Filters{ImpactLevels: []string{"high"}}}, false},
		{"DocumentType", alerts.Alert{Filters: alerts.Filters{DocumentTypes: []string{"draft"}}}, false},
		{"CreatedAfter", alerts.Alert{CreatedAt: at.Add(time.Second)}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.alert.ID = "x"
			if tc.alert.CreatedAt.IsZero() {
				tc.alert.CreatedAt = at
			}
			got := len(alerts.NewIndex([]alerts.Alert{tc.alert}).MatchAll([]alerts.Arrival{{Circular: fraud, At: at}})) == 1
			if got != tc.want {
				t.Errorf("matched %v, want %v", got, tc.want)
			}
		})
	}
}

// BenchmarkMatch_100000Alerts100Circulars: 100 new circulars matched
// against an index of 100,000 alerts (the budget: under a
// second); BenchmarkNewIndex_100000Alerts builds that index, once per run.
func BenchmarkMatch_100000Alerts100Circulars(b *testing.B) {
	cs := storetest.RealisticCirculars(100, 21)
	x := alerts.NewIndex(generated(100_000, cs, 9))
	arrs := arrivals(cs)
	var n int
	cpu := cpuTime()
	for b.Loop() {
		n = len(x.MatchAll(arrs))
	}
	// The machine is shared: the CPU time per run says what the wall
	// time would be on an idle one.
	b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(n), "matches")
}

func BenchmarkNewIndex_100000Alerts(b *testing.B) {
	as := generated(100_000, storetest.RealisticCirculars(100, 21), 9)
	cpu := cpuTime()
	for b.Loop() {
		alerts.NewIndex(as)
	}
	b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRender_10000: 10,000 alert e-mails of 5 circulars each,
// rendered and built as messages (what a daily run hands to SMTP), to
// compare with the digest's 10,000 in about 3 s.
func BenchmarkRender_10000(b *testing.B) {
	cs := storetest.RealisticCirculars(200, 5)
	tokens, _ := alerts.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	links, _ := alerts.NewLinks("https://regpulse.example/", tokens)
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	cpu := cpuTime()
	for b.Loop() {
		for i := range 10_000 {
			a := alerts.Alert{ID: fmt.Sprintf("a%05d", i), Name: "UPI", Frequency: alerts.Daily, Email: fmt.Sprintf("u%d@example.com", i), Business: []string{"PSP"}}
			r, err := links.Render(alerts.Email{Alert: a, Kind: alerts.Daily, Circulars: cs[i%195 : i%195+5]})
			if err != nil {
				b.Fatal(err)
			}
			m, err := snd.Build(mail.Message{To: a.Email, Subject: r.Subject, MessageID: "alert-" + a.ID + "@regpulse.example",
				Date: storetest.Now, ListID: "RegPulse alert <alert-" + a.ID + ".regpulse.example>", UnsubscribeURL: r.UnsubscribeURL, Text: r.Text, HTML: r.HTML})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := m.WriteTo(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
}
