package store

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// testClock is a clock a test moves forward.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) set(day string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		panic(err)
	}
	c.now = t.Add(9 * time.Hour)
}

// provisionsOf are a search's provisions as "direction para".
func provisionsOf(r search.Response) []string {
	var out []string
	for _, p := range r.Provisions {
		out = append(out, p.Direction+" "+p.ID)
	}
	return out
}

// TestSearch_Provisions searches the real content's Master Directions on
// two days without a sync between them: on 30 June 2025, and on 28
// November 2025, when the KYC and card directions were replaced, the PPI
// and payment aggregator directions' KYC references were substituted
// (a version taking effect after the content was synced), and the
// payment aggregator directions (issued 15 September 2025) were in force.
// Questions a provision answers are answered from it, citing the
// direction and paragraph with a link to it; questions a circular
// answers keep their circular.
func TestSearch_Provisions(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Provision, URL, Title string // the cited provision ("" for a circular's answer)
		Circular              string // the first source when a circular answers
		Holds                 string // what the direct answer says
	}
	cases := []struct {
		day, query string
		want       answer
		unanswered bool // no direct answer
		// provisions must be among the listed ones, absent not.
		provisions, absent []string
	}{
		{day: "2025-06-30", query: "what details are collected before issuing a small PPI",
			want: answer{Provision: "ppi-2021 9.1(i)(b)", URL: "/master-directions/ppi-2021/#p-9-1-i-b", Title: "MD-PPIs, 2021",
				Holds: "listed in the 2016 KYC Master Direction"},
			provisions: []string{"ppi-2021 9.1(i)(b)", "ppi-2021 9.1(ii)(b)"}},
		{day: "2025-11-28", query: "what details are collected before issuing a small PPI",
			want: answer{Provision: "ppi-2021 9.1(i)(b)", URL: "/master-directions/ppi-2021/#p-9-1-i-b", Title: "MD-PPIs, 2021",
				Holds: "listed in the Commercial Banks KYC Directions, 2025"}},
		{day: "2025-06-30", query: "which KYC directions do PPI issuers follow",
			want: answer{Provision: "ppi-2021 6", URL: "/master-directions/ppi-2021/#p-6", Title: "MD-PPIs, 2021",
				Holds: "Master Direction on Know Your Customer, 2016"}},
		{day: "2025-06-30", query: "can foreign nationals get PPIs",
			want: answer{Provision: "ppi-2021 10.3", URL: "/master-directions/ppi-2021/#p-10-3", Title: "MD-PPIs, 2021",
				Holds: "foreign nationals and NRIs visiting India"}},
		// In force until its replacement on 28 November 2025.
		{day: "2025-06-30", query: "credit limit without consent",
			want: answer{Provision: "credit-debit-card-2022 6(b)(v)", URL: "/master-directions/credit-debit-card-2022/#p-6-b-v",
				Title: "Credit and Debit Card Directions, 2022", Holds: "credit limit is not exceeded"},
			provisions: []string{"credit-debit-card-2022 6(b)(v)"}},
		{day: "2025-11-28", query: "credit limit without consent",
			absent: []string{"credit-debit-card-2022 6(b)(v)", "credit-debit-card-2022 6(a)(vi)", "kyc-2016 23"}},
		// Issued after the first day: found on the second.
		{day: "2025-06-30", query: "payment aggregator merchant digital KYC", absent: []string{"payment-aggregators-2025 15(a)(i)"}},
		{day: "2025-11-28", query: "payment aggregator merchant digital KYC", provisions: []string{"payment-aggregators-2025 15(a)(i)"}},
		// The question: the paragraph on the types of PPI states
		// the full-KYC wallet's limit.
		{day: "2025-06-30", query: "what is the PPI wallet limit",
			want:       answer{Provision: "ppi-2021 9", URL: "/master-directions/ppi-2021/#p-9", Title: "MD-PPIs, 2021", Holds: "₹2 lakh"},
			provisions: []string{"ppi-2021 9"}},
		{day: "2026-11-28", query: "PPI wallet limit",
			want: answer{Provision: "ppi-2021 9", URL: "/master-directions/ppi-2021/#p-9", Title: "MD-PPIs, 2021", Holds: "₹2 lakh"}},
		// A circular states the fact: it keeps answering.
		{day: "2025-06-30", query: "how are digital payments authenticated",
			want:       answer{Circular: "rbi-2025-09-25-authentication-mechanisms-directions", Holds: "two authentication factors"},
			provisions: []string{"digital-payment-security-controls-2021 33"}},
	}
	forEachStore(t, func(t *testing.T, open opener) {
		clock := &testClock{}
		clock.set("2025-06-30")
		db := open(t, WithNow(clock.Now))
		if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			clock.set(c.day) // the days only move forward: the index changes with them, unsynced
			r, err := db.Search(t.Context(), search.Query{Text: c.query})
			if err != nil {
				t.Fatal(err)
			}
			got := answer{}
			if p := r.Answer.Provision; p != nil {
				got = answer{Provision: p.Direction + " " + p.ID, URL: p.URL, Title: p.DirectionTitle}
			} else if r.Answer.DirectAnswer != "" && len(r.Answer.Sources) > 0 {
				got.Circular = r.Answer.Sources[0].Slug
			}
			if c.want.Holds != "" && strings.Contains(string(r.Answer.DirectAnswer), c.want.Holds) {
				got.Holds = c.want.Holds
			} else if r.Answer.DirectAnswer != "" {
				got.Holds = string(r.Answer.DirectAnswer)
			}
			if c.unanswered && r.Answer.DirectAnswer != "" {
				t.Errorf("%s %q: answered %q; want no answer", c.day, c.query, r.Answer.DirectAnswer)
			}
			if c.want != (answer{}) {
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Errorf("%s %q: answer (-want +got):\n%s", c.day, c.query, diff)
				}
			}
			ps := provisionsOf(r)
			for _, p := range c.provisions {
				if !slices.Contains(ps, p) {
					t.Errorf("%s %q: provisions %v lack %s", c.day, c.query, ps, p)
				}
			}
			for _, p := range c.absent {
				if slices.Contains(ps, p) {
					t.Errorf("%s %q: provisions %v hold %s, not in force", c.day, c.query, ps, p)
				}
			}
			for _, p := range r.Provisions {
				if p.URL != search.ProvisionURL(p.Direction, p.ID) || p.DirectionTitle == "" || p.Text == "" || len(p.Highlights) == 0 {
					t.Errorf("%s %q: provision %+v lacks its citation or highlights", c.day, c.query, p)
				}
			}
		}
	})
}

// TestSearch_ProvisionsFilters: the source filter applies to provisions,
// a category (which provisions have not) and the by-date feed list none,
// and every page lists the same provisions, as it shows the same answer.
func TestSearch_ProvisionsFilters(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, cat)
		const q = "PPI issuers"
		count := func(q search.Query) (int, []string) {
			t.Helper()
			r, err := db.Search(t.Context(), q)
			if err != nil {
				t.Fatal(err)
			}
			return len(r.Provisions), provisionsOf(r)
		}
		n, first := count(search.Query{Text: q})
		if n != search.ProvisionResults {
			t.Fatalf("%q: %d provisions %v, want %d", q, n, first, search.ProvisionResults)
		}
		if _, got := count(search.Query{Text: q, Page: 2}); !slices.Equal(got, first) {
			t.Errorf("page 2: provisions %v, want the first page's %v", got, first)
		}
		if _, got := count(search.Query{Text: q, Source: "RBI"}); !slices.Equal(got, first) {
			t.Errorf("source RBI: provisions %v, want %v", got, first)
		}
		for _, q := range []search.Query{{Text: q, Source: "NPCI"}, {Text: q, Category: "Payment Systems"}, {Text: q, ByDate: true, Limit: 5}} {
			if n, got := count(q); n != 0 {
				t.Errorf("%+v: provisions %v, want none", q, got)
			}
		}
	})
}

// TestSearch_ProvisionsSync: a sync bringing a new version of a
// direction, in force from a later day, changes what another instance
// finds from that day on: before it, the text in force stays the
// answer; from it, the new text is, and the old one is not found.
func TestSearch_ProvisionsSync(t *testing.T) {
	t.Parallel()
	base, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range sharedTargets() {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			clock := &testClock{}
			clock.set("2026-01-05")
			target := kind.target(t)
			writer := openAndClose(t, target, []Option{WithNow(clock.Now)})
			reader := openAndClose(t, target, []Option{WithNow(clock.Now)})
			if _, err := writer.SyncCatalog(t.Context(), base); err != nil {
				t.Fatal(err)
			}
			find := func(q string) []string {
				t.Helper()
				r, err := reader.Search(t.Context(), search.Query{Text: q})
				if err != nil {
					t.Fatal(err)
				}
				return provisionsOf(r)
			}
			if got := find("PPI validity redemption"); !slices.Contains(got, "ppi-2021 13") {
				t.Fatalf("before the version: %v lack ppi-2021 13", got)
			}
			// A new version of the PPI directions, synced on 5 January
			// 2026, in force from 1 February.
			cat := *base
			cat.Directions = slices.Clone(base.Directions)
			i := slices.IndexFunc(cat.Directions, func(d catalog.MasterDirection) bool { return d.Slug == "ppi-2021" })
			d := cat.Directions[i]
			d.Versions = append(slices.Clone(d.Versions), catalog.DirectionVersion{
				ID: "ppi-2021-2026-02-01", Direction: d.Slug, Date: catalog.Date{Time: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)},
				ChangesKnown: true, Amending: &catalog.AmendingCircular{Title: "A test amendment"},
				Effects: catalog.List[catalog.Effect]{{Kind: catalog.EffectSubstituted, Provision: "13",
					Text: "PPIs stay valid for a quinquennium, and holders may ask for their balance back at any time."}}})
			var problems []catalog.EffectProblem
			d.History, problems = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions)
			if len(problems) > 0 {
				t.Fatal(problems)
			}
			cat.Directions[i] = d
			if _, err := writer.SyncCatalog(t.Context(), &cat); err != nil {
				t.Fatal(err)
			}
			if got := find("quinquennium"); len(got) != 0 {
				t.Errorf("before 1 February: %v found by the text not yet in force", got)
			}
			if got := find("PPI validity redemption"); !slices.Contains(got, "ppi-2021 13") {
				t.Errorf("before 1 February: %v lack the text in force", got)
			}
			clock.set("2026-02-01")
			if got := find("quinquennium"); !slices.Equal(got, []string{"ppi-2021 13"}) {
				t.Errorf("from 1 February: %v, want the new text of ppi-2021 13", got)
			}
			if got := find("outstanding redeem transfer"); slices.Contains(got, "ppi-2021 13") {
				t.Errorf("from 1 February: %v still find the text replaced", got)
			}
			// Removed from the content: gone at the next search.
			if _, err := writer.SyncCatalog(t.Context(), base); err != nil {
				t.Fatal(err)
			}
			if got := find("quinquennium"); len(got) != 0 {
				t.Errorf("after the version's removal: %v", got)
			}
		})
	}
}
