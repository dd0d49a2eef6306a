package directions

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"regpulse/internal/catalog"
)

// Reading a Master Direction's official text (its PDF or HTML page, as
// internal/extract gives it): RBI numbers its paragraphs at the start of
// a line ("9.", "9.1", "10A", "11.6.3"), groups them in chapters
// ("CHAPTER II" and a title line), and records each amendment in a
// footnote under the page ("¹ Inserted vide circular DPSS.CO... dated
// June 19, 2018") whose mark follows the words it concerns.

// Parsed is a direction's text as read: its chapters and its provisions
// (official wording), each with the footnotes its text marked.
type Parsed struct {
	Chapters   []catalog.Chapter
	Provisions []catalog.Provision
	// Footnotes are, by provision id, the amendment footnotes its text
	// points to ("Inserted vide circular ... dated ...").
	Footnotes map[string][]string
}

var (
	// a paragraph's number, then its heading or the start of its text
	provisionLine = regexp.MustCompile(`^(\d{1,3}[A-Z]?(?:\.\d{1,3}[A-Z]?)*)\.?\s+(\S.*)$`)
	chapterLine   = regexp.MustCompile(`^(?i:chapter)\s+([IVXLC]+)\b[\s.:–-]*(.*)$`)
	// a footnote: its number, then what an amendment did
	footnoteLine = regexp.MustCompile(`^([0-9¹²³⁴⁵⁶⁷⁸⁹⁰]{1,3})\s*((?:Inserted|Substituted|Deleted|Amended|Renumbered|Added)\b.*)$`)
	// a footnote's mark in the text: superscript digits
	superscript = regexp.MustCompile(`[¹²³⁴⁵⁶⁷⁸⁹⁰]+`)
)

// Parse splits the text of a direction into its chapters and numbered
// provisions. Lines before the first numbered paragraph (the title, the
// preamble) are left out; a chapter's title is the rest of its line or
// the line after it. A provision's first line is its heading when it is
// short and does not end a sentence, else the start of its text.
func Parse(text string) (Parsed, error) {
	p := Parsed{Footnotes: map[string][]string{}}
	notes := map[string]string{} // footnote number -> its text
	type raw struct {
		id, chapter, heading string
		lines                []string
	}
	var (
		cur          *raw
		all          []*raw
		chapter      string
		chapterTitle bool // the next line is the chapter's title
		lastNumber   []int
	)
	for line := range lines(text) {
		if line == "" {
			continue
		}
		if m := footnoteLine.FindStringSubmatch(line); m != nil {
			notes[normalDigits(m[1])] = m[2]
			continue
		}
		if m := chapterLine.FindStringSubmatch(line); m != nil {
			chapter = strings.ToUpper(m[1])
			title := strings.TrimSpace(m[2])
			p.Chapters = append(p.Chapters, catalog.Chapter{ID: chapter, Title: title})
			chapterTitle = title == ""
			continue
		}
		if chapterTitle {
			p.Chapters[len(p.Chapters)-1].Title = titleCase(line)
			chapterTitle = false
			continue
		}
		if m := provisionLine.FindStringSubmatch(line); m != nil && startsProvision(m[2]) && follows(lastNumber, m[1]) {
			lastNumber = numberParts(m[1])
			cur = &raw{id: m[1], chapter: chapter}
			all = append(all, cur)
			rest := m[2]
			if len(rest) <= 80 && !strings.ContainsAny(rest[len(rest)-1:], ".;:") {
				cur.heading = rest
			} else {
				cur.lines = append(cur.lines, rest)
			}
			continue
		}
		if cur != nil {
			cur.lines = append(cur.lines, line)
		}
	}
	ids := map[string]bool{}
	for _, r := range all {
		if ids[r.id] {
			return Parsed{}, fmt.Errorf("paragraph %s appears twice", r.id)
		}
		ids[r.id] = true
		body := strings.Join(r.lines, " ")
		for _, m := range superscript.FindAllString(body+" "+r.heading, -1) {
			for _, d := range m {
				if n, ok := notes[normalDigits(string(d))]; ok && !slices.Contains(p.Footnotes[r.id], n) {
					p.Footnotes[r.id] = append(p.Footnotes[r.id], n)
				}
			}
		}
		body = strings.Join(strings.Fields(superscript.ReplaceAllString(body, "")), " ")
		heading := strings.TrimSpace(superscript.ReplaceAllString(r.heading, ""))
		if body == "" && heading != "" {
			body, heading = heading, ""
		}
		p.Provisions = append(p.Provisions, catalog.Provision{ID: r.id, Chapter: catalog.OptString(r.chapter),
			Heading: catalog.OptString(heading), Text: body, Wording: "official"})
	}
	if len(p.Provisions) == 0 {
		return Parsed{}, fmt.Errorf("no numbered paragraph found")
	}
	return p, nil
}

// lines are text's lines: split at line breaks, and at runs of two or
// more spaces, which is how a PDF's text layer read without pdftotext
// (internal/extract) separates its lines.
func lines(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for _, l := range lineBreaks.Split(text, -1) {
			if l = strings.TrimSpace(l); !yield(l) {
				return
			}
		}
	}
}

var lineBreaks = regexp.MustCompile(`\r?\n|[ \t\x{00a0}]{2,}`)

// startsProvision reports whether what follows a number can open a
// paragraph: a capital, a bracket or a quote ("30 days after ..." inside
// a paragraph cannot).
func startsProvision(rest string) bool {
	r := []rune(rest)[0]
	return unicode.IsUpper(r) || strings.ContainsRune("(\"“‘'", r)
}

// follows reports whether number can come after last in a direction's
// numbering: a paragraph at most maxSkip after the last (paragraphs
// deleted since leave gaps), or a sub-paragraph of it. It keeps a line of
// a paragraph that starts with a number from being read as a new one.
func follows(last []int, number string) bool {
	const maxSkip = 3
	n := numberParts(number)
	if last == nil {
		return n[0] <= (1+maxSkip)*100
	}
	for i := 0; i < len(n) && i < len(last); i++ {
		switch {
		case n[i] > last[i]:
			return n[i] <= (last[i]/100+maxSkip)*100+99
		case n[i] < last[i]:
			return false
		}
	}
	return len(n) != len(last) || !slices.Equal(n, last)
}

// numberParts are a paragraph number's parts, a letter counting after its
// number ("10A" is 10 then 1, after "10").
func numberParts(s string) []int {
	var out []int
	for part := range strings.SplitSeq(s, ".") {
		n, letter := 0, 0
		for _, r := range part {
			if unicode.IsDigit(r) {
				n = n*10 + int(r-'0')
			} else {
				letter = int(r-'A') + 1
			}
		}
		out = append(out, n*100+letter)
	}
	return out
}

func normalDigits(s string) string {
	return strings.NewReplacer("¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9", "⁰", "0").Replace(s)
}

// titleCase writes an all-capitals chapter title as words ("PRELIMINARY"
// is "Preliminary").
func titleCase(s string) string {
	if strings.ToUpper(s) != s {
		return s
	}
	lower := strings.ToLower(s)
	return strings.ToUpper(lower[:1]) + lower[1:]
}

// Effects are the changes that make old into new, as a version records
// them: provisions aligned by id; one of new whose text an old one that is
// gone had is that one renumbered; the rest of old's gone ones deleted,
// of new's inserted (after the provision before it in new), and a changed
// text, heading or chapter substituted. Applying them to old in order
// (catalog.BuildHistory) gives new.
func Effects(old, new []catalog.Provision) []catalog.Effect {
	oldByID := map[string]catalog.Provision{}
	for _, p := range old {
		oldByID[p.ID] = p
	}
	newIDs := map[string]bool{}
	for _, p := range new {
		newIDs[p.ID] = true
	}
	// gone: in old, not in new; a new provision with a gone one's text is
	// that one renumbered
	goneByText := map[string]string{}
	for _, p := range old {
		if !newIDs[p.ID] {
			goneByText[p.Text] = p.ID
		}
	}
	renumbered := map[string]string{} // new id -> old id
	for _, p := range new {
		if _, had := oldByID[p.ID]; had {
			continue
		}
		if from, ok := goneByText[p.Text]; ok {
			renumbered[p.ID] = from
			delete(goneByText, p.Text)
		}
	}
	var out []catalog.Effect
	// deletions first, so that a deleted provision's id is free for a new one
	moved := map[string]bool{}
	for _, from := range renumbered {
		moved[from] = true
	}
	for _, p := range old {
		if !newIDs[p.ID] && !moved[p.ID] {
			out = append(out, catalog.Effect{Kind: catalog.EffectDeleted, Provision: p.ID})
		}
	}
	for _, p := range new {
		if from, ok := renumbered[p.ID]; ok {
			out = append(out, catalog.Effect{Kind: catalog.EffectRenumbered, Provision: from, To: p.ID})
			if e, changed := substitution(oldByID[from], p); changed {
				out = append(out, e)
			}
		}
	}
	prev := ""
	for _, p := range new {
		o, had := oldByID[p.ID]
		_, moved := renumbered[p.ID]
		switch {
		case moved:
		case !had:
			out = append(out, catalog.Effect{Kind: catalog.EffectInserted, Provision: p.ID, After: prev, Chapter: p.Chapter,
				Heading: p.Heading, Text: p.Text, Wording: p.Wording})
		default:
			if e, changed := substitution(o, p); changed {
				out = append(out, e)
			}
		}
		prev = p.ID
	}
	return out
}

// substitution is the effect that gives o new's text, heading, wording
// and chapter, and whether any of them changed.
func substitution(o, n catalog.Provision) (catalog.Effect, bool) {
	e := catalog.Effect{Kind: catalog.EffectSubstituted, Provision: n.ID}
	changed := false
	if o.Text != n.Text || o.Wording != n.Wording {
		e.Text, e.Wording, changed = n.Text, n.Wording, true
	}
	if o.Heading != n.Heading {
		e.Heading, changed = n.Heading, true
	}
	if o.Chapter != n.Chapter {
		e.Chapter, changed = n.Chapter, true
	}
	return e, changed
}
