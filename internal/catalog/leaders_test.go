package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestFounders(t *testing.T) {
	for _, tc := range []struct {
		founder string
		want    []string
	}{
		{"", nil},
		{"Kunal Shah", []string{"Kunal Shah"}},
		{"Harshil Mathur, Shashank Kumar", []string{"Harshil Mathur", "Shashank Kumar"}},
		{" A ,B,, C ", []string{"A", "B", "C"}},
	} {
		if got := (Company{Founder: OptString(tc.founder)}).Founders(); !slices.Equal(got, tc.want) {
			t.Errorf("Founders(%q) = %q, want %q", tc.founder, got, tc.want)
		}
	}
}

func TestRoleTitle(t *testing.T) {
	for _, tc := range []struct {
		name   string
		c      Company
		person string
		title  string
	}{
		{"payments-body chief, not a founder", Company{Leader: "Dilip Asbe", LeaderGroup: GroupPaymentsBodyChief, LeaderIsCEO: true},
			"Dilip Asbe", TitleCEOAndMD},
		{"card-network co-founder", Company{Founder: "A, B", Leader: "B", LeaderGroup: GroupCardNetwork, LeaderIsCEO: true},
			"B", TitleCoFounderCTO},
		{"card-network co-founder listed first", Company{Founder: "A, B", LeaderGroup: GroupCardNetwork, LeaderIsCEO: true},
			"A", TitleCoFounderCTO},
		{"sole founder", Company{Founder: "Kunal Shah", LeaderIsCEO: true}, "Kunal Shah", TitleFounderCEO},
		{"sole founder, prominent", Company{Founder: "Kunal Shah", LeaderGroup: GroupProminent, LeaderIsCEO: true}, "Kunal Shah", TitleFounderCEO},
		{"sole founder who is not the CEO", Company{Founder: "Kamesh Goyal"}, "Kamesh Goyal", TitleFounder},
		{"first of several", Company{Founder: "Harshil Mathur, Shashank Kumar", LeaderIsCEO: true}, "Harshil Mathur", TitleCoFounderCEO},
		{"first of several, named as leader", Company{Founder: "A, B", Leader: "A", LeaderIsCEO: true}, "A", TitleCoFounderCEO},
		{"first of several who is not the CEO", Company{Founder: "Ashneer Grover, Shashvat Nakrani"}, "Ashneer Grover", TitleCoFounder},
		{"a later co-founder", Company{Founder: "A, B, C", Leader: "C", LeaderIsCEO: true}, "C", TitleCoFounder},
		{"a later co-founder, CEO flag off", Company{Founder: "A, B", Leader: "B"}, "B", TitleCoFounder},
		{"no founder", Company{LeaderIsCEO: true}, "", ""},
		{"leader outside the founders (refused by the loader)", Company{Founder: "A", Leader: "Z", LeaderIsCEO: true}, "Z", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Featured(); got != tc.person {
				t.Errorf("Featured() = %q, want %q", got, tc.person)
			}
			if got := RoleTitle(tc.c); got != tc.title {
				t.Errorf("RoleTitle() = %q, want %q", got, tc.title)
			}
		})
	}
}

func TestLeaders_Order(t *testing.T) {
	in := func(slug, name, group string) Company {
		return Company{Entry: Entry{Slug: slug}, Name: name, Country: "India", Founder: "Someone", LeaderGroup: OptString(group), LeaderIsCEO: true}
	}
	out := func(slug, name, country string) Company {
		return Company{Entry: Entry{Slug: slug}, Name: name, Country: country}
	}
	companies := []Company{
		out("wise", "Wise", "United Kingdom"),
		in("zerodha", "Zerodha", GroupProminent),
		in("acko", "Acko", ""),
		out("adyen", "Adyen", "Netherlands"),
		in("cred", "CRED", GroupProminent),
		in("card", "Zeta Card Network", GroupCardNetwork),
		in("bharatpe", "bharatPe", ""), // case does not change the order
		{Entry: Entry{Slug: "npci"}, Name: "NPCI", Country: "India", Leader: "Dilip Asbe", LeaderGroup: GroupPaymentsBodyChief},
		in("indmoney", "INDmoney", ""),
		out("affirm", "affirm", "United States"),
		in("acko-2", "Acko", ""), // same name: the slug decides
	}
	indian, global := Leaders(companies)
	slugs := func(ls []Leader) []string {
		var s []string
		for _, l := range ls {
			s = append(s, l.Slug)
		}
		return s
	}
	if want := []string{"npci", "card", "cred", "zerodha", "acko", "acko-2", "bharatpe", "indmoney"}; !slices.Equal(slugs(indian), want) {
		t.Errorf("Indian order %q, want %q", slugs(indian), want)
	}
	if want := []string{"adyen", "affirm", "wise"}; !slices.Equal(slugs(global), want) {
		t.Errorf("Global order %q, want %q", slugs(global), want)
	}
	if l := indian[0]; l.Person != "Dilip Asbe" || l.RoleTitle != TitleCEOAndMD {
		t.Errorf("first Indian leader %q %q", l.Person, l.RoleTitle)
	}
	if l := global[0]; l.Person != "" || l.RoleTitle != "" {
		t.Errorf("company without founder shows %q %q", l.Person, l.RoleTitle)
	}
	// The input is not reordered.
	if companies[0].Slug != "wise" {
		t.Error("Leaders reordered its input")
	}
}

// TestLeaders_RealContent pins the order of the real Indian list:
// NPCI's chief first, then the prominent founders, then by company name,
// and no false title where content says the founder is not the CEO.
func TestLeaders_RealContent(t *testing.T) {
	cat, problems := loadProblems(t, "../../content")
	if len(problems) > 0 {
		t.Fatalf("content problems:\n%q", problems)
	}
	indian, global := Leaders(cat.Companies)
	if len(indian) == 0 || len(global) == 0 {
		t.Fatalf("%d Indian and %d Global leaders", len(indian), len(global))
	}
	if l := indian[0]; l.Slug != "npci" || l.Person != "Dilip Asbe" || l.RoleTitle != TitleCEOAndMD {
		t.Errorf("Indian list starts with %s %q %q, want NPCI's Dilip Asbe, %s", l.Slug, l.Person, l.RoleTitle, TitleCEOAndMD)
	}
	ranks := make([]int, len(indian))
	for i, l := range indian {
		ranks[i] = groupRank(string(l.LeaderGroup))
		if l.Country != "India" {
			t.Errorf("%s (%s) in the Indian list", l.Slug, l.Country)
		}
	}
	if !slices.IsSorted(ranks) {
		t.Errorf("Indian list not grouped: %v", ranks)
	}
	for _, l := range global {
		if l.Country == "India" || l.LeaderGroup != "" {
			t.Errorf("%s in the Global list with country %q, group %q", l.Slug, l.Country, l.LeaderGroup)
		}
	}
}

// The /fintech-leaders fields of a company file. validCompany's country is
// India; appended fields start at line 6.
func TestParseFile_Leaders(t *testing.T) {
	founders := appendFront(validCompany, "founder: Asha Rao, Ben Lee") // line 6
	runParseCases(t, []parseCase{
		{name: "leader/a later co-founder", rel: "companies/c.md", src: appendFront(founders, "leader: Ben Lee")},
		{name: "leader/prominent founder", rel: "companies/c.md", src: appendFront(founders, "leaderGroup: prominent")},
		{name: "leader/card-network co-founder", rel: "companies/c.md", src: appendFront(founders, "leader: Ben Lee\nleaderGroup: card-network")},
		{name: "leader/payments-body chief needs no founder", rel: "companies/c.md", src: appendFront(validCompany, "leader: Dilip Asbe\nleaderGroup: payments-body-chief")},
		{name: "leader/not the CEO", rel: "companies/c.md", src: appendFront(founders, "leaderIsCeo: false")},
		{name: "leader/CEO said explicitly", rel: "companies/c.md", src: appendFront(founders, "leaderIsCeo: true")},
		{name: "leader/empty values are absent", rel: "companies/c.md", src: appendFront(validCompany, "leader:\nleaderGroup:\nleaderIsCeo:")},

		{name: "leader/not a founder", rel: "companies/c.md", src: appendFront(founders, "leader: Carl Diaz"),
			want: []string{`7: leader: "Carl Diaz" is not one of the founders (Asha Rao, Ben Lee)`}},
		{name: "leader/case matters", rel: "companies/c.md", src: appendFront(founders, "leader: ben lee"),
			want: []string{`7: leader: "ben lee" is not one of the founders`}},
		{name: "leader/without founder", rel: "companies/c.md", src: appendFront(validCompany, "leader: Asha Rao"),
			want: []string{`6: leader: "Asha Rao" must be one of the founders, and founder is empty`}},
		{name: "leader/a list", rel: "companies/c.md", src: appendFront(founders, "leader: [Asha Rao]"),
			want: []string{`7: leader: must be a single value`}},
		{name: "leaderGroup/unknown", rel: "companies/c.md", src: appendFront(founders, "leaderGroup: famous"),
			want: []string{`7: leaderGroup: unknown value "famous" (allowed: payments-body-chief, card-network, prominent)`}},
		{name: "leaderGroup/case matters", rel: "companies/c.md", src: appendFront(founders, "leaderGroup: Prominent"),
			want: []string{`7: leaderGroup: unknown value "Prominent"`}},
		{name: "leaderGroup/chief without leader", rel: "companies/c.md", src: appendFront(founders, "leaderGroup: payments-body-chief"),
			want: []string{`7: leaderGroup: payments-body-chief needs leader: the name of the body's chief`}},
		{name: "leaderGroup/prominent without a person", rel: "companies/c.md", src: appendFront(validCompany, "leaderGroup: prominent"),
			want: []string{`6: leaderGroup: prominent needs a person: set founder`}},
		{name: "leaderGroup/card-network without a person", rel: "companies/c.md", src: appendFront(validCompany, "leaderGroup: card-network"),
			want: []string{`6: leaderGroup: card-network needs a person: set founder`}},
		{name: "leaderGroup/outside India", rel: "companies/c.md", src: appendFront(replaceLine(founders, "country", "country: Sweden"), "leaderGroup: prominent"),
			want: []string{`7: leaderGroup: orders the Indian list only, and country is "Sweden"`}},
		{name: "leaderIsCeo/not a boolean", rel: "companies/c.md", src: appendFront(founders, "leaderIsCeo: no"),
			want: []string{`7: leaderIsCeo: not true or false: "no"`}},
		{name: "leaderIsCeo/without founder", rel: "companies/c.md", src: appendFront(validCompany, "leaderIsCeo: false"),
			want: []string{`6: leaderIsCeo: only changes a featured founder's title`}},
		{name: "leaderIsCeo/for the chief", rel: "companies/c.md", src: appendFront(validCompany, "leader: Dilip Asbe\nleaderGroup: payments-body-chief\nleaderIsCeo: true"),
			want: []string{`8: leaderIsCeo: only changes a featured founder's title`}},
		{name: "leaderIsCeo/for the card-network co-founder", rel: "companies/c.md", src: appendFront(founders, "leaderGroup: card-network\nleaderIsCeo: false"),
			want: []string{`8: leaderIsCeo: only changes a featured founder's title`}},
	})
}

// Only one company may lead the Indian list as the payments-body chief or
// the card-network co-founder; the second is reported at its leaderGroup.
func TestLoad_OneLeaderPerFirstGroup(t *testing.T) {
	chief := "---\nname: %s\ndescription: d\ncountry: India\ncategory: Lending\nfounder: A, B\nleader: B\nleaderGroup: %s\n---\n"
	fsys := fstest.MapFS{
		"companies/a.md": {Data: fmt.Appendf(nil, chief, "A", "payments-body-chief")},
		"companies/b.md": {Data: fmt.Appendf(nil, chief, "B", "payments-body-chief")},
		"companies/c.md": {Data: fmt.Appendf(nil, chief, "C", "card-network")},
		"companies/d.md": {Data: fmt.Appendf(nil, chief, "D", "card-network")},
		"companies/e.md": {Data: fmt.Appendf(nil, chief, "E", "prominent")},
		"companies/f.md": {Data: fmt.Appendf(nil, chief, "F", "prominent")},
	}
	_, err := LoadFS(fsys, "content", nil)
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("LoadFS: %v, want Problems", err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	want := []string{
		"content/companies/b.md:8: leaderGroup: payments-body-chief is already content/companies/a.md; only one company can lead the list",
		"content/companies/d.md:8: leaderGroup: card-network is already content/companies/c.md; only one company can lead the list",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
