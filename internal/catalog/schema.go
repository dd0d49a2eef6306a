package catalog

import (
	"fmt"
	"strings"
	"time"
)

// The schema of every kind of content file, taken from the loader: each
// kind's decoder is run over an empty front matter with its fields
// recording what they read (fields.specs), so the decoders are the one
// declaration of what a file may hold. The CMS's configuration is made
// from it (internal/cmsconfig), so the CMS cannot offer a field the
// loader refuses or miss one it reads.

// FieldType is what a front-matter field holds.
type FieldType string

// The field types.
const (
	TypeText    FieldType = "text"    // a single value
	TypeLink    FieldType = "link"    // an http(s) URL
	TypeTarget  FieldType = "target"  // a site path (/news) or an http(s) URL
	TypeDate    FieldType = "date"    // YYYY-MM-DD
	TypeNumber  FieldType = "number"  // a whole number, Min to Max
	TypeBoolean FieldType = "boolean" // true or false
	TypeList    FieldType = "list"    // a list: of text (of Options when set), or of maps of Fields
	TypeObject  FieldType = "object"  // a map of Fields
	// TypeMap is a map whose keys are Fields' names, each optional, at
	// least one given (entityImpact: entity type to impact level).
	TypeMap FieldType = "map"
)

// Field is one front-matter field as the loader reads it.
type Field struct {
	Name     string
	Type     FieldType
	Required bool
	// Options are the allowed values (an enumeration: of the field, or of
	// a list's items).
	Options []string
	// Default is what the loader takes when the field is absent, when that
	// is not the type's zero value ("true" for published).
	Default  string
	Min, Max *int // a number's bounds
	// Fields are an object's or a map's fields, or those of a list's items.
	Fields []Field
	// Hint is a note for editors (the skeleton's), "" when none.
	Hint string
}

// BodyUse is what a kind does with the text below the front matter.
type BodyUse int

// The body uses, in increasing need.
const (
	BodyNone     BodyUse = iota // not read
	BodyOptional                // read, may be empty
	BodyRequired                // read, must not be empty
)

// KindSchema is the schema of a kind of content file.
type KindSchema struct {
	// Name names the kind: its folder ("circulars"), or for a Master
	// Direction's files "master-directions" (index.md) and
	// "master-direction-versions" (YYYY-MM-DD.md).
	Name string
	// Folder is the kind's folder under the content directory.
	Folder string
	// File is the file's path under Folder, with {slug} for the entry's
	// name (lowercase words joined by '-') and {date} for a date.
	File   string
	Fields []Field
	Body   BodyUse
}

// DirectionVersionsKind names the kind of a Master Direction's version
// files in the schema.
const DirectionVersionsKind = "master-direction-versions"

// SlugPattern is the rule of an entry's file name (without .md) and of a
// Master Direction's folder name.
const SlugPattern = `^[a-z0-9]+(-[a-z0-9]+)*$`

// Schema is every kind's schema as of now (a year's bound is this
// year), the folders' kinds (Kinds) first, then the Master Directions'
// two.
func Schema(now time.Time) []KindSchema {
	clock := func() time.Time { return now }
	var out []KindSchema
	for _, kind := range Kinds() {
		specs, body := describeKind(kind, clock)
		out = append(out, KindSchema{Name: kind, Folder: kind, File: "{slug}.md", Fields: exportSpecs(kind, specs), Body: body})
	}
	l := newLoader("content", clock)
	l.dirVersions = map[string][]DirectionVersion{}
	for _, d := range []struct {
		name, file string
		decode     func(f *fields)
	}{
		{DirectionsFolder, "{slug}/index.md", func(f *fields) { l.direction(f, Entry{}, "") }},
		{DirectionVersionsKind, "{slug}/{date}.md", func(f *fields) { l.directionVersion(f, "new", "2000-01-01", "") }},
	} {
		specs, body := record("content/"+DirectionsFolder+"/new/new.md", func(f *fields) {
			if d.name == DirectionsFolder {
				l.entryID(f, &Entry{})
			}
			d.decode(f)
		})
		out = append(out, KindSchema{Name: d.name, Folder: DirectionsFolder, File: d.file, Fields: exportSpecs(d.name, specs), Body: body})
	}
	return out
}

// describeKind runs a folder kind's decoder (after the id every entry
// may have) over an empty entry.
func describeKind(kind string, now func() time.Time) ([]fieldSpec, BodyUse) {
	l := newLoader("content", now)
	return record("content/"+kind+"/new.md", func(f *fields) {
		l.entryID(f, &Entry{})
		kinds[kind](l, f, Entry{}, "")
	})
}

// record runs decode over an empty front matter and gives the fields it
// read, in order, and what it does with the body.
func record(path string, decode func(f *fields)) ([]fieldSpec, BodyUse) {
	f := newFields(path, 0, nil, &Problems{})
	f.specs = &[]fieldSpec{}
	body := BodyNone
	f.bodyUse = &body
	decode(f)
	return *f.specs, body
}

func exportSpecs(kind string, specs []fieldSpec) []Field {
	out := make([]Field, 0, len(specs))
	for _, s := range specs {
		out = append(out, Field{Name: s.name, Type: s.kind.fieldType(), Required: s.required, Options: s.allowed,
			Default: s.byDefault, Min: s.min, Max: s.max, Fields: exportSpecs("", s.fields), Hint: hints[kind][s.name].note})
	}
	return out
}

func (k fieldKind) fieldType() FieldType {
	switch k {
	case dateField:
		return TypeDate
	case numberField:
		return TypeNumber
	case booleanField:
		return TypeBoolean
	case listField:
		return TypeList
	case mapField:
		return TypeMap
	case linkField:
		return TypeLink
	case targetField:
		return TypeTarget
	case objectField:
		return TypeObject
	}
	return TypeText
}

// String is the field as a line of a schema's listing, for tests and
// reading: name type [required] (options) {fields}.
func (f Field) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", f.Name, f.Type)
	if f.Required {
		b.WriteString(" required")
	}
	if f.Default != "" {
		b.WriteString(" default=" + f.Default)
	}
	if len(f.Options) > 0 {
		b.WriteString(" (" + strings.Join(f.Options, "|") + ")")
	}
	if len(f.Fields) > 0 {
		parts := make([]string, len(f.Fields))
		for i, s := range f.Fields {
			parts[i] = s.String()
		}
		b.WriteString(" {" + strings.Join(parts, "; ") + "}")
	}
	return b.String()
}
