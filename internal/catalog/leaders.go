package catalog

import (
	"slices"
	"sort"
	"strings"
)

// The leader groups that order the Indian list of /fintech-leaders
// (docs/CONTENT.md): the payments-body chief first, then the card-network
// co-founder/CTO, then the named prominent founders, then everyone else.
// Content names the people (a company's leaderGroup), code only orders them.
const (
	GroupPaymentsBodyChief = "payments-body-chief"
	GroupCardNetwork       = "card-network"
	GroupProminent         = "prominent"
)

// LeaderGroups lists the groups in the order the Indian list shows them.
var LeaderGroups = []string{GroupPaymentsBodyChief, GroupCardNetwork, GroupProminent}

// The role titles /fintech-leaders shows, plus "Founder" for a sole
// founder who is not the CEO (the others all claim a CEO or CTO post;
// content says when that would be false with leaderIsCeo: false).
const (
	TitleCEOAndMD     = "CEO & MD"
	TitleCoFounderCTO = "Co-Founder & CTO"
	TitleCoFounderCEO = "Co-Founder & CEO"
	TitleFounderCEO   = "Founder & CEO"
	TitleCoFounder    = "Co-Founder"
	TitleFounder      = "Founder"
)

// leadersIndia is the country of the Indian list; every other country is Global.
const leadersIndia = "India"

// Founders splits the founder field ("A, B, C") into names, in order.
func (c Company) Founders() []string {
	var out []string
	for _, n := range strings.Split(string(c.Founder), ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Featured is the person /fintech-leaders shows for the company: leader
// when set, otherwise the first founder; "" when neither is known.
func (c Company) Featured() string {
	if c.Leader != "" {
		return string(c.Leader)
	}
	if fs := c.Founders(); len(fs) > 0 {
		return fs[0]
	}
	return ""
}

// RoleTitle derives the featured person's title: the group's fixed title
// for the payments-body chief and the card-network co-founder, otherwise
// from where the person stands in the founder list (sole founder, first
// of several, a later co-founder). No person, or a person who is not a
// founder outside those groups, has no title.
func RoleTitle(c Company) string {
	switch c.LeaderGroup {
	case GroupPaymentsBodyChief:
		return TitleCEOAndMD
	case GroupCardNetwork:
		return TitleCoFounderCTO
	}
	person, founders := c.Featured(), c.Founders()
	i := slices.Index(founders, person)
	switch {
	case person == "" || i < 0:
		return ""
	case i > 0:
		return TitleCoFounder
	case len(founders) == 1 && c.LeaderIsCEO:
		return TitleFounderCEO
	case len(founders) == 1:
		return TitleFounder
	case c.LeaderIsCEO:
		return TitleCoFounderCEO
	default:
		return TitleCoFounder
	}
}

// Leader is a company as a /fintech-leaders card shows it.
type Leader struct {
	Company
	Person    string `json:"person,omitempty"`
	RoleTitle string `json:"roleTitle,omitempty"`
}

// Leaders splits the companies into the Indian list (country India) and
// the Global list, each in its order: Indian by leader group
// then company name, Global by company name. Names compare without case.
func Leaders(companies []Company) (indian, global []Leader) {
	indian, global = []Leader{}, []Leader{} // empty lists, not null, for the templates
	for _, c := range companies {
		l := Leader{Company: c, Person: c.Featured(), RoleTitle: RoleTitle(c)}
		if c.Country == leadersIndia {
			indian = append(indian, l)
		} else {
			global = append(global, l)
		}
	}
	byName := func(a, b Leader) bool {
		x, y := strings.ToLower(a.Name), strings.ToLower(b.Name)
		if x != y {
			return x < y
		}
		return a.Slug < b.Slug
	}
	sort.SliceStable(indian, func(i, j int) bool {
		if gi, gj := groupRank(string(indian[i].LeaderGroup)), groupRank(string(indian[j].LeaderGroup)); gi != gj {
			return gi < gj
		}
		return byName(indian[i], indian[j])
	})
	sort.SliceStable(global, func(i, j int) bool { return byName(global[i], global[j]) })
	return indian, global
}

// groupRank is a group's place in the Indian list; no group comes last.
func groupRank(g string) int {
	if i := slices.Index(LeaderGroups, g); i >= 0 {
		return i
	}
	return len(LeaderGroups)
}
