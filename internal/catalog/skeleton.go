package catalog

import (
	"fmt"
	"strings"
	"time"
)

// A new entry's skeleton is derived from the loader: every field a kind's
// decoder reads, in its order, marked required or optional, with its
// allowed values. So a field added to a decoder is in the skeleton at once;
// hints may add an example value and a note.

// fieldSpec is what the loader knows of a field, gathered by running a
// kind's decoder over an empty entry (see fields.describe).
type fieldSpec struct {
	name     string
	required bool
	kind     fieldKind
	allowed  []string // an enumeration's values
	// fields are a map's fields, or those of a list's items (a list of
	// maps), as the decoder reads them (fields.describeSub).
	fields []fieldSpec
	// byDefault is what the decoder takes when the field is absent, when
	// that is not the type's zero (published: true).
	byDefault string
	min, max  *int // a number's bounds
}

type fieldKind int

const (
	textField fieldKind = iota
	dateField
	numberField
	booleanField
	listField
	mapField    // entityImpact: entity type to level
	linkField   // an http(s) URL
	targetField // a path of the site or an http(s) URL
	objectField // a map of named fields
)

// hint is an example value and a note for a field of a new entry.
type hint struct{ example, note string }

// hints, per kind and field. A multi-line example (a map) follows its key.
var hints = map[string]map[string]hint{
	"circulars": {
		"circularNumber":       {"", "the regulator's reference; leave empty if not known — never guess"},
		"title":                {"", "the regulator's title, or a neutral description"},
		"titleIsDescriptive":   {"", "true when title is our description, not the regulator's"},
		"summary":              {"", "one or two sentences"},
		"source":               {"RBI", ""},
		"impactLevel":          {"medium", "normally the highest below"},
		"entityImpact":         {"\n  PSP: medium\n  Issuer: low\n  Aggregator: low", "at least one"},
		"officialUrl":          {"", "the regulator's own URL for the document"},
		"sourceUrl":            {"", "where the facts were seen"},
		"additionalSourceUrls": {"", "more sources"},
		"hindiVersion":         {"", "the regulator's own Hindi version, where it publishes one: url (its https page on the regulator's site) and number (its Hindi reference, as भारिबैं/2020-21/60); never guess"},
		"sourceKind":           {"", "what sourceUrl is: official, report or unofficial"},
		"verification":         {"", "checked: against officialUrl's text; reported: from secondary sources only; pending: identified, not yet read; empty: derived from the links"},
		"commentsDue":          {"", "drafts and consultation papers only: the day comments are due, as a source states it"},
		"finalOf":              {"", "on a final instrument: slug of the draft it finalises"},
	},
	"news": {
		"excerpt":   {"", "one sentence, at most 200 characters"},
		"source":    {"", "who published it (e.g. RBI, NPCI, Swift)"},
		"region":    {"India", ""},
		"sourceUrl": {"", "URL of the source"},
		"circular":  {"", "slug of the circular this reports"},
	},
	"companies": {
		"founder":     {"", `confirmed founders, joined by ", "`},
		"description": {"", "one or two sentences"},
		"founded":     {"", "year, only when confirmed"},
		"sourceUrl":   {"", "where the facts were seen"},
		"leader":      {"", "person shown on /fintech-leaders (default: first founder)"},
		"leaderGroup": {"", "India only"},
		"leaderIsCeo": {"", "false when the featured founder is not the CEO"},
	},
	"regulations": {
		"shortName":       {"", "e.g. GDPR"},
		"status":          {"active", ""},
		"keyProvisions":   {"", "at least one"},
		"officialTextUrl": {"", "only a URL seen in a source"},
	},
	"networks": {
		"type":           {"", "card network, payment rail..."},
		"founded":        {"", "text"},
		"description":    {"", "one or two sentences"},
		"guidelines":     {"", "rules that matter in India, one line each"},
		"guidelinesAsOf": {"{{today}}", "the day the guidelines were last known true (pages say \"As of\")"},
		"circularTerms":  {"", "words that make a circular about this network, e.g. [UPI, Unified Payments Interface]; capitals match their case"},
		"websiteUrl":     {"", "only when seen in a source"},
	},
	"sibos": {
		"title":    {"", "e.g. Sibos 2027"},
		"year":     {"{{year}}", ""},
		"status":   {"upcoming", ""},
		"location": {"", "city, country"},
	},
	"events": {
		"group":              {"other", "major (sidebar) or other (/fintech-events)"},
		"estimatedAttendees": {"", "text"},
		"website":            {"", "only when seen in a source"},
		"editions":           {"", "list of {year, startDate, endDate, location, status, sourceUrl}; dates only from a source"},
	},
	"bodies": {
		"name":      {"", "full name"},
		"shortName": {"", "the file must be its lowercase"},
		"head":      {"", "only with a source"},
	},
	"ads": {
		"category":  {"payment", ""},
		"ctaText":   {"Learn More", ""},
		"targetUrl": {"", "/path or https:// URL"},
		"sponsored": {"true", ""},
	},
	"adslots": {
		"buttonText": {"Learn More", ""},
		"targetUrl":  {"", "/path or https:// URL; none: the Contact Us address"},
		"size":       {"medium", "small, medium or large"},
		"placement":  {"content", "header (the strip above a page) or content (a card)"},
	},
	"videos": {
		"durationMinutes": {"15", ""},
		"level":           {"Beginner", ""},
	},
}

// bodyHints is the placeholder text of a new entry's body.
var bodyHints = map[string]string{
	"circulars":   "What the circular says and who must do what, in your own words.",
	"news":        "The news item, in your own words.",
	"regulations": "What the regulation covers.",
	"networks":    "The longer profile of the network (optional).",
	"sibos":       "About this edition.",
	"events":      "About the event.",
	"bodies":      "The body's role for payments and fintech (optional).",
}

// Skeleton returns a new entry of kind with every field present and
// commented, ready for an editor to fill in; now gives its dates.
func Skeleton(kind string, now time.Time) (string, error) {
	if _, ok := kinds[kind]; !ok {
		return "", fmt.Errorf("unknown kind %q (one of %s)", kind, strings.Join(Kinds(), ", "))
	}
	dates := strings.NewReplacer("{{today}}", now.Format(dateLayout), "{{year}}", fmt.Sprint(now.Year()))
	var b strings.Builder
	b.WriteString("---\n")
	for _, f := range describe(kind) {
		h := hints[kind][f.name]
		value := h.example
		if value == "" {
			value = defaultExample(f)
		}
		value = dates.Replace(value)
		var notes []string
		switch {
		case f.required:
			notes = append(notes, "required")
		case f.kind != booleanField && f.kind != listField, f.byDefault != "":
			notes = append(notes, "optional")
		}
		if len(f.allowed) > 0 {
			notes = append(notes, strings.Join(f.allowed, ", "))
		}
		if f.kind == dateField {
			notes = append(notes, "YYYY-MM-DD")
		}
		if h.note != "" {
			notes = append(notes, h.note)
		}
		line, more, _ := strings.Cut(value, "\n")
		head := f.name + ":"
		if line != "" {
			head += " " + line
		}
		if len(notes) > 0 {
			head = fmt.Sprintf("%-23s # %s", head, notes[0])
			if len(notes) > 1 {
				head += ": " + strings.Join(notes[1:], "; ")
			}
		}
		b.WriteString(head + "\n")
		if more != "" {
			b.WriteString(more + "\n")
		}
	}
	b.WriteString("---\n\n" + bodyHints[kind] + "\n")
	return b.String(), nil
}

// defaultExample is what a field of a new entry holds when no hint says.
func defaultExample(f fieldSpec) string {
	switch f.kind {
	case dateField:
		if f.required {
			return "{{today}}"
		}
		return ""
	case booleanField:
		if f.byDefault != "" {
			return "" // absent: the decoder's default
		}
		return "false"
	case listField:
		return "[]"
	case numberField:
		return ""
	}
	if f.required {
		return `""`
	}
	return ""
}

// describe runs kind's decoder over an empty entry and returns the fields
// it reads, in order.
func describe(kind string) []fieldSpec {
	l := newLoader("content", nil)
	f := newFields("content/"+kind+"/new.md", 0, nil, &l.problems)
	f.specs = &[]fieldSpec{}
	kinds[kind](l, f, Entry{}, "")
	return *f.specs
}
