package generator

import (
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/redline"
)

// ConsultationsPath is the list of consultations: the drafts,
// discussion papers and consultation papers (catalog.Consultative), those
// still taking comments first, by deadline, then the others, newest first.
const ConsultationsPath = "/consultations"

// consultationOrder are the positions in cat.Circulars of its
// consultations in the list's order: open for comments as of now
// (catalog.Circular.CommentsOpen) by deadline, soonest first; then the
// closed ones (deadline past, finalised, or no deadline stated) in the
// catalog's order, newest first.
func consultationOrder(cat *catalog.Catalog, now time.Time) []int {
	var open, closed []int
	for i, c := range cat.Circulars {
		switch {
		case !catalog.Consultative(c.DocumentType):
		case c.CommentsOpen(now):
			open = append(open, i)
		default:
			closed = append(closed, i)
		}
	}
	slices.SortStableFunc(open, func(a, b int) int {
		return cat.Circulars[a].CommentsDue.Compare(cat.Circulars[b].CommentsDue.Time)
	})
	return append(open, closed...)
}

// consultationsList is /consultations as a paged list; each row names its
// final instruments, so its pages show their views too.
func consultationsList(cat *catalog.Catalog, now time.Time) pagedList {
	items := consultationOrder(cat, now)
	also := map[string][]string{}
	for _, i := range items {
		if c := cat.Circulars[i]; len(c.FinalisedBy) > 0 {
			also[c.Slug] = c.FinalisedBy
		}
	}
	return pagedList{base: ConsultationsPath, title: keyText("title.consultations", nil), layout: "consultations", kind: "circulars",
		items: items, also: also, file: strings.TrimPrefix(ConsultationsPath, "/") + ".md"}
}

// fromDraftView is what a final instrument's page says of the draft it
// finalises (catalog.Circular.FinalOf): the draft, the word-by-word
// changes from its text to the final one's, how many words each way,
// and, when both issued or amended the same Master Direction, the page
// comparing the direction's text before and after the final.
type fromDraftView struct {
	Draft    string            `json:"draft"`
	Redline  []redline.Segment `json:"redline"`
	Inserted int               `json:"inserted"`
	Deleted  int               `json:"deleted"`
	Compare  string            `json:"compare,omitempty"`
	// Checked says both entries were checked against the regulator's
	// text; otherwise the words compared are RegPulse's account of them.
	Checked bool `json:"checked"`
}

// draftPairs are the slugs of the circulars whose whole plain text the
// redlines read: every published final instrument and its draft.
func draftPairs(cat *catalog.Catalog) map[string]bool {
	out := map[string]bool{}
	published := map[string]bool{}
	for _, c := range cat.Circulars {
		published[c.Slug] = true
	}
	for _, c := range cat.Circulars {
		if c.FinalOf != "" && published[string(c.FinalOf)] {
			out[c.Slug], out[string(c.FinalOf)] = true, true
		}
	}
	return out
}

// linkDrafts gives each final instrument's text its fromDraftView, from
// the whole texts renderTexts kept (draftPairs), which it then lets go;
// cites are the views' Master Direction citations, by slug.
func (t texts) linkDrafts(cat *catalog.Catalog, cites map[string][]directionCitation) {
	checked := map[string]bool{}
	for _, c := range cat.Circulars {
		checked[c.Slug] = c.Verification == "checked"
	}
	for _, c := range cat.Circulars {
		draft := string(c.FinalOf)
		d, ok := t[draft]
		if draft == "" || !ok {
			continue
		}
		f := t[c.Slug]
		v := &fromDraftView{Draft: draft, Redline: redline.Words(d.Full, f.Full), Compare: directionCompare(cites[draft], cites[c.Slug]),
			Checked: checked[draft] && checked[c.Slug]}
		for _, s := range v.Redline {
			n := len(strings.Fields(s.Text))
			switch s.Op {
			case redline.Insert:
				v.Inserted += n
			case redline.Delete:
				v.Deleted += n
			}
		}
		f.FromDraft = v
		t[c.Slug] = f
	}
	for slug, r := range t {
		if r.Full != "" {
			r.Full = ""
			t[slug] = r
		}
	}
}

// directionCompare is the comparison page of the Master Direction both a
// draft and its final cite, for the version the final made: "" when they
// cite none in common, or the final made no version of it.
func directionCompare(draft, final []directionCitation) string {
	for _, f := range final {
		if f.Compare == "" {
			continue
		}
		if slices.ContainsFunc(draft, func(d directionCitation) bool { return d.URL == f.URL }) {
			return f.Compare
		}
	}
	return ""
}
