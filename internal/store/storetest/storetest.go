// Package storetest holds test data for the store and the API: a small
// hand-built catalog whose every count is known, and a generator of many
// circulars for benchmarks.
package storetest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"regpulse/internal/catalog"
)

// Now is the fixed clock the fixture's numbers are computed for.
var Now = time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)

// Clock returns Now.
func Clock() time.Time { return Now }

// Date parses a YYYY-MM-DD date, panicking on a typo in test data.
func Date(s string) catalog.Date {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return catalog.Date{Time: t}
}

func datePtr(s string) *catalog.Date {
	d := Date(s)
	return &d
}

func entry(kind, slug string) catalog.Entry {
	rel := kind + "/" + slug + ".md"
	return catalog.Entry{ID: catalog.IDForPath(rel), Slug: slug, Path: "content/" + rel}
}

// Circular builds a circular with the given essentials; impact lists
// entity type and level pairs, e.g. "PSP", "high", "Issuer", "low".
func Circular(slug, source, category, published, impact string, entityImpact ...string) catalog.Circular {
	c := catalog.Circular{
		Entry:         entry("circulars", slug),
		Title:         "Title of " + slug,
		Content:       "Content of " + slug + ".",
		Source:        source,
		Category:      category,
		PublishedDate: Date(published),
		DocumentType:  "circular",
		ImpactLevel:   impact,
		SourceURL:     "https://example.org/" + slug,
	}
	for i := 0; i+1 < len(entityImpact); i += 2 {
		c.EntityImpact = append(c.EntityImpact, catalog.EntityImpact{EntityType: entityImpact[i], ImpactLevel: entityImpact[i+1]})
	}
	return c
}

// Slugs of the fixture's circulars, newest first.
const (
	SlugUPIFraud     = "rbi-2025-06-20-upi-fraud-controls"
	SlugBimaSugam    = "irdai-2025-06-25-bima-sugam"
	SlugUPILite      = "npci-2025-06-10-upi-lite-limits"
	SlugCyber        = "sebi-2025-05-01-cyber-framework"
	SlugTokenisation = "rbi-2024-01-15-card-tokenisation"
)

// Catalog is the fixture. As of Now:
//
//   - 5 circulars; in the 30 days ending Now (2025-06-01..30): 3, of which
//     1 high impact (UPIFraud).
//   - entity impact counts (high/medium/low): PSP 2/1/0, Issuer 1/1/2,
//     Aggregator 1/0/1; newest circular naming each: PSP UPIFraud, Issuer
//     BimaSugam, Aggregator UPIFraud.
//   - rule scores (365 days: 2024-07-01..2025-06-30; Tokenisation is older):
//     PSP 100-5-2 = 93, Issuer 100-2 = 98, Aggregator 100-5 = 95.
//   - 3 news items, 2 in the 30 days; 2 companies, 3 regulations, 2
//     networks, 2 SIBOS events.
//   - verification: UPIFraud checked, UPILite reported, Tokenisation
//     pending, the others unstated: 2 awaiting verification.
func Catalog() *catalog.Catalog {
	fraud := Circular(SlugUPIFraud, "RBI", "UPI", "2025-06-20", "high", "PSP", "high", "Issuer", "medium", "Aggregator", "low")
	fraud.CircularNumber = "RBI/2025-26/41"
	fraud.Title = "UPI fraud risk controls"
	fraud.Content = "Banks and UPI apps must apply fraud controls to every UPI payment, including 100% of UPI_LITE flows. Fraud reports go to the bank."
	fraud.Summary = "Fraud controls for UPI."
	fraud.OfficialURL = "https://www.rbi.org.in/fraud"
	fraud.EffectiveDate = datePtr("2025-07-01")
	fraud.ComplianceDates = []catalog.ComplianceDate{{Date: Date("2025-09-30"), What: "Report compliance to the board"}}
	fraud.AdditionalSourceURLs = []string{"https://example.org/fraud-2"}
	fraud.Verification = "checked"

	lite := Circular(SlugUPILite, "NPCI", "UPI", "2025-06-10", "medium", "PSP", "medium", "Issuer", "low")
	lite.Title = "UPI Lite limits"
	lite.Content = "UPI Lite wallet limits rise for small payments."
	lite.Verification = "reported"

	cyber := Circular(SlugCyber, "SEBI", "Security", "2025-05-01", "high", "Aggregator", "high")
	cyber.CircularNumber = "SEBI/HO/ITD/2025/7"
	cyber.Title = "Cybersecurity and cyber resilience framework"
	cyber.Content = "Regulated entities must adopt the framework; fraud monitoring is one control."
	cyber.DocumentType = "master-direction"

	token := Circular(SlugTokenisation, "RBI", "Payment Systems", "2024-01-15", "high", "PSP", "high", "Issuer", "high")
	token.CircularNumber = "RBI/2023-24/99"
	token.Title = "Card tokenisation"
	token.Content = "Card-on-file tokenisation extends to issuers."
	token.Verification = "pending"

	bima := Circular(SlugBimaSugam, "IRDAI", "Digital Insurance", "2025-06-25", "low", "Issuer", "low")
	bima.Title = "Bima Sugam marketplace"
	bima.TitleIsDescriptive = true
	bima.Content = "An online insurance marketplace; fraud is out of its scope."

	return &catalog.Catalog{
		Circulars: []catalog.Circular{bima, fraud, lite, cyber, token},
		News: []catalog.NewsItem{
			{Entry: entry("news", "rbi-upi-fraud-news"), Title: "RBI tightens UPI fraud rules", Content: "Body.",
				Excerpt: "New controls for UPI apps.", Source: "RBI", Category: "Payment Systems", Region: "India",
				PublishedDate: Date("2025-06-21"), SourceURL: "https://example.org/n1", Circular: SlugUPIFraud},
			{Entry: entry("news", "cbdc-pilot-expands"), Title: "Digital rupee pilot expands", Content: "Body.",
				Excerpt: "More banks join the e₹ pilot.", Source: "RBI", Category: "CBDC", Region: "India",
				PublishedDate: Date("2025-06-02"), SourceURL: "https://example.org/n2"},
			{Entry: entry("news", "eu-ai-act-timeline"), Title: "EU AI Act timeline", Content: "Body.",
				Excerpt: "Obligations phase in.", Source: "European Union", Category: "Regulations", Region: "Global",
				PublishedDate: Date("2025-03-01"), SourceURL: "https://example.org/n3"},
		},
		Companies: []catalog.Company{
			{Entry: entry("companies", "klarna"), Name: "Klarna", Description: "Buy now, pay later.", Country: "Sweden",
				Category: "BNPL"},
			{Entry: entry("companies", "razorpay"), Name: "Razorpay", Founder: "Harshil Mathur, Shashank Kumar",
				Description: "Payment gateway.", Country: "India", Category: "Payment Processing", Founded: 2014,
				LinkedinProfile: "https://www.linkedin.com/in/harshilmathur", SourceURL: "https://example.org/razorpay",
				Leader: "Harshil Mathur", LeaderGroup: "prominent", LeaderIsCEO: true},
		},
		Regulations: []catalog.Regulation{
			{Entry: entry("regulations", "aus-privacy-reform"), Name: "Privacy Act reform", Country: "Australia",
				Description: "Proposed reform.", Status: "proposed", KeyProvisions: []string{"A"}},
			{Entry: entry("regulations", "dpdpa"), Name: "Digital Personal Data Protection Act", ShortName: "DPDPA",
				Country: "India", Description: "India's data law.", Status: "active", KeyProvisions: []string{"Consent", "Notice"},
				ComplianceRequirements: []string{"Appoint a DPO"}},
			{Entry: entry("regulations", "gdpr"), Name: "General Data Protection Regulation", ShortName: "GDPR",
				Country: "European Union", Description: "The EU's data law.", Status: "active",
				EffectiveDate: datePtr("2018-05-25"), KeyProvisions: []string{"Lawful basis", "Rights", "Fines", "DPIA"},
				OfficialTextURL: "https://eur-lex.europa.eu/eli/reg/2016/679/oj"},
		},
		Networks: []catalog.Network{
			{Entry: entry("networks", "upi"), Name: "UPI (NPCI)", Description: "Instant payments.", Guidelines: []string{"Limits"},
				WebsiteURL: "https://www.npci.org.in"},
			{Entry: entry("networks", "visa"), Name: "Visa", Type: "card network", Description: "Card scheme.",
				Guidelines: []string{"Tokenisation", "PCI DSS"}, ContactInfo: "Visa Worldwide", Founded: "1958",
				Profile: "Visa's **profile**."},
		},
		Sibos: []catalog.SibosEvent{
			{Entry: entry("sibos", "sibos-2025"), Title: "Sibos 2025", Year: 2025, Theme: "Next", Description: "Frankfurt.",
				Status: "upcoming", StartDate: datePtr("2025-09-29"), EndDate: datePtr("2025-10-02"), Location: "Frankfurt",
				ExpectedAttendees: 10000, RegistrationOpen: true, KeyTopics: []string{"AI", "Payments", "ISO 20022", "Fraud"},
				Speakers: []string{}, WebsiteURL: "https://www.sibos.com"},
			{Entry: entry("sibos", "sibos-2019"), Title: "Sibos 2019", Year: 2019, Description: "London.", Status: "completed",
				KeyTopics: []string{}, Speakers: []string{}},
		},
	}
}

var words = strings.Fields(`payment settlement card issuer acquirer wallet mandate tokenisation fraud limit
	dispute reconciliation merchant gateway aggregator interoperability authentication cyber resilience
	grievance ombudsman sandbox pension insurance enrollment digital rupee account aggregator lending
	disclosure compliance reporting audit outsourcing vendor incident breach notification`)

// Circulars generates n circulars deterministically: sources, categories,
// impact levels and dates (over ten years before Now) cycle so that each
// source and category pair holds about n/96 of them.
func Circulars(n int) []catalog.Circular {
	r := rand.New(rand.NewPCG(1, 2))
	text := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = words[r.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	sources := catalog.Sources
	out := make([]catalog.Circular, n)
	for i := range out {
		slug := fmt.Sprintf("gen-%06d", i)
		impact := catalog.ImpactLevels[r.IntN(len(catalog.ImpactLevels))]
		c := Circular(slug, sources[i%len(sources)], catalog.CircularCategories[(i/len(sources))%len(catalog.CircularCategories)],
			Now.AddDate(0, 0, -r.IntN(3650)).Format("2006-01-02"), impact,
			"PSP", catalog.ImpactLevels[r.IntN(3)], "Issuer", catalog.ImpactLevels[r.IntN(3)], "Aggregator", impact)
		c.CircularNumber = catalog.OptString(fmt.Sprintf("GEN/%d/%06d", 2015+i%10, i))
		c.Title = text(6)
		c.Content = text(60)
		out[i] = c
	}
	return out
}

// commonWords make most of a generated circular's text, as function words
// and the generic vocabulary of regulation do in real ones.
var commonWords = strings.Fields(`the the the the of of of and and and to to in in a a for for by on
	shall shall be be is are may must with under all any such as or from that which this these
	payment payments system systems operator bank banks entity entities regulated customer customers
	account accounts transaction transactions direction directions circular guidelines compliance
	reporting board policy framework risk management within from date effect days month year
	implementation timeline requirement requirements provisions paragraph section act issued`)

// topics are what a circular is about: each generated circular draws its
// subject words from one or two, so that a subject word is frequent in a
// few circulars and rare elsewhere, as in real ones.
var topics = [][]string{
	strings.Fields("card cards tokenisation token tokens storage cardholder network networks issuer"),
	strings.Fields("aggregator aggregators gateway gateways merchant merchants escrow nodal net worth capital"),
	strings.Fields("wallet prepaid instrument instruments limit limits reload kyc minimum full"),
	strings.Fields("authentication factor additional authorisation authorised authorization device biometric otp"),
	strings.Fields("cyber security resilience incident breach encryption logging vulnerability audit"),
	strings.Fields("grievance redressal complaint ombudsman appellate award compensation turnaround"),
	strings.Fields("dispute resolution online odr chargeback reversal failed refund reconciliation"),
	strings.Fields("digital rupee currency central cbdc pilot retail wholesale token-based"),
	strings.Fields("sandbox innovation fintech cohort testing regulatory applicant eligibility"),
	strings.Fields("lending loan borrower lender disclosure key fact statement annual percentage rate recovery agent"),
	strings.Fields("mandate recurring recurrence notification pre-debit consent e-mandate standing instruction"),
	strings.Fields("interface unified api response time timeout collect request beneficiary verification"),
	strings.Fields("insurance insurer insurers policyholder premium marketplace bima intermediary"),
	strings.Fields("pension subscriber contribution nps annuity retirement d-remit"),
	strings.Fields("know your customer aadhaar video identification periodic updation beneficial owner"),
	strings.Fields("outsourcing vendor third party cloud service provider contract exit"),
	strings.Fields("cross border export import foreign exchange remittance purpose code"),
	strings.Fields("offline small value proximity near field communication balance"),
	strings.Fields("investor investors broker brokers algorithmic trading exchange securities issue asba"),
	strings.Fields("interoperability qr code acceptance infrastructure terminal pos soundbox"),
}

// RealisticCirculars generates n circulars shaped like real ones for
// benchmarks: a reference number in the regulators' styles, a title of 6
// to 14 words, a summary, and a text of 300 to 3,000 words in sentences
// and paragraphs, mostly common words with the words of one or two
// topics. About one in five is about UPI. Deterministic for a seed.
func RealisticCirculars(n int, seed uint64) []catalog.Circular {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]catalog.Circular, n)
	for i := range out {
		own := slices.Concat(topics[r.IntN(len(topics))], topics[r.IntN(len(topics))])
		words := func(k int) []string {
			ws := make([]string, k)
			for j := range ws {
				switch x := r.IntN(100); {
				case x < 70:
					ws[j] = commonWords[r.IntN(len(commonWords))]
				case x < 98:
					ws[j] = own[r.IntN(len(own))]
				default: // a word of another topic, in passing
					t := topics[r.IntN(len(topics))]
					ws[j] = t[r.IntN(len(t))]
				}
			}
			return ws
		}
		slug := fmt.Sprintf("bench-%06d", i)
		source := catalog.Sources[r.IntN(len(catalog.Sources)-1)]
		published := Now.AddDate(0, 0, -r.IntN(3650))
		c := Circular(slug, source, catalog.CircularCategories[r.IntN(len(catalog.CircularCategories))],
			published.Format("2006-01-02"), catalog.ImpactLevels[r.IntN(3)], "PSP", catalog.ImpactLevels[r.IntN(3)])
		fy := published.Year()
		switch r.IntN(3) {
		case 0:
			c.CircularNumber = catalog.OptString(fmt.Sprintf("RBI/%d-%02d/%d CO.DPSS.POLC.No.S-%d/02-14-%03d/%d-%02d",
				fy, (fy+1)%100, r.IntN(200)+1, r.IntN(2000)+1, r.IntN(20), fy, (fy+1)%100))
		case 1:
			c.CircularNumber = catalog.OptString(fmt.Sprintf("DPSS.CO.PD.No.%d/02.14.%03d/%d-%02d", r.IntN(2000)+1, r.IntN(20), fy, (fy+1)%100))
		default:
			c.CircularNumber = catalog.OptString(fmt.Sprintf("%s/HO/CIR/P/%d/%d", source, fy, r.IntN(200)+1))
		}
		title := words(6 + r.IntN(9))
		upi := r.IntN(5) == 0
		if upi {
			title[r.IntN(len(title))] = "UPI"
		}
		c.Title = strings.Join(title, " ")
		c.Summary = catalog.OptString(sentence(words(20 + r.IntN(15))))
		var b strings.Builder
		for left := 300 + r.IntN(2701); left > 0; {
			k := min(left, 12+r.IntN(20))
			ws := words(k)
			if upi && r.IntN(4) == 0 {
				ws[0] = "UPI"
			}
			b.WriteString(sentence(ws))
			left -= k
			if r.IntN(5) == 0 {
				b.WriteString("\n\n")
			} else {
				b.WriteByte(' ')
			}
		}
		c.Content = b.String()
		out[i] = c
	}
	return out
}

// sentence joins words as a sentence: capitalised, with a full stop.
func sentence(ws []string) string {
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// BenchCircularsEnv sets how many generated circulars the search
// benchmarks index (make bench-search runs them at 10,000 and 100,000).
const BenchCircularsEnv = "REGPULSE_BENCH_CIRCULARS"

// BenchCirculars is $REGPULSE_BENCH_CIRCULARS, else def.
func BenchCirculars(b testing.TB, def int) int {
	v := os.Getenv(BenchCircularsEnv)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q is not a positive number", BenchCircularsEnv, v)
	}
	return n
}

// ContentWith is a copy of the content folder src, in a temporary folder
// of t, plus n generated circulars shaped like real ones
// (RealisticCirculars) written as editors write them, each number once.
func ContentWith(b testing.TB, src string, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "content")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	seen := map[catalog.OptString]bool{}
	for i, c := range RealisticCirculars(n, 1) {
		if seen[c.CircularNumber] { // the catalog refuses a number used twice
			c.CircularNumber += catalog.OptString(fmt.Sprintf("-%d", i))
		}
		seen[c.CircularNumber] = true
		if err := os.WriteFile(filepath.Join(dir, "circulars", c.Slug+".md"), circularFile(c), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// circularFile is c as an editor would write it in content/circulars.
func circularFile(c catalog.Circular) []byte {
	var s strings.Builder
	q := func(v string) string { j, _ := json.Marshal(v); return string(j) } // a JSON string is a YAML string
	fmt.Fprintf(&s, "---\ncircularNumber: %s\ntitle: %s\nsource: %s\ncategory: %s\n", q(string(c.CircularNumber)), q(c.Title), c.Source, q(c.Category))
	fmt.Fprintf(&s, "publishedDate: %s\ndocumentType: %s\nimpactLevel: %s\nentityImpact:\n", c.PublishedDate, c.DocumentType, c.ImpactLevel)
	for _, e := range c.EntityImpact {
		fmt.Fprintf(&s, "  %s: %s\n", e.EntityType, e.ImpactLevel)
	}
	kind := c.SourceKind
	if kind == "" {
		kind = "report"
	}
	fmt.Fprintf(&s, "sourceUrl: %s\nsourceKind: %s\nsummary: %s\n---\n\n%s\n", q(string(c.SourceURL)), kind, q(string(c.Summary)), c.Content)
	return []byte(s.String())
}
