package catalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Valid entries of each kind, used as the base of the ParseFile cases. The
// comments give the file line of each field.
const (
	validCircular = `---
title: "A circular"
source: RBI
category: UPI
publishedDate: 2020-01-01
impactLevel: low
entityImpact:
  PSP: low
sourceUrl: "https://rbi.org.in/c"
---

What the circular says.
` // title 2, source 3, category 4, publishedDate 5, impactLevel 6, entityImpact 7 (PSP 8), sourceUrl 9 (RBI's own site: official, so pending), --- 10

	validNews = `---
title: "A news item"
excerpt: "One sentence."
source: Swift
category: CBDC
region: Global
publishedDate: 2020-02-01
sourceUrl: "https://example.org/n"
---

What happened.
` // title 2, excerpt 3, source 4, category 5, region 6, publishedDate 7, sourceUrl 8, --- 9

	validCompany = `---
name: Example Pay
description: A payment company.
country: India
category: Lending
---
` // name 2, description 3, country 4, category 5, --- 6

	validRegulation = `---
name: Example Act
country: India
status: draft
keyProvisions:
- One provision
---

What the act covers.
` // name 2, country 3, status 4, keyProvisions 5 (item 6), --- 7

	validNetwork = `---
name: UPI (NPCI)
description: The UPI rail.
guidelines:
- One rule
guidelinesAsOf: 2020-01-01
circularTerms:
- UPI
---
` // name 2, description 3, guidelines 4 (item 5), guidelinesAsOf 6, circularTerms 7 (item 8), --- 9

	validSibos = `---
title: Sibos 2024
year: 2024
status: upcoming
---

About this edition.
` // title 2, year 3, status 4, --- 5

	validEvent = `---
name: Example Summit
group: major
---

About the event.
` // name 2, group 3, --- 4

	validBody = `---
name: Reserve Bank of India
shortName: RBI
keyFunctions:
  - Regulates payment systems
---
` // name 2, shortName 3, keyFunctions 4 (item 5), --- 6

	validAd = `---
title: An ad
description: What it offers.
company: Example
category: banking
ctaText: Go
targetUrl: /news
---
` // title 2, description 3, company 4, category 5, ctaText 6, targetUrl 7, --- 8

	validVideo = `---
title: A video
description: What it teaches.
durationMinutes: 15
level: Advanced
---
` // title 2, description 3, durationMinutes 4, level 5, --- 6
)

// replaceLine replaces the first line of src that starts with "field:" or is
// exactly field by repl, which may span several lines; an empty repl
// deletes the line.
func replaceLine(src, field, repl string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if l == field || strings.HasPrefix(l, field+":") {
			if repl == "" {
				return strings.Join(append(lines[:i:i], lines[i+1:]...), "\n")
			}
			lines[i] = repl
			return strings.Join(lines, "\n")
		}
	}
	panic("replaceLine: no line " + field)
}

// appendFront inserts text as the last lines of the front matter.
func appendFront(src, text string) string {
	i := strings.Index(src[4:], "\n---") + 4
	return src[:i+1] + text + src[i:]
}

// replaceBody replaces everything after the front matter.
func replaceBody(src, text string) string {
	i := strings.Index(src[4:], "\n---") + 4
	return src[:i] + "\n---\n" + text
}

func toCRLF(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

const utf8BOM = "\xef\xbb\xbf"

type parseCase struct {
	name string
	rel  string
	src  string
	// want lists the expected problems as "line: field: message" prefixes,
	// in any order; nil means the file is valid.
	want []string
	// bug names a known loader bug; the case is skipped while it fails.
	bug string
}

func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ParseFile(c.rel, []byte(c.src))
			var got []string
			if err != nil {
				var ps Problems
				if !errors.As(err, &ps) {
					t.Fatalf("error is %T, not Problems: %v", err, err)
				}
				for _, p := range ps {
					if p.Path != "content/"+c.rel {
						t.Errorf("problem path %q, want %q", p.Path, "content/"+c.rel)
					}
					got = append(got, strings.TrimPrefix(p.String(), p.Path+":"))
				}
			}
			if msg := matchProblems(got, c.want); msg != "" {
				msg = fmt.Sprintf("ParseFile(%s):\n%s\n got:\n\t%s\nwant:\n\t%s", c.rel, msg,
					strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
				if c.bug != "" {
					t.Errorf("regression, fixed %s\n%s", c.bug, msg)
				}
				t.Error(msg)
			}
		})
	}
}

// matchProblems pairs every wanted prefix with a distinct problem and
// reports what is missing or left over.
func matchProblems(got, want []string) string {
	used := make([]bool, len(got))
	var msgs []string
	for _, w := range want {
		found := false
		for i, g := range got {
			if !used[i] && strings.HasPrefix(g, w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			msgs = append(msgs, "missing: "+w)
		}
	}
	for i, g := range got {
		if !used[i] {
			msgs = append(msgs, "unexpected: "+g)
		}
	}
	return strings.Join(msgs, "\n")
}

func TestParseFile_Valid(t *testing.T) {
	runParseCases(t, []parseCase{
		{name: "circular", rel: "circulars/c.md", src: validCircular},
		{name: "news", rel: "news/n.md", src: validNews},
		{name: "company", rel: "companies/c.md", src: validCompany},
		{name: "regulation", rel: "regulations/r.md", src: validRegulation},
		{name: "network", rel: "networks/upi.md", src: validNetwork},
		{name: "sibos", rel: "sibos/2024.md", src: validSibos},
		{name: "event", rel: "events/e.md", src: validEvent},
		{name: "body", rel: "bodies/rbi.md", src: validBody},
		{name: "ad", rel: "ads/a.md", src: validAd},
		{name: "video", rel: "videos/v.md", src: validVideo},
	})
}

func TestParseFile_FrontMatter(t *testing.T) {
	runParseCases(t, []parseCase{
		{name: "CRLF valid", rel: "circulars/c.md", src: toCRLF(validCircular)},
		{name: "CRLF problem keeps its line", rel: "circulars/c.md", src: toCRLF(replaceLine(validCircular, "source", "source: FED")),
			want: []string{`3: source: unknown value "FED"`}},
		{name: "CRLF body problem", rel: "circulars/c.md", src: toCRLF(replaceBody(validCircular, "\n  \n")),
			want: []string{`10: body: the text below the front matter is empty`}},
		{name: "BOM valid", rel: "news/n.md", src: utf8BOM + validNews},
		{name: "BOM problem keeps its line", rel: "news/n.md", src: utf8BOM + replaceLine(validNews, "region", "region: Mars"),
			want: []string{`6: region: unknown value "Mars"`}},
		{name: "BOM and CRLF", rel: "circulars/c.md", src: utf8BOM + toCRLF(replaceLine(validCircular, "publishedDate", "publishedDate: 2020-02-30")),
			want: []string{`5: publishedDate: bad date "2020-02-30"`}},
		{name: "CRLF YAML error line", rel: "circulars/c.md", src: toCRLF(replaceLine(validCircular, "category", "category: UPI: Lite")),
			want: []string{`4: front matter: mapping values are not allowed`}},
		{name: "no front matter", rel: "companies/c.md", src: "# Example Pay\n\nname: x\n",
			want: []string{`1: file: file must start with a '---' line`}},
		{name: "empty file", rel: "companies/c.md", src: "",
			want: []string{`1: file: file must start with a '---' line`}},
		{name: "opening line with trailing space", rel: "companies/c.md", src: "--- \n" + validCompany[4:],
			want: []string{`1: file: file must start with a '---' line`}},
		{name: "unclosed", rel: "companies/c.md", src: strings.TrimSuffix(validCompany, "---\n"),
			want: []string{`1: file: front matter is not closed by a '---' line`}},
		{name: "closing line at end of file without newline", rel: "companies/c.md", src: strings.TrimSuffix(validCompany, "\n")},
		{name: "empty front matter", rel: "companies/c.md", src: "---\n---\n",
			want: []string{`2: name: required field is missing`, `2: description: required field is missing`,
				`2: country: required field is missing`, `2: category: required field is missing`}},
		{name: "front matter of comments only", rel: "videos/v.md", src: "---\n# nothing yet\n---\n",
			want: []string{`2: title: required field is missing`, `2: description: required field is missing`,
				`2: durationMinutes: required field is missing`, `2: level: required field is missing`}},
		{name: "front matter is a list", rel: "events/e.md", src: "---\n- name: x\n---\nbody\n",
			want: []string{`2: front matter: must be a map of field: value`}},
		{name: "front matter is a scalar", rel: "events/e.md", src: "---\n\njust text\n---\nbody\n",
			want: []string{`3: front matter: must be a map of field: value`}},
		{name: "YAML error: unquoted colon", rel: "circulars/c.md", src: replaceLine(validCircular, "title", "title: Payments: the next step"),
			want: []string{`2: front matter: mapping values are not allowed in this context`}},
		{name: "YAML error: unclosed flow list", rel: "news/n.md", src: replaceLine(validNews, "title", "title: [x"),
			want: []string{`2: front matter: did not find expected ',' or ']'`}},
		{name: "YAML error: tab indentation", rel: "regulations/r.md", src: replaceLine(validRegulation, "- One provision", "\t- One provision"),
			want: []string{`6: front matter: found character that cannot start any token`}},
		{name: "unknown field", rel: "circulars/c.md", src: appendFront(validCircular, "Title: x"),
			want: []string{`10: Title: unknown field`}},
		{name: "two unknown fields", rel: "videos/v.md", src: appendFront(validVideo, "duration: 5\nlevels: [Beginner]"),
			want: []string{`6: duration: unknown field`, `7: levels: unknown field`}},
		{name: "field given twice", rel: "videos/v.md", src: appendFront(validVideo, "title: Again"),
			want: []string{`6: title: field given twice`}},
		{name: "unknown field holding a null", rel: "ads/a.md", src: appendFront(validAd, "sponsor:"),
			want: []string{`8: sponsor: unknown field`}},
	})
}

func TestParseFile_FileNames(t *testing.T) {
	runParseCases(t, []parseCase{
		{name: "unknown folder", rel: "misc/x.md", src: validCompany,
			want: []string{`0: file: not in a content folder`}},
		{name: "top level", rel: "x.md", src: validCompany,
			want: []string{`0: file: not in a content folder`}},
		{name: "nested folder", rel: "companies/old/x.md", src: validCompany,
			want: []string{`0: file: not in a content folder`}},
		{name: "folder name case", rel: "Companies/x.md", src: validCompany,
			want: []string{`0: file: not in a content folder`}},
		{name: "not markdown", rel: "companies/x.txt", src: validCompany,
			want: []string{`0: file: content files must end in .md`}},
		{name: "uppercase", rel: "companies/Example-Pay.md", src: validCompany,
			want: []string{`0: file: file name "Example-Pay" must be lowercase words joined by '-'`}},
		{name: "underscore", rel: "companies/example_pay.md", src: validCompany,
			want: []string{`0: file: file name "example_pay" must be lowercase`}},
		{name: "double dash", rel: "companies/example--pay.md", src: validCompany,
			want: []string{`0: file: file name "example--pay" must be lowercase`}},
		{name: "empty slug", rel: "companies/.md", src: validCompany,
			want: []string{`0: file: file name "" must be lowercase`}},
	})
}

func TestParseFile_Fields(t *testing.T) {
	long := strings.Repeat("a", 201)
	runParseCases(t, []parseCase{
		// Required text.
		{name: "str/missing", rel: "circulars/c.md", src: replaceLine(validCircular, "title", ""),
			want: []string{`2: title: required field is missing`}},
		{name: "str/null", rel: "circulars/c.md", src: replaceLine(validCircular, "title", "title:"),
			want: []string{`2: title: required field is missing`}},
		{name: "str/tilde", rel: "circulars/c.md", src: replaceLine(validCircular, "title", "title: ~"),
			want: []string{`2: title: required field is missing`}},
		{name: "str/null later in the file", rel: "videos/v.md", src: replaceLine(validVideo, "level", "level:    # to do"),
			want: []string{`5: level: required field is missing`}},
		{name: "str/empty", rel: "circulars/c.md", src: replaceLine(validCircular, "title", `title: ""`),
			want: []string{`2: title: required field is empty`}},
		{name: "str/blank", rel: "circulars/c.md", src: replaceLine(validCircular, "title", `title: "   "`),
			want: []string{`2: title: required field is empty`}},
		{name: "str/list", rel: "circulars/c.md", src: replaceLine(validCircular, "title", `title: [a, b]`),
			want: []string{`2: title: must be a single value, not a list or map`}},
		{name: "str/map", rel: "circulars/c.md", src: replaceLine(validCircular, "title", "title:\n  en: A circular"),
			want: []string{`3: title: must be a single value, not a list or map`}},
		{name: "str/block scalar", rel: "circulars/c.md", src: replaceLine(validCircular, "title", "title: >\n  A folded\n  title")},
		{name: "str/number is text", rel: "companies/c.md", src: replaceLine(validCompany, "name", "name: 1337")},
		{name: "str/optional empty", rel: "circulars/c.md", src: appendFront(validCircular, `circularNumber: ""`)},
		{name: "str/all required missing", rel: "events/e.md", src: "---\nlocation: Paris\n---\nbody\n",
			want: []string{`2: name: required field is missing`, `2: group: required field is missing`}},

		// Enumerations.
		{name: "enum/source", rel: "circulars/c.md", src: replaceLine(validCircular, "source", "source: FED"),
			want: []string{`3: source: unknown value "FED" (allowed: RBI, NPCI, SEBI, IRDAI, PFRDA, PRB, IDRBT, other)`}},
		{name: "enum/source is case-sensitive", rel: "circulars/c.md", src: replaceLine(validCircular, "source", "source: rbi"),
			want: []string{`3: source: unknown value "rbi"`}},
		{name: "enum/source other", rel: "circulars/c.md", src: replaceLine(validCircular, "source", "source: other")},
		{name: "enum/value is trimmed", rel: "circulars/c.md", src: replaceLine(validCircular, "category", `category: " Digital Payments "`)},
		{name: "enum/circular category", rel: "circulars/c.md", src: replaceLine(validCircular, "category", "category: Crypto"),
			want: []string{`4: category: unknown value "Crypto"`}},
		{name: "enum/news category of circulars", rel: "news/n.md", src: replaceLine(validNews, "category", "category: UPI"),
			want: []string{`5: category: unknown value "UPI" (allowed: Payment Systems, CBDC, Sandbox, Digital Banking, Regulations)`}},
		{name: "enum/impactLevel", rel: "circulars/c.md", src: replaceLine(validCircular, "impactLevel", "impactLevel: High"),
			want: []string{`6: impactLevel: unknown value "High" (allowed: high, medium, low)`}},
		{name: "enum/impactLevel empty", rel: "circulars/c.md", src: replaceLine(validCircular, "impactLevel", `impactLevel: ""`),
			want: []string{`6: impactLevel: required field is empty`}},
		{name: "enum/region", rel: "news/n.md", src: replaceLine(validNews, "region", "region: india"),
			want: []string{`6: region: unknown value "india" (allowed: India, Global)`}},
		{name: "enum/company category", rel: "companies/c.md", src: replaceLine(validCompany, "category", "category: Payments"),
			want: []string{`5: category: unknown value "Payments"`}},
		{name: "enum/regulation country", rel: "regulations/r.md", src: replaceLine(validRegulation, "country", "country: EU"),
			want: []string{`3: country: unknown value "EU"`}},
		{name: "enum/regulation status", rel: "regulations/r.md", src: replaceLine(validRegulation, "status", "status: Active"),
			want: []string{`4: status: unknown value "Active" (allowed: active, draft, proposed)`}},
		{name: "enum/network name", rel: "networks/upi.md", src: replaceLine(validNetwork, "name", "name: UPI"),
			want: []string{`2: name: unknown value "UPI"`}},
		{name: "enum/sibos status", rel: "sibos/2024.md", src: replaceLine(validSibos, "status", "status: cancelled"),
			want: []string{`4: status: unknown value "cancelled" (allowed: upcoming, ongoing, completed)`}},
		{name: "enum/event group", rel: "events/e.md", src: replaceLine(validEvent, "group", "group: Major"),
			want: []string{`3: group: unknown value "Major" (allowed: major, other)`}},
		{name: "enum/event type and frequency", rel: "events/e.md", src: appendFront(validEvent, "type: Meetup\nfrequency: Weekly"),
			want: []string{`4: type: unknown value "Meetup"`, `5: frequency: unknown value "Weekly"`}},
		{name: "enum/event type optional null", rel: "events/e.md", src: appendFront(validEvent, "type:\nfrequency:")},
		{name: "enum/body shortName", rel: "bodies/rbi.md", src: replaceLine(validBody, "shortName", "shortName: rbi"),
			want: []string{`3: shortName: unknown value "rbi" (allowed: RBI, NPCI, SEBI, IRDAI)`}},
		{name: "enum/ad category", rel: "ads/a.md", src: replaceLine(validAd, "category", "category: Banking"),
			want: []string{`5: category: unknown value "Banking" (allowed: payment, banking, compliance)`}},
		{name: "enum/video level", rel: "videos/v.md", src: replaceLine(validVideo, "level", "level: Expert"),
			want: []string{`5: level: unknown value "Expert" (allowed: Beginner, Intermediate, Advanced)`}},

		// entityImpact.
		{name: "entityImpact/missing", rel: "circulars/c.md", src: replaceLine(replaceLine(validCircular, "entityImpact", ""), "  PSP", ""),
			want: []string{`2: entityImpact: required field is missing`}},
		{name: "entityImpact/scalar", rel: "circulars/c.md", src: replaceLine(replaceLine(validCircular, "entityImpact", "entityImpact: high"), "  PSP", ""),
			want: []string{"7: entityImpact: must be a map like `PSP: high`"}},
		{name: "entityImpact/list", rel: "circulars/c.md", src: replaceLine(validCircular, "  PSP", "  - PSP"),
			want: []string{"8: entityImpact: must be a map like `PSP: high`"}},
		{name: "entityImpact/empty map", rel: "circulars/c.md", src: replaceLine(replaceLine(validCircular, "entityImpact", "entityImpact: {}"), "  PSP", ""),
			want: []string{`7: entityImpact: needs at least one entity type`}},
		{name: "entityImpact/unknown type", rel: "circulars/c.md", src: replaceLine(validCircular, "  PSP", "  Bank: high"),
			want: []string{`8: entityImpact: unknown entity type "Bank" (allowed: PSP, Issuer, Aggregator)`}},
		{name: "entityImpact/type is case-sensitive", rel: "circulars/c.md", src: replaceLine(validCircular, "  PSP", "  psp: high"),
			want: []string{`8: entityImpact: unknown entity type "psp"`}},
		{name: "entityImpact/unknown level", rel: "circulars/c.md", src: replaceLine(validCircular, "  PSP", "  PSP: critical"),
			want: []string{`8: entityImpact: unknown impact level "critical" for PSP (allowed: high, medium, low)`}},
		{name: "entityImpact/null level", rel: "circulars/c.md", src: replaceLine(validCircular, "  PSP", "  PSP:"),
			want: []string{`8: entityImpact: unknown impact level "" for PSP`}},
		{name: "entityImpact/one bad one good", rel: "circulars/c.md", src: replaceLine(validCircular, "  PSP", "  PSP: low\n  Acquirer: low\n  Issuer: mid"),
			want: []string{`9: entityImpact: unknown entity type "Acquirer"`, `10: entityImpact: unknown impact level "mid" for Issuer`}},
		{name: "entityImpact/flow map", rel: "circulars/c.md", src: replaceLine(replaceLine(validCircular, "entityImpact", "entityImpact: {Issuer: high, PSP: low}"), "  PSP", "")},
		{name: "entityImpact/type given twice", rel: "circulars/c.md", src: replaceLine(validCircular, "  PSP", "  PSP: low\n  PSP: high"),
			bug:  "BUG fields.go entityImpact: an entity type given twice (PSP: low, PSP: high) is accepted silently (the last wins), while top-level fields given twice are reported",
			want: []string{`9: entityImpact: `}},

		// Dates.
		{name: "date/one-digit month", rel: "circulars/c.md", src: replaceLine(validCircular, "publishedDate", "publishedDate: 2020-1-5"),
			want: []string{`5: publishedDate: bad date "2020-1-5" (want YYYY-MM-DD)`}},
		{name: "date/day out of range", rel: "circulars/c.md", src: replaceLine(validCircular, "publishedDate", "publishedDate: 2020-02-30"),
			want: []string{`5: publishedDate: bad date "2020-02-30"`}},
		{name: "date/leap day", rel: "circulars/c.md", src: replaceLine(validCircular, "publishedDate", "publishedDate: 2020-02-29")},
		{name: "date/day first", rel: "circulars/c.md", src: replaceLine(validCircular, "publishedDate", "publishedDate: 17/03/2020"),
			want: []string{`5: publishedDate: bad date "17/03/2020"`}},
		{name: "date/with time", rel: "circulars/c.md", src: replaceLine(validCircular, "publishedDate", "publishedDate: 2020-01-01T10:00:00Z"),
			want: []string{`5: publishedDate: bad date "2020-01-01T10:00:00Z"`}},
		{name: "date/year only", rel: "circulars/c.md", src: replaceLine(validCircular, "publishedDate", "publishedDate: 2020"),
			want: []string{`5: publishedDate: bad date "2020"`}},
		{name: "date/quoted", rel: "circulars/c.md", src: replaceLine(validCircular, "publishedDate", `publishedDate: "2020-01-01"`)},
		{name: "date/missing", rel: "news/n.md", src: replaceLine(validNews, "publishedDate", ""),
			want: []string{`2: publishedDate: required field is missing`}},
		{name: "date/optional bad", rel: "circulars/c.md", src: appendFront(validCircular, "effectiveDate: soon"),
			want: []string{`10: effectiveDate: bad date "soon"`}},
		{name: "date/optional null", rel: "circulars/c.md", src: appendFront(validCircular, "effectiveDate:")},
		{name: "date/regulation effectiveDate", rel: "regulations/r.md", src: appendFront(validRegulation, "effectiveDate: 2018-05"),
			want: []string{`7: effectiveDate: bad date "2018-05"`}},
		{name: "date/endDate before startDate", rel: "sibos/2024.md", src: appendFront(validSibos, "startDate: 2024-10-24\nendDate: 2024-10-21"),
			want: []string{`6: endDate: is before startDate`}},
		{name: "date/endDate equals startDate", rel: "sibos/2024.md", src: appendFront(validSibos, "startDate: 2024-10-21\nendDate: 2024-10-21")},
		{name: "date/endDate before startDate written first", rel: "sibos/2024.md", src: appendFront(validSibos, "endDate: 2024-10-21\nstartDate: 2024-10-24"),
			want: []string{`5: endDate: is before startDate`}},
		{name: "date/endDate alone", rel: "sibos/2024.md", src: appendFront(validSibos, "endDate: 2024-10-21")},

		// URLs.
		{name: "link/no scheme", rel: "circulars/c.md", src: replaceLine(validCircular, "sourceUrl", "sourceUrl: www.rbi.org.in/x"),
			want: []string{`9: sourceUrl: not a valid http(s) URL: "www.rbi.org.in/x"`}},
		{name: "link/ftp", rel: "circulars/c.md", src: replaceLine(validCircular, "sourceUrl", "sourceUrl: ftp://rbi.org.in/x"),
			want: []string{`9: sourceUrl: not a valid http(s) URL: "ftp://rbi.org.in/x"`}},
		{name: "link/no host", rel: "circulars/c.md", src: replaceLine(validCircular, "sourceUrl", `sourceUrl: "https://"`),
			want: []string{`9: sourceUrl: not a valid http(s) URL: "https://"`}},
		{name: "link/space", rel: "circulars/c.md", src: replaceLine(validCircular, "sourceUrl", `sourceUrl: "https://example.org/a b"`),
			want: []string{`9: sourceUrl: not a valid http(s) URL: "https://example.org/a b"`}},
		{name: "link/javascript", rel: "circulars/c.md", src: replaceLine(validCircular, "sourceUrl", `sourceUrl: "javascript:alert(1)"`),
			want: []string{`9: sourceUrl: not a valid http(s) URL`}},
		{name: "link/mailto", rel: "companies/c.md", src: appendFront(validCompany, "websiteUrl: mailto:a@example.org"),
			want: []string{`6: websiteUrl: not a valid http(s) URL`}},
		{name: "link/http accepted", rel: "circulars/c.md", src: replaceLine(validCircular, "sourceUrl", "sourceUrl: http://rbi.org.in/c")},
		{name: "link/required empty", rel: "circulars/c.md", src: replaceLine(validCircular, "sourceUrl", `sourceUrl: ""`),
			want: []string{`9: sourceUrl: required field is empty`}},
		{name: "link/optional ones", rel: "companies/c.md", src: appendFront(validCompany, "websiteUrl: example.org\nlinkedinProfile: linkedin.com/x\nxProfile: \"@example\"\nsourceUrl: /about"),
			want: []string{`6: websiteUrl: not a valid`, `7: linkedinProfile: not a valid`, `8: xProfile: not a valid`, `9: sourceUrl: not a valid`}},
		{name: "link/officialUrl", rel: "circulars/c.md", src: appendFront(validCircular, "officialUrl: rbi.org.in"),
			want: []string{`10: officialUrl: not a valid http(s) URL`}},
		{name: "target/path", rel: "ads/a.md", src: replaceLine(validAd, "targetUrl", "targetUrl: /impact-tracker?x=1")},
		{name: "target/URL", rel: "ads/a.md", src: replaceLine(validAd, "targetUrl", "targetUrl: https://example.org/x")},
		{name: "target/relative", rel: "ads/a.md", src: replaceLine(validAd, "targetUrl", "targetUrl: news"),
			want: []string{`7: targetUrl: must be a path starting with / or an http(s) URL: "news"`}},
		{name: "target/protocol-relative", rel: "ads/a.md", src: replaceLine(validAd, "targetUrl", "targetUrl: //evil.example"),
			want: []string{`7: targetUrl: must be a path starting with / or an http(s) URL: "//evil.example"`}},
		{name: "target/missing", rel: "ads/a.md", src: replaceLine(validAd, "targetUrl", ""),
			want: []string{`2: targetUrl: required field is missing`}},

		// Lists.
		{name: "list/scalar", rel: "circulars/c.md", src: appendFront(validCircular, `additionalSourceUrls: "https://example.org/a"`),
			want: []string{`10: additionalSourceUrls: must be a list`}},
		{name: "list/map", rel: "events/e.md", src: appendFront(validEvent, "focus:\n  a: b"),
			want: []string{`5: focus: must be a list`}},
		{name: "list/empty optional", rel: "circulars/c.md", src: appendFront(validCircular, "additionalSourceUrls: []")},
		{name: "list/null optional", rel: "circulars/c.md", src: appendFront(validCircular, "additionalSourceUrls:")},
		{name: "list/bad URL item", rel: "circulars/c.md", src: appendFront(validCircular, "additionalSourceUrls:\n  - https://example.org/a\n  - example.org/b"),
			want: []string{`12: additionalSourceUrls: not a valid http(s) URL: "example.org/b"`}},
		{name: "list/bad URL after an empty item", rel: "circulars/c.md", src: appendFront(validCircular, "additionalSourceUrls:\n  - \"\"\n  - example.org/b"),
			bug:  "BUG fields.go linkList: the bad URL's line comes from Content[i] with i an index into the filtered list, so it points at the empty item",
			want: []string{`11: additionalSourceUrls: list items must be non-empty text`, `12: additionalSourceUrls: not a valid http(s) URL: "example.org/b"`}},
		{name: "list/required scalar", rel: "regulations/r.md", src: replaceLine(replaceLine(validRegulation, "keyProvisions", "keyProvisions: One provision"), "- One provision", ""),
			want: []string{`5: keyProvisions: must be a list`}},
		{name: "list/required empty", rel: "regulations/r.md", src: replaceLine(replaceLine(validRegulation, "keyProvisions", "keyProvisions: []"), "- One provision", ""),
			want: []string{`5: keyProvisions: needs at least one item`}},
		{name: "list/required null", rel: "networks/upi.md", src: replaceLine(replaceLine(validNetwork, "guidelines", "guidelines:"), "- One rule", ""),
			want: []string{`4: guidelines: required field is missing`}},
		{name: "list/empty item", rel: "regulations/r.md", src: replaceLine(validRegulation, "- One provision", "- One provision\n- \"\""),
			want: []string{`7: keyProvisions: list items must be non-empty text`}},
		{name: "list/nested list item", rel: "regulations/r.md", src: replaceLine(validRegulation, "- One provision", "- One provision\n- [a, b]"),
			want: []string{`7: keyProvisions: list items must be non-empty text`}},
		{name: "list/only an empty item", rel: "bodies/rbi.md", src: replaceLine(validBody, "  - Regulates payment systems", `  - ""`),
			want: []string{`5: keyFunctions: list items must be non-empty text`, `5: keyFunctions: needs at least one item`}},
		{name: "list/optional scalars", rel: "sibos/2024.md", src: appendFront(validSibos, "keyTopics: AI\nspeakers: Someone"),
			want: []string{`5: keyTopics: must be a list`, `6: speakers: must be a list`}},
		// A list now derived from the catalog is refused, saying so.
		{name: "removed/recentUpdates", rel: "bodies/rbi.md", src: appendFront(validBody, "recentUpdates:\n  - rbi-2020-01-01-x"),
			want: []string{`6: recentUpdates: derived from the catalog (the body's newest circulars); remove it`}},
		{name: "removed/sibos editions", rel: "events/sibos.md", src: appendFront(validEvent, "editions: []"),
			want: []string{`4: editions: Sibos's editions are content/sibos/YEAR.md; remove it`}},
		// Hand-kept guidelines say since when they are true.
		{name: "network/guidelinesAsOf missing", rel: "networks/upi.md", src: replaceLine(validNetwork, "guidelinesAsOf", ""),
			want: []string{`2: guidelinesAsOf: required field is missing`}},
		{name: "network/guidelinesAsOf bad", rel: "networks/upi.md", src: replaceLine(validNetwork, "guidelinesAsOf", "guidelinesAsOf: May 2025"),
			want: []string{`6: guidelinesAsOf: bad date "May 2025" (want YYYY-MM-DD)`}},
		{name: "network/circularTerms missing", rel: "networks/upi.md", src: replaceLine(replaceLine(validNetwork, "circularTerms", ""), "- UPI", ""),
			want: []string{`2: circularTerms: required field is missing`}},
		// An event's editions, each with its source.
		{name: "editions/valid", rel: "events/e.md", src: appendFront(validEvent, "editions:\n- {year: 2026, startDate: 2026-09-08, endDate: 2026-09-11, location: Mumbai, status: upcoming, sourceUrl: \"https://example.org/e\"}\n- {year: 2027, status: upcoming, sourceUrl: \"https://example.org/f\"}")},
		{name: "editions/scalar", rel: "events/e.md", src: appendFront(validEvent, "editions: 2026"),
			want: []string{`4: editions: must be a list of {year, startDate, endDate, location, status, sourceUrl}`}},
		{name: "editions/problems", rel: "events/e.md", src: appendFront(validEvent, "editions:\n- year: 2026\n  startDate: 2026-09-11\n  endDate: 2026-09-08\n  status: upcoming\n- year: 2026\n  startDate: 2025-10-07\n  status: soon\n  city: Mumbai\n  sourceUrl: \"https://example.org/e\""),
			want: []string{
				`5: editions[0].sourceUrl: required field is missing`,
				`7: editions[0].endDate: is before startDate`,
				`9: editions[1].year: edition 2026 is given twice`,
				`10: editions[1].startDate: 2025-10-07 is not in the edition's year 2026`,
				`11: editions[1].status: unknown value "soon" (allowed: upcoming, ongoing, completed)`,
				`12: editions[1].city: unknown field`,
			}},
		{name: "list/complianceRequirements map", rel: "regulations/r.md", src: appendFront(validRegulation, "complianceRequirements: {a: b}"),
			want: []string{`7: complianceRequirements: must be a list`}},

		// Numbers and booleans.
		{name: "integer/not a number", rel: "videos/v.md", src: replaceLine(validVideo, "durationMinutes", "durationMinutes: 15 min"),
			want: []string{`4: durationMinutes: not a whole number: "15 min"`}},
		{name: "integer/fraction", rel: "videos/v.md", src: replaceLine(validVideo, "durationMinutes", "durationMinutes: 1.5"),
			want: []string{`4: durationMinutes: not a whole number: "1.5"`}},
		{name: "integer/too small", rel: "videos/v.md", src: replaceLine(validVideo, "durationMinutes", "durationMinutes: 0"),
			want: []string{`4: durationMinutes: 0 is out of range 1-600`}},
		{name: "integer/too large", rel: "videos/v.md", src: replaceLine(validVideo, "durationMinutes", "durationMinutes: 601"),
			want: []string{`4: durationMinutes: 601 is out of range 1-600`}},
		{name: "integer/quoted", rel: "videos/v.md", src: replaceLine(validVideo, "durationMinutes", `durationMinutes: "45"`)},
		{name: "integer/missing", rel: "videos/v.md", src: replaceLine(validVideo, "durationMinutes", ""),
			want: []string{`2: durationMinutes: required field is missing`}},
		{name: "integer/huge", rel: "videos/v.md", src: replaceLine(validVideo, "durationMinutes", "durationMinutes: 99999999999999999999"),
			want: []string{`4: durationMinutes: not a whole number`}},
		{name: "integer/sibos year bounds", rel: "sibos/2024.md", src: replaceLine(validSibos, "year", "year: 1977"),
			want: []string{`3: year: 1977 is out of range 1978-2100`}},
		{name: "integer/sibos first year", rel: "sibos/2024.md", src: replaceLine(validSibos, "year", "year: 1978")},
		{name: "integer/sibos year text", rel: "sibos/2024.md", src: replaceLine(validSibos, "year", "year: twenty"),
			want: []string{`3: year: not a whole number: "twenty"`}},
		{name: "integer/expectedAttendees", rel: "sibos/2024.md", src: appendFront(validSibos, "expectedAttendees: 0"),
			want: []string{`5: expectedAttendees: 0 is out of range 1-10000000`}},
		{name: "integer/company founded too early", rel: "companies/c.md", src: appendFront(validCompany, "founded: 1599"),
			want: []string{fmt.Sprintf(`6: founded: 1599 is out of range 1600-%d`, time.Now().Year())}},
		{name: "integer/company founded in the future", rel: "companies/c.md", src: appendFront(validCompany, fmt.Sprintf("founded: %d", time.Now().Year()+1)),
			want: []string{fmt.Sprintf(`6: founded: %d is out of range 1600-%d`, time.Now().Year()+1, time.Now().Year())}},
		{name: "integer/company founded null", rel: "companies/c.md", src: appendFront(validCompany, "founded:")},
		{name: "integer/body established", rel: "bodies/rbi.md", src: appendFront(validBody, "established: 19th century"),
			want: []string{`6: established: not a whole number`}},
		{name: "boolean/yes", rel: "circulars/c.md", src: appendFront(validCircular, "titleIsDescriptive: yes"),
			want: []string{`10: titleIsDescriptive: not true or false: "yes"`}},
		{name: "boolean/empty", rel: "ads/a.md", src: appendFront(validAd, `sponsored: ""`),
			want: []string{`8: sponsored: not true or false: ""`}},
		{name: "boolean/true", rel: "ads/a.md", src: appendFront(validAd, "sponsored: true")},
		{name: "boolean/null", rel: "ads/a.md", src: appendFront(validAd, "sponsored:")},
		{name: "boolean/list", rel: "sibos/2024.md", src: appendFront(validSibos, "registrationOpen: [true]"),
			want: []string{`5: registrationOpen: must be a single value`}},

		// Text limits and bodies.
		{name: "excerpt/201 characters", rel: "news/n.md", src: replaceLine(validNews, "excerpt", "excerpt: "+long),
			want: []string{`3: excerpt: is 201 characters; keep it to 200`}},
		{name: "excerpt/200 multi-byte characters", rel: "news/n.md", src: replaceLine(validNews, "excerpt", "excerpt: "+strings.Repeat("é", 200))},
		{name: "excerpt/missing", rel: "news/n.md", src: replaceLine(validNews, "excerpt", ""),
			want: []string{`2: excerpt: required field is missing`}},
		{name: "body/empty circular", rel: "circulars/c.md", src: replaceBody(validCircular, ""),
			want: []string{`10: body: the text below the front matter is empty`}},
		{name: "body/blank news", rel: "news/n.md", src: replaceBody(validNews, "\n \t\n\n"),
			want: []string{`9: body: the text below the front matter is empty`}},
		{name: "body/empty regulation", rel: "regulations/r.md", src: replaceBody(validRegulation, ""),
			bug:  "BUG kinds.go lastLine: the body problem points at the last key's line + 1 (here the list item), not at the closing '---'",
			want: []string{`7: body: the text below the front matter is empty`}},
		{name: "body/empty sibos", rel: "sibos/2024.md", src: replaceBody(validSibos, ""),
			want: []string{`5: body: the text below the front matter is empty`}},
		{name: "body/empty event", rel: "events/e.md", src: replaceBody(validEvent, ""),
			want: []string{`4: body: the text below the front matter is empty`}},
		{name: "body/empty front matter and body", rel: "events/e.md", src: "---\n---\n",
			want: []string{`2: name: required field is missing`, `2: group: required field is missing`, `2: body: the text below the front matter is empty`}},
		{name: "body/optional for networks", rel: "networks/upi.md", src: validNetwork},
		{name: "body/optional for bodies", rel: "bodies/rbi.md", src: validBody},

		// Identity.
		{name: "id/not a UUID", rel: "circulars/c.md", src: appendFront(validCircular, "id: 1234"),
			want: []string{`10: id: not a UUID: "1234"`}},
		{name: "id/upper case", rel: "circulars/c.md", src: appendFront(validCircular, "id: 3F2504E0-4F89-41D3-9A0C-0305E82C3301")},
		{name: "id/list", rel: "circulars/c.md", src: appendFront(validCircular, "id: [a]"),
			want: []string{`10: id: must be a single value`}},
		{name: "id/empty", rel: "videos/v.md", src: appendFront(validVideo, `id: ""`)},
		{name: "body shortName must match the file", rel: "bodies/npci.md", src: validBody,
			want: []string{`3: shortName: RBI must live in bodies/rbi.md`}},
		{name: "news circular is not checked by ParseFile", rel: "news/n.md", src: appendFront(validNews, "circular: rbi-1999-01-01-nothing")},
	})
}

// TestParseFile_FieldNames checks that every problem names a field, even
// when the front matter's key is not a plain name.
func TestParseFile_FieldNames(t *testing.T) {
	cases := []struct{ name, src string }{
		{"empty key", appendFront(validVideo, `"": x`)},
		{"flow list as key", appendFront(validVideo, "[a, b]: x")},
		{"complex key", appendFront(validVideo, "? {a: b}\n: x")},
		{"null key", appendFront(validVideo, "~: x")},
		{"empty key given twice", appendFront(validVideo, "\"\": x\n\"\": y")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ParseFile("videos/v.md", []byte(c.src))
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("want problems, got %v", err)
			}
			for _, p := range ps {
				if p.Field == "" {
					t.Errorf("regression, fixed BUG fields.go newFields/done: a front-matter key that is empty or not a scalar gives a problem with an empty Field (%q); name it, e.g. %q, or report the key itself", p.String(), `""`)
				}
			}
		})
	}
}

// TestParseFile_Alias: an alias to a scalar is a single value, so it must
// not be rejected as "a list or map" (resolving it or refusing aliases with
// their own message are both fine).
func TestParseFile_Alias(t *testing.T) {
	src := appendFront(replaceLine(validRegulation, "name", "name: &n Example Act"), "regulator: *n")
	err := ParseFile("regulations/r.md", []byte(src))
	if err != nil && strings.Contains(err.Error(), "7: regulator: must be a single value, not a list or map") {
		t.Errorf("regression, fixed BUG fields.go scalar: an alias to a scalar (regulator: *n) is rejected as \"must be a single value, not a list or map\": %v", err)
	}
}

func TestParseFile_SecondDocument(t *testing.T) {
	err := ParseFile("news/x.md", []byte("---\ntitle: x\n...\nsource: FOO\n---\nbody\n"))
	if err == nil || !strings.Contains(err.Error(), "content/news/x.md:") || !strings.Contains(err.Error(), "more than one YAML document") {
		t.Errorf("err = %v; want the second document reported", err)
	}
}
