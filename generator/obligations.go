package generator

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// A circular's page shows its obligations (the editors', or the stored
// extracted ones when it has none: shownObligations) in an Obligations section, and marks each one's source
// sentence in its text. The section's rows are the page's front matter
// (obligationView), not data/site.json: only the page reads them.

// obligationView is an obligation as the circular's page shows it. Its
// keys are lower case: Hugo lower-cases front matter's keys.
type obligationView struct {
	ID   string `json:"id"`
	What string `json:"what"`
	Kind string `json:"kind"` // the kind's label
	Who  string `json:"who"`  // the parties' names
	// KindKey and WhoKeys are the catalogue's keys of the kind's label
	// and of the parties' names: pages show them in their language (T).
	KindKey  string   `json:"kindkey"`
	WhoKeys  []string `json:"whokeys"`
	Due      string   `json:"due"`    // YYYY-MM-DD, or ""
	Rule     string   `json:"rule"`   // the deadline as stated when it is no date
	Anchor   string   `json:"anchor"` // the id of its mark in the text, "" when not marked
	Binding  bool     `json:"binding"`
	Origin   string   `json:"origin"`
	Accepted bool     `json:"accepted"`
	Made     string   `json:"made"` // what extracted it: provider and model
	Source   string   `json:"source"`
	// Cites and Review are the obligation's (catalog citations.go): what
	// it rests on, and whether that changed since ("changed: review").
	Cites  *catalog.ProvisionCitation `json:"cites,omitempty"`
	Review *catalog.ProvisionReview   `json:"review,omitempty"`
}

// partiesName names an obligation's parties as pages do.
func partiesName(appliesTo []string) string {
	var names []string
	for _, p := range appliesTo {
		if p == catalog.AllEntities {
			return "All regulated entities"
		}
		names = append(names, impact.DisplayName(p))
	}
	return strings.Join(names, ", ")
}

// partiesKeys are the catalogue's keys of partiesName's names.
func partiesKeys(appliesTo []string) []string {
	var keys []string
	for _, p := range appliesTo {
		if p == catalog.AllEntities {
			return []string{"entity.all"}
		}
		keys = append(keys, labelKey("entity.%s", p))
	}
	return keys
}

// obligationViews are a circular's obligations obs as its page shows
// them, and its text's HTML with each source sentence marked.
func obligationViews(obs []catalog.Obligation, textHTML string) ([]obligationView, string) {
	if len(obs) == 0 {
		return nil, textHTML
	}
	views := make([]obligationView, len(obs))
	anchors := map[string]string{} // by source sentence: one mark each
	var marks []textMark
	for i, o := range obs {
		v := obligationView{ID: o.ID, What: o.What, Kind: catalog.ObligationKindLabel(o.Kind), Who: partiesName(o.AppliesTo),
			KindKey: labelKey("obligationLabel.%s", o.Kind), WhoKeys: partiesKeys(o.AppliesTo),
			Binding: o.Binding, Origin: o.Origin, Accepted: o.Accepted, Source: o.SourceText, Cites: o.Cites, Review: o.Review}
		if o.DueDate != nil {
			v.Due = o.DueDate.String()
		} else {
			v.Rule = string(o.Deadline)
		}
		if o.Origin == catalog.OriginExtracted {
			v.Made = strings.TrimSpace(string(o.Provider) + " " + string(o.Model))
		}
		a, seen := anchors[o.SourceText]
		if !seen {
			a = "obligation-" + strconv.Itoa(i+1)
			marks = append(marks, textMark{sentence: o.SourceText, id: a})
		}
		views[i] = v
		anchors[o.SourceText] = a
	}
	marked, found := markSentences(textHTML, marks)
	for i := range views {
		if a := anchors[obs[i].SourceText]; found[a] {
			views[i].Anchor = a
		}
	}
	return views, marked
}

// textMark is a sentence to mark in a text, and the mark's id.
type textMark struct{ sentence, id string }

// markSentences wraps each sentence of marks in text (HTML) in
// <mark id=...>, and says which ids it placed. A sentence is found in the
// text's characters (entities decoded, the typographer's quotes and
// dashes read as the Markdown spells them) and marked only when no tag
// falls inside it.
func markSentences(text string, marks []textMark) (string, map[string]bool) {
	// plain is the text's characters; at[i] the HTML offset of plain's
	// byte i (and at[len(plain)] the end).
	var plain strings.Builder
	var at []int
	emit := func(s string, from int) {
		for range len(s) {
			at = append(at, from)
		}
		plain.WriteString(s)
	}
	for i := 0; i < len(text); {
		switch text[i] {
		case '<':
			end := strings.IndexByte(text[i:], '>')
			if end < 0 {
				end = len(text) - i - 1
			}
			// A tag is a break: a sentence never spans one unnoticed.
			emit("\x00", i)
			i += end + 1
			continue
		case '&':
			if end := strings.IndexByte(text[i:], ';'); end > 0 && end < 10 {
				emit(plainMark(html.UnescapeString(text[i:i+end+1])), i)
				i += end + 1
				continue
			}
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		emit(plainMark(text[i:i+n]), i)
		i += n
	}
	at = append(at, len(text))
	p := plain.String()
	type span struct {
		start, end int
		id         string
	}
	var spans []span
	for _, m := range marks {
		s := strings.NewReplacer("`", "", "*", "").Replace(m.sentence)
		b, e, ok := catalog.LocateBytes(p, s)
		if !ok || strings.Contains(p[b:e], "\x00") {
			continue
		}
		spans = append(spans, span{at[b], at[e], m.id})
	}
	found := map[string]bool{}
	var out strings.Builder
	last := 0
	// Marks go in text order; one overlapping an earlier one is skipped.
	for len(spans) > 0 {
		first := 0
		for i, s := range spans {
			if s.start < spans[first].start {
				first = i
			}
		}
		s := spans[first]
		spans = append(spans[:first], spans[first+1:]...)
		if s.start < last {
			continue
		}
		out.WriteString(text[last:s.start])
		out.WriteString(`<mark id="` + s.id + `" data-obligation-source class="rounded-sm bg-amber-100 px-0.5 text-inherit dark:bg-amber-900/60">`)
		out.WriteString(text[s.start:s.end])
		out.WriteString("</mark>")
		last = s.end
		found[s.id] = true
	}
	out.WriteString(text[last:])
	return out.String(), found
}

// plainMark is a character as Markdown spells it: the typographer's curly
// quotes, dashes and ellipsis back to straight ones.
func plainMark(s string) string {
	switch s {
	case "’", "‘":
		return "'"
	case "“", "”":
		return `"`
	case "–":
		return "--"
	case "—":
		return "---"
	case "…":
		return "..."
	}
	return s
}
