package catalog

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

var versionFilePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.md$`)

// directionFile reads one file of content/master-directions: name is
// "<slug>/index.md" or "<slug>/<YYYY-MM-DD>.md".
func (l *loader) directionFile(rel, name string, pf parsedFile) {
	slug, file, ok := strings.Cut(name, "/")
	if !ok || strings.Contains(file, "/") || !(file == "index.md" || versionFilePattern.MatchString(file)) {
		l.add(rel, 0, "file", "not a Master Direction's file (want "+DirectionsFolder+"/SLUG/index.md, or SLUG/YYYY-MM-DD.md for a version)")
		return
	}
	if !slugPattern.MatchString(slug) {
		l.add(rel, 0, "file", fmt.Sprintf("folder name %q must be lowercase words joined by '-'", slug))
		return
	}
	f, body, ok := l.frontMatter(rel, pf)
	if !ok {
		return
	}
	if l.dirVersions == nil {
		l.dirVersions = map[string][]DirectionVersion{}
	}
	if file == "index.md" {
		e := Entry{Slug: slug, Path: path.Join(l.label, rel), ID: IDForPath(rel)}
		l.entryID(f, &e)
		l.direction(f, e, body)
	} else {
		l.directionVersion(f, slug, strings.TrimSuffix(file, ".md"), body)
	}
	l.finish(f)
}

func (l *loader) direction(f *fields, e Entry, body string) {
	d := MasterDirection{
		Entry:               e,
		Title:               f.str("title", true),
		ShortTitle:          OptString(f.str("shortTitle", false)),
		Source:              f.enum("source", true, Regulators),
		Number:              OptString(f.str("number", false)),
		DepartmentReference: OptString(f.str("departmentReference", false)),
		Department:          OptString(f.str("department", false)),
		IssuedDate:          f.requiredDate("issuedDate"),
		ReviewedOn:          f.requiredDate("reviewedOn"),
		OfficialURL:         OptString(f.link("officialUrl", false)),
		Verification:        OptString(f.enum("verification", false, Verifications)),
		Status:              f.enum("status", true, DirectionStatuses),
		StatusDate:          f.date("statusDate", false),
		StatusCircular:      OptString(f.str("statusCircular", false)),
		Circular:            OptString(f.str("circular", false)),
		ReplacedBy:          f.list("replacedBy", false),
		Successors:          f.list("successors", false),
		About:               body,
	}
	f.spec("appliesTo", func(s *fieldSpec) { s.allowed = EntityTypes })
	for _, t := range f.list("appliesTo", true) {
		if !slices.Contains(EntityTypes, t) {
			f.addAt(f.keyLines["appliesTo"], "appliesTo", "unknown entity type %q (allowed: %s)", t, strings.Join(EntityTypes, ", "))
			continue
		}
		d.AppliesTo = append(d.AppliesTo, t)
	}
	if d.Verification == "checked" && d.OfficialURL == "" {
		f.addAt(f.keyLines["verification"], "verification", "checked needs officialUrl: the regulator's text it was checked against")
	}
	switch {
	case d.Status == "in-force" && (d.StatusDate != nil || len(d.ReplacedBy)+len(d.Successors) > 0 || d.StatusCircular != ""):
		f.addAt(f.keyLines["status"], "status", "in force: statusDate, statusCircular, replacedBy and successors are for a replaced or withdrawn direction")
	case d.Status != "in-force" && d.Status != "" && d.StatusDate == nil:
		f.addMissing(f.keyLines["status"], "statusDate", "a "+d.Status+" direction needs statusDate, the day it stopped being in force")
	case d.Status == "replaced" && len(d.ReplacedBy)+len(d.Successors) == 0:
		f.addMissing(f.keyLines["status"], "replacedBy", "a replaced direction needs replacedBy (directions in the catalog) or successors (by name)")
	}
	if d.StatusDate != nil && !d.StatusDate.After(d.IssuedDate.Time) {
		f.addAt(f.keyLines["statusDate"], "statusDate", "%s is not after issuedDate", d.StatusDate)
	}
	d.Chapters = f.chapters("chapters")
	d.Provisions = f.provisions("provisions", d.Chapters)
	f.describeBody(BodyOptional)
	l.cat.Directions = append(l.cat.Directions, d)
}

func (f *fields) chapters(name string) []Chapter {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	read := func(s *fields) Chapter { return Chapter{ID: s.str("id", true), Title: s.str("title", true)} }
	f.describeSub(name, func(s *fields) { read(s) })
	n := f.node(name, false)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		f.addAt(n.Line, name, "must be a list of {id, title}")
		return nil
	}
	var out []Chapter
	for i, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			f.addAt(item.Line, name, "each chapter must be a map like {id: II, title: General}")
			continue
		}
		s := f.sub(item, fmt.Sprintf("%s[%d].", name, i))
		c := read(s)
		s.done()
		if slices.ContainsFunc(out, func(o Chapter) bool { return o.ID == c.ID }) {
			s.addAt(item.Line, "id", "chapter %s is listed twice", c.ID)
		}
		out = append(out, c)
	}
	return out
}

// provisions reads the provisions as issued: unique ids, in chapters the
// direction lists.
func (f *fields) provisions(name string, chapters []Chapter) []Provision {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	read := func(s *fields) Provision {
		return Provision{
			ID:      s.provisionID("id", true),
			Chapter: OptString(s.str("chapter", false)),
			Heading: OptString(s.str("heading", false)),
			Text:    s.str("text", true),
			Wording: s.enum("wording", true, Wordings),
		}
	}
	f.describeSub(name, func(s *fields) { read(s) })
	n := f.node(name, true)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		f.addAt(n.Line, name, "must be a list of {id, heading, text, wording}")
		return nil
	}
	var out []Provision
	ids := map[string]bool{}
	anchors := map[string]string{}
	for i, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			f.addAt(item.Line, name, "each provision must be a map like {id: \"3A\", heading: ..., text: ..., wording: digest}")
			continue
		}
		s := f.sub(item, fmt.Sprintf("%s[%d].", name, i))
		p := read(s)
		s.checkChapter("chapter", string(p.Chapter), chapters)
		s.done()
		if p.ID == "" {
			continue
		}
		if ids[p.ID] {
			s.addAt(item.Line, "id", "provision %s is listed twice", p.ID)
		} else if other, clash := anchors[ProvisionAnchor(p.ID)]; clash {
			s.addAt(item.Line, "id", "provision %s has the same page anchor as %s: number them apart", p.ID, other)
		}
		ids[p.ID] = true
		anchors[ProvisionAnchor(p.ID)] = p.ID
		out = append(out, p)
	}
	return out
}

func (f *fields) provisionID(name string, required bool) string {
	v, n := f.scalar(name, required)
	if n == nil || v == "" {
		return ""
	}
	if !provisionIDPattern.MatchString(v) {
		f.addAt(n.Line, name, "provision id %q must be the regulator's numbering (letters, digits, spaces, '.', '(', ')', '-'; 40 at most), like 3A or 38(c)", v)
		return ""
	}
	return v
}

func (f *fields) checkChapter(name, id string, chapters []Chapter) {
	if id == "" || slices.ContainsFunc(chapters, func(c Chapter) bool { return c.ID == id }) {
		return
	}
	ids := make([]string, len(chapters))
	for i, c := range chapters {
		ids[i] = c.ID
	}
	f.addAt(f.keyLines[name], name, "unknown chapter %q (the direction's chapters: %s)", id, strings.Join(ids, ", "))
}

func (l *loader) directionVersion(f *fields, slug, date, body string) {
	v := DirectionVersion{
		Path:         f.path,
		Circulars:    f.list("circulars", false),
		Note:         body,
		Verification: OptString(f.enum("verification", false, Verifications)),
		ChangesKnown: true,
		Draft:        f.boolean("draft"),
	}
	if err := v.Date.UnmarshalText([]byte(date)); err != nil {
		f.addAt(0, "file", "the file name %s.md is not a date (want YYYY-MM-DD.md)", date)
		return
	}
	f.spec("changesKnown", func(s *fieldSpec) { s.kind, s.byDefault = booleanField, "true" })
	if f.node("changesKnown", false) != nil {
		v.ChangesKnown = f.boolean("changesKnown")
	}
	readAmending := func(s *fields) *AmendingCircular {
		return &AmendingCircular{Number: OptString(s.str("number", false)), Title: s.str("title", true), URL: OptString(s.link("url", false))}
	}
	readSource := func(s *fields) *FetchedSource {
		return &FetchedSource{URL: s.link("url", true), SHA256: s.str("sha256", true), Fetched: s.requiredDate("fetched")}
	}
	f.spec("amending", func(s *fieldSpec) { s.kind = objectField })
	f.describeSub("amending", func(s *fields) { readAmending(s) })
	f.spec("source", func(s *fieldSpec) { s.kind = objectField })
	f.describeSub("source", func(s *fields) { readSource(s) })
	if n := f.node("amending", false); n != nil {
		if n.Kind != yaml.MappingNode {
			f.addAt(n.Line, "amending", "must be a map {number, title, url}")
		} else {
			s := f.sub(n, "amending.")
			v.Amending = readAmending(s)
			s.done()
		}
	}
	if n := f.node("source", false); n != nil {
		if n.Kind != yaml.MappingNode {
			f.addAt(n.Line, "source", "must be a map {url, sha256, fetched}")
		} else {
			s := f.sub(n, "source.")
			v.Source = readSource(s)
			if h := v.Source.SHA256; h != "" && !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(h) {
				s.addAt(s.keyLines["sha256"], "sha256", "not a SHA-256 in lowercase hex: %q", h)
			}
			s.done()
		}
	}
	if v.ChangesKnown && len(v.Circulars) == 0 && v.Amending == nil {
		f.addMissing(1, "circulars", "a version needs its amending circular: circulars (the catalog's) or amending (by number and title)")
	}
	v.Effects = f.effects("effects", v.ChangesKnown)
	if v.ChangesKnown && len(v.Effects) == 0 && f.keyLines["effects"] == 0 {
		f.addMissing(1, "effects", "a version needs its effects, or changesKnown: false when only its date is known")
	}
	f.describeBody(BodyRequired)
	if v.ChangesKnown && body == "" {
		f.addMissing(f.endLine-f.lineBase, "body", "say what changed and why below the front matter")
	}
	l.dirVersions[slug] = append(l.dirVersions[slug], v)
}

func (f *fields) effects(name string, known bool) List[Effect] {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	f.describeSub(name, func(s *fields) { // the keys read below: one of EffectKinds, and what it needs
		for _, k := range EffectKinds {
			s.spec(k, func(sp *fieldSpec) {})
		}
		s.spec("after", func(sp *fieldSpec) {})
		s.str("text", false)
		s.enum("wording", false, Wordings)
		s.str("heading", false)
		s.str("chapter", false)
		s.spec("to", func(sp *fieldSpec) {})
		s.spec("touches", func(sp *fieldSpec) { sp.kind, sp.allowed = listField, EntityTypes })
	})
	n := f.node(name, false)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		f.addAt(n.Line, name, "must be a list of effects like {substituted: \"9.1\", text: ...}")
		return nil
	}
	if !known && len(n.Content) > 0 {
		f.addAt(n.Line, name, "changesKnown: false says what changed is not known; remove it or the effects")
		return nil
	}
	var out List[Effect]
	for i, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			f.addAt(item.Line, name, "each effect must be a map like {substituted: \"9.1\", text: ...}")
			continue
		}
		s := f.sub(item, fmt.Sprintf("%s[%d].", name, i))
		e := Effect{line: f.lineBase + item.Line}
		for j := 0; j+1 < len(item.Content); j += 2 {
			k := item.Content[j].Value
			if !slices.Contains(EffectKinds, k) {
				continue
			}
			if e.Kind != "" {
				s.used[k] = true
				s.addAt(s.keyLines[k], k, "an effect is one of %s, not several", strings.Join(EffectKinds, ", "))
				continue
			}
			e.Kind, e.Provision = k, s.provisionID(k, true)
		}
		if e.Kind == "" {
			f.addAt(item.Line, name, "an effect names its provision by what it does to it: one of %s", strings.Join(EffectKinds, ", "))
			s.used = map[string]bool{}
			for k := range s.keys {
				s.used[k] = true
			}
			continue
		}
		switch e.Kind {
		case EffectInserted:
			e.After = s.provisionID("after", false)
			if s.keys["after"] == nil {
				s.addMissing(item.Line, "after", "an insertion says which provision it follows (after: \"\" for the first)")
			}
			e.Text, e.Wording = s.str("text", true), s.enum("wording", true, Wordings)
			e.Heading, e.Chapter = OptString(s.str("heading", false)), OptString(s.str("chapter", false))
		case EffectSubstituted:
			e.Text, e.Wording = s.str("text", false), s.enum("wording", false, Wordings)
			e.Heading, e.Chapter = OptString(s.str("heading", false)), OptString(s.str("chapter", false))
			if e.Text == "" && e.Heading == "" && e.Chapter == "" {
				s.addMissing(item.Line, "text", "a substitution gives the new text (or heading)")
			}
		case EffectRenumbered:
			e.To = s.provisionID("to", true)
		}
		for _, t := range s.list("touches", false) {
			if !slices.Contains(EntityTypes, t) {
				s.addAt(s.keyLines["touches"], "touches", "unknown entity type %q (allowed: %s)", t, strings.Join(EntityTypes, ", "))
				continue
			}
			e.Touches = append(e.Touches, t)
		}
		s.done()
		out = append(out, e)
	}
	return out
}

// assembleDirections gives each direction its versions, in date order,
// checks them against it and the catalog, and builds its history.
func (l *loader) assembleDirections(circulars map[string]*Circular) {
	bySlug := map[string]*MasterDirection{}
	for i := range l.cat.Directions {
		bySlug[l.cat.Directions[i].Slug] = &l.cat.Directions[i]
	}
	for slug, vs := range l.dirVersions {
		if bySlug[slug] == nil {
			for _, v := range vs {
				l.problems = append(l.problems, Problem{Path: v.Path, Line: 0, Field: "file",
					Message: "a version of a direction with no index.md (" + path.Join(l.label, DirectionsFolder, slug, "index.md") + ")"})
			}
		}
	}
	for i := range l.cat.Directions {
		d := &l.cat.Directions[i]
		at := func(field, format string, args ...any) {
			l.problems = append(l.problems, Problem{Path: d.Path, Line: l.lineOf(d.Path, field), Field: field, Message: fmt.Sprintf(format, args...)})
		}
		for _, r := range d.ReplacedBy {
			if r == d.Slug || bySlug[r] == nil {
				at("replacedBy", "refers to unknown direction %s (a folder of %s)", r, DirectionsFolder)
			}
		}
		for field, s := range map[string]OptString{"statusCircular": d.StatusCircular, "circular": d.Circular} {
			if _, ok := circulars[string(s)]; s != "" && !ok {
				at(field, "refers to unknown circular %s", s)
			}
		}
		vs := l.dirVersions[d.Slug]
		for i := range vs {
			vs[i].Direction = d.Slug
			vs[i].ID = IDForPath(strings.TrimPrefix(vs[i].Path, l.label+"/"))
		}
		slices.SortFunc(vs, func(a, b DirectionVersion) int { return a.Date.Compare(b.Date.Time) })
		for _, v := range vs {
			vat := func(field, format string, args ...any) {
				l.problems = append(l.problems, Problem{Path: v.Path, Line: l.lineOf(v.Path, field), Field: field, Message: fmt.Sprintf(format, args...)})
			}
			if !v.Date.After(d.IssuedDate.Time) {
				vat("file", "version dated %s, not after the direction's issuedDate %s", v.Date, d.IssuedDate)
			}
			if d.StatusDate != nil && !v.Date.Before(d.StatusDate.Time) {
				vat("file", "version dated %s, on or after the direction stopped being in force (%s)", v.Date, d.StatusDate)
			}
			for _, c := range v.Circulars {
				if _, ok := circulars[c]; !ok {
					vat("circulars", "refers to unknown circular %s", c)
				}
			}
			for ei, e := range v.Effects {
				if e.Chapter != "" && !slices.ContainsFunc(d.Chapters, func(c Chapter) bool { return c.ID == string(e.Chapter) }) {
					l.problems = append(l.problems, Problem{Path: v.Path, Line: e.line, Field: fmt.Sprintf("effects[%d].chapter", ei),
						Message: fmt.Sprintf("unknown chapter %q", e.Chapter)})
				}
			}
		}
		d.Versions = vs
		var problems []EffectProblem
		d.History, problems = BuildHistory(d.IssuedDate, d.Provisions, d.Versions)
		for _, p := range problems {
			v := d.Versions[p.Version]
			l.problems = append(l.problems, Problem{Path: v.Path, Line: v.Effects[p.Effect].line,
				Field: fmt.Sprintf("effects[%d]", p.Effect), Message: p.Message})
		}
	}
	slices.SortFunc(l.cat.Directions, func(a, b MasterDirection) int {
		if c := b.IssuedDate.Compare(a.IssuedDate.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Slug, b.Slug)
	})
}
