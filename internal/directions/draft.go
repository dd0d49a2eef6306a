package directions

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"regpulse/internal/catalog"
)

// DraftVersion writes the version file (content/master-directions/SLUG/
// DATE.md) of effects read from an official document: a draft, shown
// nowhere until an editor has checked each effect, named the amending
// circular and removed draft: true. The amendment footnotes the document
// carries for the changed provisions are listed for that, and the
// amending circular is named from the first of them, to be checked.
func DraftVersion(effects []catalog.Effect, footnotes map[string][]string, src catalog.FetchedSource) ([]byte, error) {
	type amending struct {
		Title string `yaml:"title"`
	}
	type source struct {
		URL     string `yaml:"url"`
		SHA256  string `yaml:"sha256"`
		Fetched string `yaml:"fetched"`
	}
	front := struct {
		Draft        bool         `yaml:"draft"`
		Amending     amending     `yaml:"amending"`
		Verification string       `yaml:"verification"`
		Source       source       `yaml:"source"`
		Effects      []FileEffect `yaml:"effects"`
	}{Draft: true, Verification: "pending",
		Source: source{URL: src.URL, SHA256: src.SHA256, Fetched: src.Fetched.String()}}
	var notes []string
	seen := map[string]bool{}
	counts := map[string]int{}
	for _, e := range effects {
		counts[e.Kind]++
		front.Effects = append(front.Effects, NewFileEffect(e))
		id := e.Provision
		if e.To != "" {
			id = e.To
		}
		for _, n := range footnotes[id] {
			if !seen[n] {
				seen[n] = true
				notes = append(notes, fmt.Sprintf("%s: %s", id, n))
			}
		}
	}
	front.Amending.Title = "Not named yet: name the amending circular (circulars: or amending:) before publishing"
	if len(notes) > 0 {
		_, first, _ := strings.Cut(notes[0], ": ")
		front.Amending.Title = "As a footnote of the official text gives it, to be checked: " + first
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(front); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	b.WriteString("---\n")
	fmt.Fprintf(&b, "Read by `regpulse ingest direction` from %s on %s: %d substituted, %d inserted, %d deleted and %d renumbered provision(s) against the text in force. Check each effect against the document, say here what changed and why, name the amending circular, then remove `draft: true`.\n",
		src.URL, src.Fetched, counts[catalog.EffectSubstituted], counts[catalog.EffectInserted], counts[catalog.EffectDeleted], counts[catalog.EffectRenumbered])
	if len(notes) > 0 {
		b.WriteString("\nThe document's amendment footnotes for these provisions:\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.Bytes(), nil
}

// FileEffect is an effect as a version file writes it: the kind's key
// naming the provision ({substituted: "9.1", text: ...}).
type FileEffect struct {
	Inserted    string   `yaml:"inserted,omitempty"`
	Substituted string   `yaml:"substituted,omitempty"`
	Deleted     string   `yaml:"deleted,omitempty"`
	Renumbered  string   `yaml:"renumbered,omitempty"`
	To          string   `yaml:"to,omitempty"`
	After       *string  `yaml:"after,omitempty"` // set for an insertion, "" at the start
	Chapter     string   `yaml:"chapter,omitempty"`
	Heading     string   `yaml:"heading,omitempty"`
	Wording     string   `yaml:"wording,omitempty"`
	Text        string   `yaml:"text,omitempty"`
	Touches     []string `yaml:"touches,omitempty"`
}

// NewFileEffect is e as a version file writes it.
func NewFileEffect(e catalog.Effect) FileEffect {
	out := FileEffect{To: e.To, Chapter: string(e.Chapter), Heading: string(e.Heading), Wording: e.Wording, Text: e.Text, Touches: e.Touches}
	switch e.Kind {
	case catalog.EffectInserted:
		after := e.After
		out.Inserted, out.After = e.Provision, &after
	case catalog.EffectSubstituted:
		out.Substituted = e.Provision
	case catalog.EffectDeleted:
		out.Deleted = e.Provision
	case catalog.EffectRenumbered:
		out.Renumbered = e.Provision
	}
	return out
}
