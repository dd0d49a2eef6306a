package catalog

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestLoad_SourceLinks(t *testing.T) {
	// circularFile's sourceUrl is line 9 of the file, its extra lines 10 on.
	const (
		official = "officialUrl: https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1\n"
		report   = "sourceKind: report\n"
	)
	link := func(u, k string) SourceLink { return NewSourceLink(u, k) }
	for _, tc := range []struct {
		name, lines  string
		want         []SourceLink
		wantWarnings []string
	}{
		{"OfficialFirst", official + report, []SourceLink{
			{URL: "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1", Kind: "official", Host: "rbi.org.in", Label: "View on rbi.org.in"},
			{URL: "https://example.org/", Kind: "report", Host: "example.org", Label: "Reported by example.org"},
		}, nil},
		// sourceKind left empty: the link is labelled, and warned of.
		{"NoKindIsUnofficial", official + "sourceKind:\n", []SourceLink{
			link("https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1", "official"),
			{URL: "https://example.org/", Kind: "unofficial", Host: "example.org", Label: "Unofficial copy on example.org"},
		}, []string{"content/circulars/a.md:9: sourceUrl: says not what example.org is (kind: official, report or unofficial): pages label it an unofficial copy"}},
		{"NoOfficialLinkWarned", report, []SourceLink{link("https://example.org/", "report")},
			[]string{"content/circulars/a.md:3: officialUrl: no official link: find RBI's own page for this circular"}},
		{"Additional", official + report + "additionalSourceUrls:\n  - {url: https://scribd.com/x, kind: unofficial}\n  - url: https://mondaq.com/y\n    kind: report\n", []SourceLink{
			link("https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1", "official"),
			link("https://example.org/", "report"),
			{URL: "https://scribd.com/x", Kind: "unofficial", Host: "scribd.com", Label: "Unofficial copy on scribd.com"},
			{URL: "https://mondaq.com/y", Kind: "report", Host: "mondaq.com", Label: "Reported by mondaq.com"},
		}, nil},
		// The same address twice is one link, the first's.
		{"Duplicates", official + report + "additionalSourceUrls:\n  - {url: \"HTTP://example.org\", kind: unofficial}\n", []SourceLink{
			link("https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1", "official"),
			link("https://example.org/", "report"),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": circularFile("2026-01-01", tc.lines)})
			if problems != nil {
				t.Fatal(problems)
			}
			if diff := cmp.Diff(tc.want, []SourceLink(cat.Circulars[0].Links)); diff != "" {
				t.Errorf("Links (-want +got):\n%s", diff)
			}
			var warnings []string
			for _, w := range cat.Warnings {
				warnings = append(warnings, w.String())
			}
			if diff := cmp.Diff(tc.wantWarnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("SourceIsOfficial", func(t *testing.T) {
		// regpulse ingest writes the official link as sourceUrl too.
		cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": {Data: []byte("---\ntitle: t\nsource: SEBI\ncategory: UPI\npublishedDate: 2026-01-01\nimpactLevel: low\nentityImpact:\n  PSP: low\nsourceUrl: https://www.sebi.gov.in/x.html\nofficialUrl: https://www.sebi.gov.in/x.html\n---\nbody\n")}})
		if problems != nil {
			t.Fatal(problems)
		}
		c := cat.Circulars[0]
		if diff := cmp.Diff([]SourceLink{link("https://www.sebi.gov.in/x.html", "official")}, []SourceLink(c.Links)); diff != "" || c.SourceKind != "official" {
			t.Errorf("sourceKind %q, Links (-want +got):\n%s", c.SourceKind, diff)
		}
	})

	for _, tc := range []struct {
		name, lines string
		want        []string
	}{
		{"ErrUnknownKind", "sourceKind: blog\n", []string{
			`content/circulars/a.md:10: sourceKind: unknown value "blog" (allowed: official, report, unofficial)`}},
		{"ErrOfficialOffSite", "sourceKind: official\n", []string{
			"content/circulars/a.md:9: sourceUrl: example.org is not on RBI's own site (rbi.org.in): an official link is the regulator's page"}},
		{"ErrReportOnRegulatorSite", "additionalSourceUrls:\n  - {url: https://rbidocs.rbi.org.in/x.pdf, kind: report}\n", []string{
			"content/circulars/a.md:10: additionalSourceUrls: rbidocs.rbi.org.in is a regulator's site: its kind is official"}},
		{"ErrSourceIsOfficialButReport", "officialUrl: https://example.org/\nsourceKind: report\n", []string{
			"content/circulars/a.md:10: officialUrl: example.org is not on RBI's own site (rbi.org.in): an official link is the regulator's page",
			"content/circulars/a.md:11: sourceKind: sourceUrl is the officialUrl: its kind is official"}},
		{"ErrAdditionalKind", "additionalSourceUrls:\n  - {url: https://x.org/, kind: blog}\n", []string{
			`content/circulars/a.md:11: additionalSourceUrls: unknown kind "blog" (allowed: official, report, unofficial)`}},
		{"ErrAdditionalKey", "additionalSourceUrls:\n  - {url: https://x.org/, publisher: X}\n", []string{
			`content/circulars/a.md:11: additionalSourceUrls: unknown key "publisher" in a source (want url, kind and as)`}},
		{"ErrAdditionalForm", "additionalSourceUrls:\n  - {url: https://x.org/, kind: unofficial, as: scan}\n", []string{
			`content/circulars/a.md:11: additionalSourceUrls: unknown form "scan" in as (allowed: press-release, hindi, pdf, repost)`}},
		{"ErrAdditionalURL", "additionalSourceUrls:\n  - {url: x.org, kind: report}\n", []string{
			`content/circulars/a.md:11: additionalSourceUrls: not a valid http(s) URL: "x.org"`}},
		{"ErrConfidenceWithoutURL", "officialUrlConfidence: medium\n", []string{
			"content/circulars/a.md:10: officialUrlConfidence: says how officialUrl was matched, and there is no officialUrl"}},
		{"ErrConfidenceValue", "officialUrl: https://rbi.org.in/x\nofficialUrlConfidence: low\n", []string{
			`content/circulars/a.md:11: officialUrlConfidence: unknown value "low" (allowed: high, medium)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := problemsOf(t, fstest.MapFS{"circulars/a.md": circularFile("2026-01-01", tc.lines)})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// A copy ingest kept as "also published as" says what it is in its label.
func TestSourceLinkForms(t *testing.T) {
	cat, problems := problemsOf(t, fstest.MapFS{"circulars/a.md": {Data: []byte("---\ntitle: t\nsource: RBI\ncategory: UPI\npublishedDate: 2026-01-01\nimpactLevel: low\nentityImpact:\n  PSP: low\n" +
		"officialUrl: https://www.rbi.org.in/x\nsourceUrl: https://www.rbi.org.in/x\nadditionalSourceUrls:\n" +
		"  - url: https://www.rbi.org.in/hi/x\n    kind: official\n    as: hindi\n" +
		"  - {url: https://rbidocs.rbi.org.in/x.pdf, kind: official, as: pdf}\n" +
		"  - {url: https://www.rbi.org.in/pr/x, kind: official, as: press-release}\n" +
		"  - {url: https://example.org/x, kind: unofficial, as: repost}\n---\nbody\n")}})
	if problems != nil {
		t.Fatal(problems)
	}
	var got []string
	for _, l := range cat.Circulars[0].Links {
		got = append(got, l.As+": "+l.Label)
	}
	want := []string{": View on rbi.org.in", "hindi: Hindi version on rbi.org.in", "pdf: PDF on rbidocs.rbi.org.in",
		"press-release: Press release on rbi.org.in", "repost: Unofficial repost on example.org"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}

func TestNormaliseLink(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1&Mode=0", "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1&Mode=0", true},
		{"HTTP://WWW.RBI.ORG.IN/Scripts/NotificationUser.aspx?Id=1&Mode=0#annex", "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=1&Mode=0", true},
		{" https://www.sebi.gov.in/legal/x.html/ ", "https://www.sebi.gov.in/legal/x.html", true},
		{"https://www.sebi.gov.in/", "https://www.sebi.gov.in", true},
		{"/Scripts/NotificationUser.aspx?Id=1", "", false},
		{"mailto:x@rbi.org.in", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := NormaliseLink(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NormaliseLink(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
