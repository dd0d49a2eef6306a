package ingest

import (
	"os"
	"path/filepath"
	"regpulse/internal/catalog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mmcdole/gofeed"
)

func TestCircularNumber(t *testing.T) {
	tests := []struct{ title, want string }{
		{"RBI/2025-26/141 - Payment Aggregators", "RBI/2025-26/141"},
		{"Directions (RBI/DPSS/2021-22/82)", "RBI/DPSS/2021-22/82"},
		{"DPSS.CO.PD No.1810/02.14.008/2019-20 dated January 10, 2020", "DPSS.CO.PD No.1810/02.14.008/2019-20"},
		{"RBI/2019-20/47 DPSS.CO.PD.No.447/02.14.003/2019-20: Tokenisation", "RBI/2019-20/47 DPSS.CO.PD.No.447/02.14.003/2019-20"},
		{"CO.DPSS.POLC.No.S-567/02-14-003/2022-23 on e-mandates", "CO.DPSS.POLC.No.S-567/02-14-003/2022-23"},
		{"Ref. DOR.AML.REC.13/14.01.001/2023-24", "DOR.AML.REC.13/14.01.001/2023-24"},
		{"CEPD. PRD. No.S873/13.01.001/2021-22 – Ombudsman", "CEPD. PRD. No.S873/13.01.001/2021-22"},
		{"Circular SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/0000013 on UPI", "SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/0000013"},
		{"SEBI/HO/ITD-1/ITD_CSC_EXT/P/CIR/2024/113", "SEBI/HO/ITD-1/ITD_CSC_EXT/P/CIR/2024/113"},
		// No number, or not plainly one: nothing is made up.
		{"Master Direction – Know Your Customer (KYC) Direction, 2025", ""},
		{"Press Release: 2025-2026/1520", ""},
		{"A. P. (DIR Series) Circular No.63", ""},
		{"SEBI/HO circular on mutual funds", ""},
		{"RBI/2025-26 annual report", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := CircularNumber(tt.title); got != tt.want {
			t.Errorf("CircularNumber(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}

func TestPlainText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"Plain", "  Payment   aggregators\n cross-border ", "Payment aggregators cross-border"},
		{"Entities", "Payment &amp; Settlement &ndash; 2025 &quot;PA&quot; &#8211; x", `Payment & Settlement – 2025 "PA" – x`},
		{"Tags", "<b>Draft</b> Directions <i>on</i> KYC", "Draft Directions on KYC"},
		{"Paragraphs", "<p>One.</p>\n<p>Two<br/>three</p><table><tr><td>a</td><td>b</td></tr></table>", "One.\n\nTwo\n\nthree\n\na b"},
		{"ScriptDropped", "<p>Text</p><script>alert(1)</script><style>p{}</style>", "Text"},
		{"Empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plainText(tt.in); got != tt.want {
				t.Errorf("plainText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if got, want := cleanTitle("<p>Two</p><p>lines</p>"), "Two lines"; got != want {
		t.Errorf("cleanTitle = %q, want %q", got, want)
	}
}

func TestSlugBase(t *testing.T) {
	day := time.Date(2025, 11, 18, 0, 0, 0, 0, time.UTC)
	tests := []struct{ source, title, want string }{
		{"RBI", "Payment Aggregators – Cross-border (PA-CB)", "rbi-2025-11-18-payment-aggregators-cross-border-pa-cb"},
		{"RBI", "RBI/2025-26/141 DPSS.CO.PD No.1810/02.14.008/2025-26 - Tokenisation", "rbi-2025-11-18-tokenisation"},
		{"SEBI", "Framework for the Bank's UPI mandates by brokers and investment advisers of the market", "sebi-2025-11-18-framework-banks-upi-mandates-brokers-investment-advisers-market"},
		{"other", "Règlement général — Zahlungsverkehr", "other-2025-11-18-reglement-general-zahlungsverkehr"},
		// Hindi titles are transliterated (translit.go): four words, each whole.
		{"RBI", "भारतीय रिज़र्व बैंक परिपत्र", "rbi-2025-11-18-bharatiya-rizarv-baink-paripatra"},
		{"RBI", "भारतीय", "rbi-2025-11-18-bharatiya"},
		{"RBI", "मास्टर निदेश – भुगतान प्रणाली", "rbi-2025-11-18-mastar-nidesh-bhugatan-pranali"},
		{"RBI", "支付", "rbi-2025-11-18-item"},
	}
	for _, tt := range tests {
		got := (entry{source: tt.source, title: tt.title, date: day}).slugBase()
		if got != tt.want {
			t.Errorf("slug of %q = %q, want %q", tt.title, got, tt.want)
		}
		if err := catalog.CheckSlug(got); err != nil {
			t.Errorf("slug of %q: %v", tt.title, err)
		}
	}
}

func TestItemDate(t *testing.T) {
	utc := time.Date(2025, 11, 19, 18, 45, 0, 0, time.UTC)
	tests := []struct {
		name string
		item gofeed.Item
		want string // YYYY-MM-DD, or the error
	}{
		{"RFC1123Z", gofeed.Item{Published: "Tue, 18 Nov 2025 18:30:00 +0530"}, "2025-11-18"},
		{"ISTAfterMidnight", gofeed.Item{Published: "Thu, 20 Nov 2025 00:15:00 +0530"}, "2025-11-20"},
		{"GMT", gofeed.Item{Published: "Wed, 19 Nov 2025 13:35:00 GMT"}, "2025-11-19"},
		{"SEBI", gofeed.Item{Published: "05 Nov, 2025 +0530"}, "2025-11-05"},
		{"AtomUpdated", gofeed.Item{Updated: "2025-11-19T10:00:00+05:30"}, "2025-11-19"},
		{"ParserOnly", gofeed.Item{Published: "19 November 2025 18:45 UTC", PublishedParsed: &utc}, "2025-11-19"},
		{"ErrNone", gofeed.Item{}, "no date"},
		{"ErrUnreadable", gofeed.Item{Published: "sometime"}, `date "sometime" cannot be read`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := itemDate(&tt.item)
			got := d.Format(time.DateOnly)
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("itemDate = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLoadFeeds(t *testing.T) {
	feeds := fixtureFeeds(t)
	want := []Feed{
		{Name: "rbi-notifications", URL: filepath.Join("testdata", "rbi-notifications.xml"), Source: "RBI"},
		{Name: "rbi-press-releases", URL: filepath.Join("testdata", "rbi-press-releases.xml"), Source: "RBI"},
		{Name: "sebi", URL: filepath.Join("testdata", "sebi.xml"), Source: "SEBI"},
	}
	if diff := cmp.Diff(want, feeds); diff != "" {
		t.Errorf("feeds (-want +got):\n%s", diff)
	}
	t.Run("Cadence", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "feeds.yaml")
		os.WriteFile(path, []byte("feeds:\n  - {name: x, url: https://x.org/rss, source: RBI, kind: feed, cadence: {busy: 10m, quiet: 2h}}\n  - {name: y, url: https://y.org/rss, source: RBI}\n"), 0o644)
		feeds, err := LoadFeeds(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := feeds[0].cadence(); got.Busy != 10*time.Minute || got.Quiet != 2*time.Hour || feeds[0].kind() != "feed" {
			t.Errorf("x: cadence %+v, kind %q", got, feeds[0].kind())
		}
		if got := feeds[1].cadence(); got.Busy != 0 || got.Quiet != 0 || got.Jitter != 0.1 || feeds[1].kind() != "feed" {
			t.Errorf("y: cadence %+v (zero: the defaults), kind %q", got, feeds[1].kind())
		}
	})
	t.Run("RepoFeeds", func(t *testing.T) {
		feeds, err := LoadFeeds("../../feeds.yaml")
		if err != nil {
			t.Fatal(err)
		}
		listings := 0
		for _, f := range feeds {
			if !strings.HasPrefix(f.URL, "https://") {
				t.Errorf("feed %q: url %q, want the regulator's https URL", f.Name, f.URL)
			}
			for _, l := range []*Listing{f.Listing, f.Backfill} {
				if l != nil {
					listings++
					if !strings.HasPrefix(l.URL, "https://") {
						t.Errorf("feed %q: listing url %q, want the regulator's https URL", f.Name, l.URL)
					}
				}
			}
		}
		if listings < 2 {
			t.Errorf("%d listing pages, want RBI's backfill and NPCI's page", listings)
		}
	})
	tests := []struct{ name, text, want string }{
		{"ErrSource", "feeds:\n  - name: x\n    url: https://x.org/rss\n    source: FED\n", `feed "x": source "FED" is not one of`},
		{"ErrNoName", "feeds:\n  - url: https://x.org/rss\n    source: RBI\n", "feed 1: name is missing"},
		{"ErrNoURL", "feeds:\n  - name: x\n    source: RBI\n", `feed "x": url is missing`},
		{"ErrTwice", "feeds:\n  - {name: x, url: a.xml, source: RBI}\n  - {name: x, url: b.xml, source: RBI}\n", `feed "x": listed twice`},
		{"ErrUnknownKey", "feeds:\n  - {name: x, url: a.xml, sourc: RBI}\n", "field sourc not found"},
		{"ErrEmpty", "feeds: []\n", "no feeds listed"},
		{"ErrListingSelector", "feeds:\n  - {name: x, source: NPCI, kind: listing, listing: {url: https://x.org/, item: 'tr[', title: td, link: a}}\n", `feed "x": listing: item: "tr[" is not a CSS selector`},
		{"ErrListingNoTitle", "feeds:\n  - {name: x, source: NPCI, kind: listing, listing: {url: https://x.org/, item: tr, link: a}}\n", `feed "x": listing: title is missing`},
		{"ErrListingLayout", "feeds:\n  - {name: x, url: a.xml, source: RBI, backfill: {url: 'https://x.org/?p={page}', item: tr, title: a, link: a, date: td}}\n", `feed "x": backfill: dateLayout is missing`},
		{"ErrListingPageSize", "feeds:\n  - {name: x, url: a.xml, source: RBI, backfill: {url: 'https://x.org/?o={offset}', item: tr, title: a, link: a}}\n", `feed "x": backfill: pageSize is missing`},
		{"ErrListingSkip", "feeds:\n  - {name: x, source: NPCI, kind: listing, listing: {url: https://x.org/, item: tr, title: a, link: a, skip: '('}}\n", `feed "x": listing: skip: error parsing regexp`},
		{"ErrKind", "feeds:\n  - {name: x, url: a.xml, source: RBI, kind: page}\n", `kind "page" is not feed or listing`},
		{"ErrCadenceShort", "feeds:\n  - {name: x, url: a.xml, source: RBI, cadence: {busy: 1m}}\n", "cadence busy 1m0s is shorter than 5m0s"},
		{"ErrCadenceKey", "feeds:\n  - {name: x, url: a.xml, source: RBI, cadence: {fast: 5m}}\n", "field fast not found"},
		{"ErrCadenceValue", "feeds:\n  - {name: x, url: a.xml, source: RBI, cadence: {quiet: soon}}\n", "soon"},
		{"ErrListingKind", "feeds:\n  - {name: x, source: NPCI, listing: {url: https://x.org/, item: tr, title: a, link: a}}\n", "only a listing has them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "feeds.yaml")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadFeeds(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one naming %s and %q", err, path, tt.want)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	feeds := fixtureFeeds(t)
	got, err := Select(feeds, "sebi")
	if err != nil || len(got) != 1 || got[0].Name != "sebi" {
		t.Errorf("Select sebi = %v, %v", got, err)
	}
	if got, err := Select(feeds, ""); err != nil || len(got) != 3 {
		t.Errorf("Select \"\" = %v, %v, want all", got, err)
	}
	if _, err := Select(feeds, "fed"); err == nil || !strings.Contains(err.Error(), "rbi-notifications, rbi-press-releases, sebi") {
		t.Errorf("Select fed: %v, want an error listing the feeds", err)
	}
}

// The real content's circulars all give their links, so ingest can run
// against it; each file is one instrument, its other links its copies,
// and its number part of its identity.
func TestKnownInstruments_RealContent(t *testing.T) {
	items, err := knownInstruments("../../content")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]Item{}
	refs := 0
	for _, it := range items {
		known[it.Link] = it
		if it.Ref != "" {
			refs++
		}
	}
	// an officialUrl, and an additionalSourceUrls item written as {url, kind}
	for _, l := range []string{"https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=12051",
		"https://www.taxmann.com/post/blog/rbi-issues-new-rules-for-payment-aggregators-and-banks"} {
		key, _ := catalog.NormaliseLink(l)
		if len(known) < 50 || !strings.HasPrefix(known[key].FilePath, "content/circulars/") {
			t.Errorf("%d links known, and %q is in %q: want the real circulars' links", len(known), key, known[key].FilePath)
		}
	}
	if refs < 30 {
		t.Errorf("%d of the content's instruments have a reference key, want most RBI and SEBI ones", refs)
	}
}

func TestAsUTF8(t *testing.T) {
	decl := `<?xml version="1.0" encoding="utf-8"?>`
	tests := []struct{ name, in, want string }{
		{"UTF8", decl + "<t>Payment – Directions</t>", decl + "<t>Payment – Directions</t>"},
		{"Windows1252", decl + "<t>Payment \x96 \x93Directions\x94</t>", decl + "<t>Payment – “Directions”</t>"},
		{"NoDeclaration", "<t>caf\xe9</t>", "<t>café</t>"},
		{"OtherEncoding", `<?xml version="1.0" encoding="ISO-8859-1"?><t>caf\xe9</t>`, `<?xml version="1.0" encoding="ISO-8859-1"?><t>caf\xe9</t>`},
	}
	for _, tt := range tests {
		if got := string(asUTF8([]byte(tt.in))); got != tt.want {
			t.Errorf("%s: asUTF8 = %q, want %q", tt.name, got, tt.want)
		}
	}
}
