// Package directionstest generates Master Directions at the archive's
// size for tests and benchmarks: directions with many provisions and
// versions whose effects insert, substitute, delete and renumber, each
// with the generator's own copy of every version's text, kept as the
// effects are drawn, so that rebuilding a text from the effects can be
// checked against it.
package directionstest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"regpulse/internal/catalog"
)

// Generated is one generated direction and, by version date (the issue
// date first), its whole text on that date as the generator kept it.
type Generated struct {
	Direction catalog.MasterDirection
	Texts     map[catalog.Date][]catalog.Provision
}

var words = strings.Fields(`payment system operator issuer aggregator merchant shall ensure customer
	account wallet limit balance transaction settlement escrow authentication factor report board policy
	grievance refund days within month year reserve bank directions paragraph amended interoperable card
	token network risk fraud monitoring audit data storage India rupees per calendar provided that such`)

// Directions makes n directions of provisions provisions each, with
// versions versions after the issue, from seed (the same seed, the same
// directions). Every version has between one and ten effects.
func Directions(n, versions, provisions int, seed uint64) []Generated {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]Generated, n)
	for i := range out {
		out[i] = direction(r, i, versions, provisions)
	}
	return out
}

func sentence(r *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[r.IntN(len(words))]
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	return strings.Join(ws, " ") + "."
}

func text(r *rand.Rand) string {
	var b strings.Builder
	for i := range 2 + r.IntN(4) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentence(r, 8+r.IntN(14)))
	}
	return b.String()
}

func direction(r *rand.Rand, i, nversions, nprovisions int) Generated {
	issued := catalog.Date{Time: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%365)}
	d := catalog.MasterDirection{
		Entry:      catalog.Entry{Slug: fmt.Sprintf("generated-md-%04d", i), ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i)},
		Title:      fmt.Sprintf("Generated Master Direction %d", i),
		Source:     "RBI",
		IssuedDate: issued, ReviewedOn: issued,
		AppliesTo: catalog.TextList{"PSP", "Issuer", "Aggregator"},
		Status:    "in-force",
		Chapters:  catalog.List[catalog.Chapter]{{ID: "I", Title: "Preliminary"}, {ID: "II", Title: "Provisions"}},
	}
	for p := range nprovisions {
		ch := "II"
		if p < 3 {
			ch = "I"
		}
		d.Provisions = append(d.Provisions, catalog.Provision{ID: strconv.Itoa(p + 1), Chapter: catalog.OptString(ch),
			Heading: catalog.OptString(sentence(r, 3)), Text: text(r), Wording: "digest"})
	}
	g := Generated{Texts: map[catalog.Date][]catalog.Provision{issued: slices.Clone(d.Provisions)}}
	cur := slices.Clone(d.Provisions) // the generator's own copy
	day := issued
	for v := range nversions {
		day = catalog.Date{Time: day.AddDate(0, 1+r.IntN(5), r.IntN(20))}
		ver := catalog.DirectionVersion{Date: day, ChangesKnown: true, Direction: d.Slug, ID: fmt.Sprintf("%s-v%02d", d.ID, v),
			Amending: &catalog.AmendingCircular{Title: fmt.Sprintf("Amendment %d to %s", v+1, d.Title)},
			Note:     sentence(r, 12)}
		for range 1 + r.IntN(10) {
			e, next, ok := effect(r, cur)
			if ok {
				ver.Effects = append(ver.Effects, e)
				cur = next
			}
		}
		d.Versions = append(d.Versions, ver)
		g.Texts[day] = slices.Clone(cur)
	}
	g.Direction = d
	return g
}

// effect draws one effect on cur and applies it to a copy.
func effect(r *rand.Rand, cur []catalog.Provision) (catalog.Effect, []catalog.Provision, bool) {
	next := slices.Clone(cur)
	ids := map[string]bool{}
	for _, p := range cur {
		ids[p.ID] = true
	}
	i := r.IntN(len(cur))
	p := cur[i]
	switch k := r.IntN(10); {
	case k < 5: // a substitution: a word or a sentence changed
		t := p.Text
		if ws := strings.Fields(t); r.IntN(2) == 0 && len(ws) > 3 {
			ws[1+r.IntN(len(ws)-2)] = words[r.IntN(len(words))]
			t = strings.Join(ws, " ")
		} else {
			t = t + " " + sentence(r, 10)
		}
		if t == p.Text {
			return catalog.Effect{}, nil, false
		}
		next[i].Text = t
		return catalog.Effect{Kind: catalog.EffectSubstituted, Provision: p.ID, Text: t}, next, true
	case k < 8: // an insertion after p: p's id with a letter, as RBI numbers them
		id := ""
		for _, s := range "ABCDEFGH" {
			if c := p.ID + string(s); !ids[c] {
				id = c
				break
			}
		}
		if id == "" {
			return catalog.Effect{}, nil, false
		}
		np := catalog.Provision{ID: id, Chapter: p.Chapter, Heading: catalog.OptString(sentence(r, 3)), Text: text(r), Wording: "digest"}
		next = slices.Insert(next, i+1, np)
		return catalog.Effect{Kind: catalog.EffectInserted, Provision: id, After: p.ID, Heading: np.Heading, Text: np.Text, Wording: "digest"}, next, true
	case k < 9: // a deletion, keeping at least one provision
		if len(cur) < 2 {
			return catalog.Effect{}, nil, false
		}
		next = slices.Delete(next, i, i+1)
		return catalog.Effect{Kind: catalog.EffectDeleted, Provision: p.ID}, next, true
	default: // a renumbering to a free id
		to := p.ID + "-r"
		if ids[to] {
			return catalog.Effect{}, nil, false
		}
		next[i].ID = to
		return catalog.Effect{Kind: catalog.EffectRenumbered, Provision: p.ID, To: to}, next, true
	}
}

// Upto is d as a catalog holds it with only its first n versions: those
// versions and the history they make (catalog.BuildHistory), so that a
// test can sync it and then let the next version arrive.
func Upto(d catalog.MasterDirection, n int) (catalog.MasterDirection, error) {
	d.Versions = slices.Clone(d.Versions[:min(n, len(d.Versions))])
	var problems []catalog.EffectProblem
	if d.History, problems = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions); len(problems) > 0 {
		return d, fmt.Errorf("%s: %+v", d.Slug, problems)
	}
	return d, nil
}
