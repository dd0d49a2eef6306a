package generator

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNetworkAndEventPages checks what the static pages of payment
// networks, SIBOS and other events say on the fixture content plus an
// upcoming and an ongoing SIBOS edition (made up for the test): the pages'
// sections and texts, and "Not verified" where the content has nothing.
func TestNetworkAndEventPages(t *testing.T) {
	content := copyTree(t, fixtureContent)
	for name, text := range map[string]string{
		"2099.md": "---\ntitle: Test Sibos Upcoming\nyear: 2099\nstatus: upcoming\nregistrationOpen: true\nexpectedAttendees: 9000\nkeyTopics:\n- One\n- Two\n- Three\n- Four\n- Five\n---\n\nFirst paragraph (source: https://example.org/a).\n\nSecond paragraph.\n",
		"2098.md": "---\ntitle: Test Sibos Ongoing\nyear: 2098\nstatus: ongoing\n---\n\nUnder way.\n",
		// still called upcoming after its dates (the fixture's build is of
		// 1 March 2021): shown as past and completed, never as upcoming
		"2020.md": "---\ntitle: Stale Sibos\nyear: 2020\nstatus: upcoming\nstartDate: 2020-10-05\nendDate: 2020-10-08\ntheme: A theme\nlocation: Somewhere\nvenue: A hall\nexpectedAttendees: 10\n---\n\nOver.\n",
	} {
		if err := os.WriteFile(filepath.Join(content, "sibos", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _ := buildSite(t, content, templatesDir)
	read := func(p string) string { return readOut(t, out, p+"/index.html") }
	// between returns the part of s from the first from to the next to.
	between := func(s, from, to string) string {
		i := strings.Index(s, from)
		if i < 0 {
			return ""
		}
		s = s[i:]
		if j := strings.Index(s, to); j >= 0 {
			return s[:j]
		}
		return s
	}
	notVerified := regexp.MustCompile(`(?s)<dt[^>]*>([^<]+):</dt>\s*<dd class="italic[^"]*">Not verified</dd>`)
	missing := func(html string) []string {
		var out []string
		for _, m := range notVerified.FindAllStringSubmatch(html, -1) {
			out = append(out, m[1])
		}
		return out
	}

	for _, tc := range []struct {
		page, section string // section: "" for the whole page
		want, not     []string
		notVerified   string // the fields shown as "Not verified", joined by ","
	}{
		{page: "payment-networks", want: []string{
			`data-list="networks"`, `id="network-visa"`, `data-island="NetworksFilter"`, "💳",
			`href="/payment-networks/visa"`, "No verified website yet", "Contact:</span>", "Visa Worldwide Pte Ltd",
			`href="/payment-networks?q=3D%20Secure"`, `data-quick-search="PCI DSS"`, "No payment networks found",
		}, not: []string{"Official Website"}},
		{page: "payment-networks/visa", want: []string{
			"<h1", ">Visa</h1>", "Guidelines (2)", "<li>Card-on-file tokenisation</li>", "<li>Network choice at issuance</li>",
			"Visa&rsquo;s longer profile.", `href="/payment-networks"`, "Official website: not verified yet",
		}, not: []string{"data-island"}, notVerified: "Full name,Type,Operator,Founded,Headquarters"},
		// the hand-kept guidelines' date; the circulars naming the network
		// in title (tokenisation: "card data") or summary (the PA
		// guidelines), newest first, derived; not UPI's
		{page: "payment-networks/visa", section: "Guidelines", want: []string{
			`data-guidelines-as-of>As of <time datetime="2024-03-06">6 March 2024</time>`,
		}},
		{page: "payment-networks/visa", section: "Recent circulars", want: []string{
			"Newest circulars in RegPulse that name “Visa” or “card data” in their title or summary, leaving out those replaced or withdrawn as of",
			`href="/circulars/rbi-2021-09-07-tokenisation"`, `href="/circulars/rbi-2020-03-17-pa-guidelines"`,
		}, not: []string{"npci-2024-03-28-upi-ids", "None yet."}},
		{page: "payment-networks/upi", section: "Recent circulars", want: []string{
			`href="/circulars/npci-2024-03-28-upi-ids"`, "UPI transaction IDs",
		}, not: []string{"rbi-2020-03-17-pa-guidelines"}},
		{page: "sibos-events", section: "Upcoming Events", want: []string{
			"Test Sibos Upcoming", "Upcoming", "Registration Open", "9,000&#43;", "+2 more", "<li>Three</li>",
			"<p>First paragraph (source: https://example.org/a).</p>", "<p>Second paragraph.</p>",
			`href="https://www.google.com/search?q=Test&#43;Sibos&#43;Upcoming"`,
			`data-empty="sibos-upcoming" class="rounded-lg border border-dashed border-slate-300 p-8 text-center dark:border-slate-700" hidden`,
		}, not: []string{"Sibos 2024", "Ongoing", "Stale Sibos", `<a href="https://example.org/a`}, notVerified: "Theme,Dates,Location,Venue"},
		{page: "sibos-events", section: "Past Events", want: []string{
			"Sibos 2024", "Completed", ">21 Oct 2024</time> – <time", ">24 Oct 2024</time>",
			"Beijing, China", `href="https://www.sibos.com"`, "Stale Sibos",
		}, not: []string{"Test Sibos", "Registration Open", "Ongoing", "Upcoming"}, notVerified: "Theme,Venue,Expected attendees"},
		{page: "fintech-events", section: "", want: []string{
			"Payments Next", "Conference", "Event Submission", `href="mailto:support@regpulse.test?subject=Event%20submission"`,
		}, not: []string{"<form"}, notVerified: "Location,Frequency,Estimated attendees,Focus,Website"},
		// the major events' next editions, derived as of the build's date
		// (1 March 2021): the first edition not over (GFF's 2020 one is
		// past although still called upcoming; Sibos's ongoing 2098 one is
		// not)
		{page: "fintech-events", section: "Major events: next editions", want: []string{
			`id="event-global-fintech-fest"`, `<span data-edition="2021"><time datetime="2021-09-22">22 Sept 2021</time> – <time datetime="2021-09-24">24 Sept 2021</time>, Mumbai, India</span>`,
			`id="event-sibos"`, `<span data-edition="2098">2098 (dates not announced)</span>`,
			`id="event-finovate"`, `none announced in our sources as of <time datetime="2021-03-01">1 March 2021</time>`,
		}, not: []string{`data-edition="2020"`, "Payments Next"}},
		{page: "learning-videos", want: []string{
			"Coming Soon!", "Expected launch: Q2 2025", "UPI basics", "15 min", "Beginner", `<button type="button" disabled`,
			`href="/newsletter"`, "Subscribe to Newsletter",
		}, not: []string{"data-island"}},
	} {
		t.Run(tc.page+"/"+tc.section, func(t *testing.T) {
			html := between(read(tc.page), "<main", "</main>")
			if tc.section != "" {
				html = between(html, ">"+tc.section, "</section>")
			}
			for _, w := range tc.want {
				if !strings.Contains(html, w) {
					t.Errorf("lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(html, n) {
					t.Errorf("has %q", n)
				}
			}
			if t.Failed() {
				t.Log(html)
			}
			if got := strings.Join(missing(html), ","); got != tc.notVerified {
				t.Errorf("Not verified: %q, want %q", got, tc.notVerified)
			}
		})
	}
}

// TestDerivedListsFollow builds the fixture as written and with a
// circular and an edition redated, and sees the body's recent updates,
// the network's recent circulars and the event's next edition follow.
func TestDerivedListsFollow(t *testing.T) {
	order := func(html string, slugs ...string) bool {
		last := -1
		for _, s := range slugs {
			i := strings.Index(html, `href="/circulars/`+s+`"`)
			if i <= last {
				return false
			}
			last = i
		}
		return true
	}
	for _, tc := range []struct {
		name   string
		edits  map[string][2]string // file: old, new text
		recent []string             // the RBI body's and Visa's, in order
		next   string               // in GFF's next edition
	}{
		{name: "as written", recent: []string{"rbi-2021-09-07-tokenisation", "rbi-2020-03-17-pa-guidelines"},
			next: `<span data-edition="2021">`},
		{name: "redated", edits: map[string][2]string{
			"circulars/rbi-2020-03-17-pa-guidelines.md": {"publishedDate: 2020-03-17", "publishedDate: 2022-01-05"},
			// GFF 2021 moved before the build's day (1 March 2021)
			"events/global-fintech-fest.md": {"startDate: 2021-09-22\n    endDate: 2021-09-24", "startDate: 2021-02-22\n    endDate: 2021-02-24"},
		}, recent: []string{"rbi-2020-03-17-pa-guidelines", "rbi-2021-09-07-tokenisation"},
			next: "none announced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			content := copyTree(t, fixtureContent)
			for file, e := range tc.edits {
				p := filepath.Join(content, file)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), e[0]) {
					t.Fatalf("%s lacks %q", file, e[0])
				}
				if err := os.WriteFile(p, []byte(strings.Replace(string(b), e[0], e[1], 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, _ := buildSite(t, content, templatesDir)
			section := func(page, id string) string {
				html := readOut(t, out, page+"/index.html")
				i := strings.Index(html, `id="`+id+`"`)
				if i < 0 {
					t.Fatalf("%s has no #%s", page, id)
				}
				html = html[i:]
				return html[:strings.Index(html, "</section>")]
			}
			if s := section("payment-body/rbi", "updates"); !order(s, tc.recent...) || !strings.Contains(s, `href="/circulars/rbi">All RBI circulars</a>`) {
				t.Errorf("RBI's recent updates are not %v, with the link to all:\n%s", tc.recent, s)
			}
			if s := section("payment-networks/visa", "recent-circulars"); !order(s, tc.recent...) {
				t.Errorf("Visa's recent circulars are not %v:\n%s", tc.recent, s)
			}
			gff := section("fintech-events", "major-events")
			gff = gff[strings.Index(gff, `id="event-global-fintech-fest"`):]
			if s := gff[:strings.Index(gff, "</li>")]; !strings.Contains(s, tc.next) {
				t.Errorf("GFF's next edition is not %s:\n%s", tc.next, s)
			}
		})
	}
}
