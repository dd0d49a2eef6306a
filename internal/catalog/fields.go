package catalog

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// fields reads one file's front matter field by field, recording a Problem
// for each field that is missing, mistyped or not allowed, so that a single
// pass reports everything wrong with the file.
type fields struct {
	path     string
	lineBase int // file line of the front matter's first line, minus one
	endLine  int // file line of the closing '---'
	keys     map[string]*yaml.Node
	keyLines map[string]int
	used     map[string]bool
	problems *Problems
	// lax, for an unpublished entry, turns what is missing into pending
	// notes: an editor completes the file before publishing it.
	lax     bool
	pending *Problems
	// specs, when set, records every field read and what it may hold, for
	// the skeleton of a new entry (skeleton.go).
	specs *[]fieldSpec
	// bodyUse, kept with specs, is what the decoder does with the body.
	bodyUse *BodyUse
	// prefix names the map these fields are in, for problems in a list of
	// maps: "provisions[3]." (sub).
	prefix string
	// line is the YAML line a missing field is reported at: the map's
	// own line for a sub-map (sub), else the front matter's first.
	line int
}

// sub reads the map n, an item of a list field, as fields of its own:
// problems name it as prefix+field, at the file's lines.
func (f *fields) sub(n *yaml.Node, prefix string) *fields {
	s := newFields(f.path, f.lineBase, n, f.problems)
	s.prefix, s.line = prefix, n.Line
	return s
}

// spec notes what the decoder reads of field name (when specs is set).
func (f *fields) spec(name string, update func(*fieldSpec)) {
	if f.specs == nil {
		return
	}
	for i := range *f.specs {
		if (*f.specs)[i].name == name {
			update(&(*f.specs)[i])
			return
		}
	}
	s := fieldSpec{name: name}
	update(&s)
	*f.specs = append(*f.specs, s)
}

// describeSub records, when specs are kept, the fields of name's map or
// of its list's items: read is the decoder of one item, run over an
// empty map. The decoders of items that read their maps key by key
// declare their keys this way too, beside the code that reads them.
func (f *fields) describeSub(name string, read func(s *fields)) {
	if f.specs == nil {
		return
	}
	s := newFields(f.path, f.lineBase, nil, &Problems{})
	s.specs = &[]fieldSpec{}
	read(s)
	f.spec(name, func(sp *fieldSpec) { sp.fields = *s.specs })
}

// describeBody records whether the decoder reads the text below the front
// matter and requires it (bodyNone when the kind has no use for it).
func (f *fields) describeBody(use BodyUse) {
	if f.specs != nil && f.bodyUse != nil && use > *f.bodyUse {
		*f.bodyUse = use
	}
}

func newFields(path string, lineBase int, root *yaml.Node, problems *Problems) *fields {
	f := &fields{path: path, lineBase: lineBase, keys: map[string]*yaml.Node{},
		keyLines: map[string]int{}, used: map[string]bool{}, problems: problems, line: 1}
	if root == nil {
		return f
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || strings.TrimSpace(k.Value) == "" {
			f.addAt(k.Line, "front matter", "field names must be plain words (line has a key that is empty, a list or a map)")
			continue
		}
		if _, dup := f.keys[k.Value]; dup {
			f.addAt(k.Line, k.Value, "field given twice")
		}
		f.keys[k.Value] = v
		f.keyLines[k.Value] = k.Line
	}
	return f
}

func (f *fields) addAt(yamlLine int, field, format string, args ...any) {
	*f.problems = append(*f.problems, Problem{Path: f.path, Line: f.lineBase + yamlLine, Field: f.prefix + field,
		Message: fmt.Sprintf(format, args...)})
}

// addMissing reports something required that is absent or empty: a
// problem, or a pending note when the entry is unpublished.
func (f *fields) addMissing(yamlLine int, field, msg string) {
	p := Problem{Path: f.path, Line: f.lineBase + yamlLine, Field: f.prefix + field, Message: msg}
	if f.lax && f.pending != nil {
		*f.pending = append(*f.pending, p)
		return
	}
	*f.problems = append(*f.problems, p)
}

// node returns the field's value node, or nil (with a problem when the
// field is required) when the field is absent or null.
func (f *fields) node(name string, required bool) *yaml.Node {
	f.used[name] = true
	f.spec(name, func(s *fieldSpec) { s.required = s.required || required })
	n, ok := f.keys[name]
	if !ok || n.Tag == "!!null" {
		if required {
			line := f.line
			if ok {
				line = n.Line
			}
			f.addMissing(line, name, "required field is missing")
		}
		return nil
	}
	return n
}

func (f *fields) scalar(name string, required bool) (string, *yaml.Node) {
	n := f.node(name, required)
	if n == nil {
		return "", nil
	}
	if n.Kind == yaml.AliasNode {
		f.addAt(n.Line, name, "YAML aliases (*name) are not allowed; write the value")
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		f.addAt(n.Line, name, "must be a single value, not a list or map")
		return "", nil
	}
	v := strings.TrimSpace(n.Value)
	if v == "" && required {
		f.addMissing(n.Line, name, "required field is empty")
	}
	return v, n
}

func (f *fields) str(name string, required bool) string {
	v, _ := f.scalar(name, required)
	return v
}

func (f *fields) enum(name string, required bool, allowed []string) string {
	f.spec(name, func(s *fieldSpec) { s.allowed = allowed })
	v, n := f.scalar(name, required)
	if n == nil || v == "" {
		return ""
	}
	if !slices.Contains(allowed, v) {
		f.addAt(n.Line, name, "unknown value %q (allowed: %s)", v, strings.Join(allowed, ", "))
		return ""
	}
	return v
}

func (f *fields) link(name string, required bool) string {
	f.spec(name, func(s *fieldSpec) { s.kind = linkField })
	v, n := f.scalar(name, required)
	if n == nil || v == "" {
		return ""
	}
	if !validLink(v) {
		f.addAt(n.Line, name, "not a valid http(s) URL: %q", v)
		return ""
	}
	return v
}

// target accepts an internal path ("/news") or an absolute http(s) URL.
func (f *fields) target(name string, required bool) string {
	f.spec(name, func(s *fieldSpec) { s.kind = targetField })
	v, n := f.scalar(name, required)
	if n == nil || v == "" {
		return ""
	}
	if !(strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//")) && !validLink(v) {
		f.addAt(n.Line, name, "must be a path starting with / or an http(s) URL: %q", v)
		return ""
	}
	return v
}

func validLink(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && !strings.ContainsAny(v, " \t\n")
}

func (f *fields) date(name string, required bool) *Date {
	f.spec(name, func(s *fieldSpec) { s.kind = dateField })
	v, n := f.scalar(name, required)
	if n == nil || v == "" {
		return nil
	}
	var d Date
	if err := d.UnmarshalText([]byte(v)); err != nil {
		f.addAt(n.Line, name, "bad date %q (want YYYY-MM-DD)", v)
		return nil
	}
	return &d
}

// requiredDate is a required date; the zero Date when it is missing or bad
// (a problem says so).
func (f *fields) requiredDate(name string) Date {
	if d := f.date(name, true); d != nil {
		return *d
	}
	return Date{}
}

func (f *fields) integer(name string, required bool, lo, hi int) int {
	f.spec(name, func(s *fieldSpec) { s.kind, s.min, s.max = numberField, &lo, &hi })
	v, n := f.scalar(name, required)
	if n == nil || v == "" {
		return 0
	}
	i, err := strconv.Atoi(v)
	if err != nil {
		f.addAt(n.Line, name, "not a whole number: %q", v)
		return 0
	}
	if i < lo || i > hi {
		f.addAt(n.Line, name, "%d is out of range %d-%d", i, lo, hi)
		return 0
	}
	return i
}

func (f *fields) boolean(name string) bool {
	f.spec(name, func(s *fieldSpec) { s.kind = booleanField })
	v, n := f.scalar(name, false)
	if n == nil {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		f.addAt(n.Line, name, "not true or false: %q", v)
	}
	return b
}

func (f *fields) list(name string, required bool) []string {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	n := f.node(name, required)
	out := []string{}
	if n == nil {
		return out
	}
	if n.Kind != yaml.SequenceNode {
		f.addAt(n.Line, name, "must be a list")
		return out
	}
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode || strings.TrimSpace(item.Value) == "" {
			f.addAt(item.Line, name, "list items must be non-empty text")
			continue
		}
		out = append(out, strings.TrimSpace(item.Value))
	}
	if required && len(out) == 0 {
		f.addMissing(n.Line, name, "needs at least one item")
	}
	return out
}

// entityImpact reads a map of entity type to impact level, returned in
// the canonical order of EntityTypes.
func (f *fields) entityImpact(name string) []EntityImpact {
	f.spec(name, func(s *fieldSpec) { s.kind, s.allowed = mapField, EntityTypes })
	f.describeSub(name, func(s *fields) { // a level for each entity type it names
		for _, t := range EntityTypes {
			s.enum(t, false, ImpactLevels)
		}
	})
	n := f.node(name, true)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		f.addAt(n.Line, name, "must be a map like `PSP: high`")
		return nil
	}
	got := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		_, dup := got[k.Value]
		switch {
		case dup:
			f.addAt(k.Line, name, "entity type %s given twice", k.Value)
		case !slices.Contains(EntityTypes, k.Value):
			f.addAt(k.Line, name, "unknown entity type %q (allowed: %s)", k.Value, strings.Join(EntityTypes, ", "))
		case !slices.Contains(ImpactLevels, v.Value):
			f.addAt(v.Line, name, "unknown impact level %q for %s (allowed: %s)", v.Value, k.Value, strings.Join(ImpactLevels, ", "))
		default:
			got[k.Value] = v.Value
		}
	}
	var out []EntityImpact
	for _, t := range EntityTypes {
		if lvl, ok := got[t]; ok {
			out = append(out, EntityImpact{EntityType: t, ImpactLevel: lvl})
		}
	}
	if len(out) == 0 && len(n.Content) == 0 {
		f.addMissing(n.Line, name, "needs at least one entity type")
	}
	return out
}

// complianceDates reads a list of {date, what} maps, in date order.
func (f *fields) complianceDates(name string) []ComplianceDate {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	f.describeSub(name, func(s *fields) { s.date("date", true); s.str("what", true) })
	n := f.node(name, false)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		f.addAt(n.Line, name, "must be a list of {date: YYYY-MM-DD, what: text}")
		return nil
	}
	var out []ComplianceDate
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			f.addAt(item.Line, name, "each item must be a map like {date: 2026-04-01, what: ...}")
			continue
		}
		var cd ComplianceDate
		var dateOK bool
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			switch {
			case k.Value == "date" && v.Kind == yaml.ScalarNode:
				if err := cd.Date.UnmarshalText([]byte(strings.TrimSpace(v.Value))); err != nil {
					f.addAt(v.Line, name, "bad date %q (want YYYY-MM-DD)", v.Value)
				} else {
					dateOK = true
				}
			case k.Value == "what" && v.Kind == yaml.ScalarNode:
				cd.What = strings.TrimSpace(v.Value)
			default:
				f.addAt(k.Line, name, "unknown key %q in a compliance date (want date and what)", k.Value)
			}
		}
		switch {
		case !dateOK:
			f.addAt(item.Line, name, "a compliance date needs a date")
		case cd.What == "":
			f.addAt(item.Line, name, "a compliance date needs what: what must be done by then")
		default:
			out = append(out, cd)
		}
	}
	slices.SortStableFunc(out, func(a, b ComplianceDate) int { return a.Date.Compare(b.Date.Time) })
	return out
}

// removed refuses a field the kind no longer reads, saying why and what
// to do (a list now derived from the catalog), where "unknown field"
// would read as a typo. It is not part of a new entry's skeleton.
func (f *fields) removed(name, why string) {
	if line, ok := f.keyLines[name]; ok {
		f.used[name] = true // reported here, not as unknown
		f.addAt(line, name, "%s", why)
	}
}

// editions reads an event's editions: a list of maps {year, startDate,
// endDate, location, status, sourceUrl}, each with its source.
func (f *fields) editions(name string) []Edition {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	item := func(s *fields) Edition {
		return Edition{
			Year:      s.integer("year", true, 1900, maxYear),
			StartDate: s.date("startDate", false),
			EndDate:   s.date("endDate", false),
			Location:  OptString(s.str("location", false)),
			Status:    s.enum("status", true, EventStatuses),
			SourceURL: OptString(s.link("sourceUrl", true)),
		}
	}
	f.describeSub(name, func(s *fields) { item(s) })
	n := f.node(name, false)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		f.addAt(n.Line, name, "must be a list of {year, startDate, endDate, location, status, sourceUrl}")
		return nil
	}
	var out []Edition
	years := map[int]bool{}
	for i, node := range n.Content {
		if node.Kind != yaml.MappingNode {
			f.addAt(node.Line, name, "each edition must be a map like {year: 2026, location: Mumbai, status: upcoming, sourceUrl: ...}")
			continue
		}
		s := f.sub(node, fmt.Sprintf("%s[%d].", name, i))
		e := item(s)
		s.done()
		if e.StartDate != nil && e.EndDate != nil && e.EndDate.Before(e.StartDate.Time) {
			s.addAt(s.keyLines["endDate"], "endDate", "is before startDate")
		}
		// (an edition may end in the next year)
		if e.StartDate != nil && e.Year != 0 && e.StartDate.Year() != e.Year {
			s.addAt(s.keyLines["startDate"], "startDate", "%s is not in the edition's year %d", e.StartDate, e.Year)
		}
		if years[e.Year] && e.Year != 0 {
			s.addAt(s.keyLines["year"], "year", "edition %d is given twice", e.Year)
		}
		years[e.Year] = true
		out = append(out, e)
	}
	return out
}

// done reports every field the kind does not know: usually a typo.
func (f *fields) done() {
	names := make([]string, 0, len(f.keyLines))
	for name := range f.keyLines {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !f.used[name] {
			f.addAt(f.keyLines[name], name, "unknown field")
		}
	}
}
