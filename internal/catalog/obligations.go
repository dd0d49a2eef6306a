package catalog

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/google/uuid"
	"gopkg.in/yaml.v3"
)

// Obligation is one thing a circular requires: of whom, what, by when,
// and the sentence of its text that says so. Editors write them in a
// circular's front matter (origin editor); for a circular without any,
// the AI layer proposes them (origin extracted) and the store keeps them
// apart from content, labelled machine-extracted until an editor accepts
// them.
type Obligation struct {
	ID         string `json:"id"`
	CircularID string `json:"circularId"`
	// Position orders a circular's obligations (its front matter's order,
	// or the text's).
	Position int `json:"position"`
	// AppliesTo are entity types (EntityTypes) or AllEntities alone.
	AppliesTo TextList `json:"appliesTo" enum:"ObligationParty"`
	What      string   `json:"what"`
	Kind      string   `json:"kind" enum:"ObligationKind"`
	// DueDate is the deadline when it is a date; Deadline the deadline as
	// the circular states it (a date, or a rule such as "within 30 days
	// of the event"), null when there is none.
	DueDate  *Date     `json:"dueDate"`
	Deadline OptString `json:"deadline"`
	// Binding is false for a draft or a consultation: it obliges no one
	// yet (Binding of the circular's document type).
	Binding bool `json:"binding"`
	// SourceText is the sentence of the circular's content the obligation
	// comes from; SourceStart and SourceEnd its UTF-16 offsets there (as
	// the search's highlights), so a page can mark it.
	SourceText  string `json:"sourceText"`
	SourceStart int    `json:"sourceStart"`
	SourceEnd   int    `json:"sourceEnd"`
	// Origin is "editor" (front matter) or "extracted" (the AI layer's).
	Origin string `json:"origin" enum:"ObligationOrigin"`
	// Provider and Model made an extracted obligation; Accepted says an
	// editor accepted it (regpulse obligations accept).
	Provider OptString `json:"provider"`
	Model    OptString `json:"model"`
	Accepted bool      `json:"accepted"`
	// The circular it belongs to, as lists name it.
	CircularSlug  string `json:"circularSlug"`
	CircularTitle string `json:"circularTitle"`
	Source        string `json:"source" enum:"Source"`
	ImpactLevel   string `json:"impactLevel" enum:"ImpactLevel"`
	// CircularWithdrawnOn is the circular's WithdrawnOn: from that day
	// the obligation is neither due nor overdue (a register leaves it
	// out), its circular being no longer in force.
	CircularWithdrawnOn *Date `json:"circularWithdrawnOn"`
	// Cites is the Master Direction and provisions it rests on, if the
	// editor said (citations.go); Review, derived by the loader, says
	// they changed since it was written or reviewed: "changed: review".
	Cites  *ProvisionCitation `json:"cites"`
	Review *ProvisionReview   `json:"review"`
}

// The kinds of obligation, their labels, the parties and origins.
var (
	ObligationKinds      = []string{"new-requirement", "amendment", "prohibition", "reporting", "deadline-extension", "repeal"}
	obligationKindLabels = map[string]string{
		"new-requirement": "New requirement", "amendment": "Amendment", "prohibition": "Prohibition",
		"reporting": "Reporting", "deadline-extension": "Deadline extension", "repeal": "Repeal",
	}
	// ObligationParties are whom an obligation may name: an entity type,
	// or AllEntities.
	ObligationParties = append(slices.Clone(EntityTypes), AllEntities)
	ObligationOrigins = []string{OriginEditor, OriginExtracted}
)

const (
	// AllEntities is an obligation of every regulated entity.
	AllEntities     = "all"
	OriginEditor    = "editor"
	OriginExtracted = "extracted"
)

// ObligationKindLabel is how pages name a kind of obligation.
func ObligationKindLabel(k string) string { return obligationKindLabels[k] }

// AppliesToType reports whether o applies to entity type t.
func (o Obligation) AppliesToType(t string) bool {
	return slices.Contains(o.AppliesTo, AllEntities) || slices.Contains(o.AppliesTo, t)
}

// ObligationID is the stable id of a circular's obligation: from the
// circular's id and its source sentence (the n-th obligation drawn from
// that sentence), so statuses users set survive edits of its wording,
// reordering, and an editor accepting an extracted obligation.
func ObligationID(circularID, sourceText string, n int) string {
	ns, err := uuid.Parse(circularID)
	if err != nil {
		ns = idNamespace
	}
	key := strings.Join(strings.Fields(sourceText), " ")
	if n > 0 {
		key += "\x00" + strconv.Itoa(n)
	}
	return uuid.NewSHA1(ns, []byte("obligation\x00"+key)).String()
}

// AssignObligationIDs sets each obligation's id and position in order,
// numbering those drawn from one sentence.
func AssignObligationIDs(circularID string, obs []Obligation) {
	seen := map[string]int{}
	for i := range obs {
		key := strings.Join(strings.Fields(obs[i].SourceText), " ")
		obs[i].ID = ObligationID(circularID, obs[i].SourceText, seen[key])
		seen[key]++
		obs[i].Position = i + 1
		obs[i].CircularID = circularID
	}
}

// LocateText finds sentence in content and returns its UTF-16 offsets;
// ok is false when content does not hold it. Runs of white space match
// any white space, and the typographer's marks (curly quotes, dashes,
// ellipsis: Markdown's rendering and the sentence splitter write them)
// match what content spells them with.
func LocateText(content, sentence string) (start, end int, ok bool) {
	b, e, ok := LocateBytes(content, sentence)
	if !ok {
		return 0, 0, false
	}
	return utf16Len(content[:b]), utf16Len(content[:e]), true
}

// LocateBytes is LocateText with byte offsets.
func LocateBytes(content, sentence string) (start, end int, ok bool) {
	sentence = strings.Join(strings.Fields(sentence), " ")
	if sentence == "" {
		return 0, 0, false
	}
	if i := strings.Index(content, sentence); i >= 0 { // as written: most are
		return i, i + len(sentence), true
	}
	for b := 0; b < len(content); {
		if e, ok := matchAt(content, b, sentence); ok {
			return b, e, true
		}
		_, n := utf8.DecodeRuneInString(content[b:])
		b += n
	}
	return 0, 0, false
}

// typographic are the marks the typographer writes, with the spellings
// content may have for each.
var typographic = map[rune][]string{
	'’': {"'"}, '‘': {"'"}, '“': {`"`}, '”': {`"`}, '…': {"..."}, '–': {"--"}, '—': {"---"},
}

// matchAt reports whether content from byte i holds sentence (white space
// already collapsed to single spaces), and where the match ends.
func matchAt(content string, i int, sentence string) (int, bool) {
	for _, r := range sentence {
		if i >= len(content) {
			return 0, false
		}
		c, n := utf8.DecodeRuneInString(content[i:])
		// Markup the splitter removed (code spans, emphasis) is skipped.
		for (c == '`' || c == '*') && r != c && i+n < len(content) {
			i += n
			c, n = utf8.DecodeRuneInString(content[i:])
		}
		switch {
		case r == ' ':
			if !isSpace(c) {
				return 0, false
			}
			for i < len(content) && isSpace(rune(content[i])) {
				i++
			}
			continue
		case c == r:
			i += n
			continue
		}
		matched := false
		for _, alt := range typographic[r] {
			if strings.HasPrefix(content[i:], alt) {
				i += len(alt)
				matched = true
				break
			}
		}
		if !matched {
			return 0, false
		}
	}
	return i, true
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }

// SliceUTF16 is content between UTF-16 offsets start and end.
func SliceUTF16(content string, start, end int) string {
	u := utf16.Encode([]rune(content))
	if start < 0 || end > len(u) || start > end {
		return ""
	}
	return string(utf16.Decode(u[start:end]))
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// obligations reads a circular's obligations: a list of maps
// {appliesTo, what, kind, deadline, source}, source being the sentence
// of the body it comes from (found there, or a problem). A deadline in
// YYYY-MM-DD form is also the due date; any other text is kept as the
// circular states it.
func (f *fields) obligations(name string, c Circular) []Obligation {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	f.describeSub(name, func(s *fields) { // the keys read below
		s.spec("appliesTo", func(sp *fieldSpec) { sp.kind, sp.required, sp.allowed = listField, true, ObligationParties })
		s.str("what", true)
		s.enum("kind", true, ObligationKinds)
		s.str("deadline", false)
		s.str("source", true)
		s.spec("cites", func(sp *fieldSpec) { sp.kind = objectField })
		s.describeSub("cites", func(c *fields) { readCitation(c) })
	})
	n := f.node(name, false)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		f.addAt(n.Line, name, "must be a list of {appliesTo, what, kind, deadline, source}")
		return nil
	}
	binding := Binding(c.DocumentType)
	if c.DocumentType == "" {
		binding = true
	}
	var out []Obligation
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			f.addAt(item.Line, name, "each obligation must be a map like {appliesTo: [PSP], what: ..., kind: new-requirement, source: ...}")
			continue
		}
		o := Obligation{Origin: OriginEditor, Binding: binding, Accepted: true, AppliesTo: TextList{}}
		ok := true
		bad := func(line int, format string, args ...any) {
			f.addAt(line, name, format, args...)
			ok = false
		}
		got := map[string]bool{}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			got[k.Value] = true
			if k.Value != "appliesTo" && k.Value != "cites" && v.Kind != yaml.ScalarNode {
				bad(v.Line, "%s must be a single value", k.Value)
				continue
			}
			val := strings.TrimSpace(v.Value)
			switch k.Value {
			case "appliesTo":
				if v.Kind != yaml.SequenceNode {
					bad(v.Line, "appliesTo must be a list like [PSP, Issuer] or [all]")
					continue
				}
				for _, p := range v.Content {
					if !slices.Contains(ObligationParties, p.Value) {
						bad(p.Line, "unknown party %q in appliesTo (allowed: %s)", p.Value, strings.Join(ObligationParties, ", "))
					} else if !slices.Contains(o.AppliesTo, p.Value) {
						o.AppliesTo = append(o.AppliesTo, p.Value)
					}
				}
				if slices.Contains(o.AppliesTo, AllEntities) && len(o.AppliesTo) > 1 {
					bad(v.Line, "appliesTo: all stands alone")
				}
			case "what":
				o.What = val
				if utf8.RuneCountInString(val) > 300 {
					bad(v.Line, "what is %d characters; one plain sentence of 300 at most", utf8.RuneCountInString(val))
				}
			case "kind":
				if !slices.Contains(ObligationKinds, val) {
					bad(v.Line, "unknown kind %q (allowed: %s)", val, strings.Join(ObligationKinds, ", "))
				}
				o.Kind = val
			case "deadline":
				if val == "" {
					continue
				}
				o.Deadline = OptString(val)
				if looksLikeISODate(val) {
					var d Date
					if err := d.UnmarshalText([]byte(val)); err != nil {
						bad(v.Line, "bad date %q in deadline (want YYYY-MM-DD, or the rule as stated)", val)
						continue
					}
					if d.Before(c.PublishedDate.Time) {
						bad(v.Line, "deadline %s is before publishedDate", val)
					}
					o.DueDate = &d
				}
			case "source":
				s, e, found := LocateText(c.Content, val)
				if !found {
					bad(v.Line, "source is not a sentence of the circular's text: %q", cutText(val, 60))
				}
				o.SourceStart, o.SourceEnd = s, e
				o.SourceText = strings.Join(strings.Fields(SliceUTF16(c.Content, s, e)), " ")
			case "cites":
				cite, valid := f.citation(v, name+".cites")
				ok = ok && valid
				o.Cites = cite
			default:
				bad(k.Line, "unknown key %q in an obligation (want appliesTo, what, kind, deadline, source, cites)", k.Value)
			}
		}
		for _, req := range []string{"appliesTo", "what", "kind", "source"} {
			if !got[req] {
				bad(item.Line, "an obligation needs %s", req)
			}
		}
		if got["appliesTo"] && len(o.AppliesTo) == 0 && ok {
			bad(item.Line, "appliesTo needs at least one party")
		}
		if ok {
			out = append(out, o)
		}
	}
	return out
}

func looksLikeISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil || strings.Trim(s, "0123456789-") == ""
}

func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
