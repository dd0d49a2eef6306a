package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

var skeletonTime = time.Date(2027, time.March, 5, 10, 30, 0, 0, time.UTC)

// fillInMessages are the problems a fresh skeleton may have: it is meant
// to be filled in.
var fillInMessages = []string{
	"required field is empty",
	"required field is missing",
	"needs at least one item",
	"needs at least one entity type",
}

func TestSkeleton(t *testing.T) {
	kinds := Kinds()
	if want := []string{"ads", "adslots", "bodies", "circulars", "companies", "events", "networks", "news", "regulations", "sibos", "videos"}; !slices.Equal(kinds, want) {
		t.Errorf("Kinds() = %q, want %q", kinds, want)
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s, err := Skeleton(kind, skeletonTime)
			if err != nil {
				t.Fatalf("Skeleton(%q): %v", kind, err)
			}

			// It is front matter holding a YAML map, followed by a body.
			front, _, body, err := splitFrontMatter([]byte(s))
			if err != nil {
				t.Fatalf("skeleton front matter: %v\n%s", err, s)
			}
			var m map[string]any
			if err := yaml.Unmarshal(front, &m); err != nil {
				t.Fatalf("skeleton front matter is not YAML: %v\n%s", err, front)
			}
			if len(m) == 0 {
				t.Fatalf("skeleton has no fields:\n%s", s)
			}
			if strings.Contains(s, "{{") {
				t.Errorf("skeleton has an unreplaced placeholder:\n%s", s)
			}
			if _, ok := bodyHints[kind]; ok && strings.TrimSpace(string(body)) == "" {
				t.Errorf("skeleton body is empty although the kind has a hint")
			}

			// Dates and years come from the given time.
			for _, f := range []string{"publishedDate"} {
				if v, ok := m[f]; ok && v != nil {
					if d, ok := v.(time.Time); !ok || !d.Equal(time.Date(2027, time.March, 5, 0, 0, 0, 0, time.UTC)) {
						t.Errorf("%s = %v, want 2027-03-05", f, v)
					}
				}
			}
			if v, ok := m["year"]; ok && v != 2027 {
				t.Errorf("year = %v, want 2027", v)
			}

			// ParseFile finds only what is left to fill in.
			err = ParseFile(kind+"/new-entry.md", []byte(s))
			var ps Problems
			if err != nil && !errors.As(err, &ps) {
				t.Fatalf("ParseFile: %v", err)
			}
			for _, p := range ps {
				if p.Message == "unknown field" {
					t.Errorf("skeleton has a field the loader does not know: %s", p)
					continue
				}
				if !slices.Contains(fillInMessages, p.Message) {
					t.Errorf("skeleton problem is not a field left to fill in: %s", p)
				}
			}
		})
	}
}

// TestSkeleton_EveryField checks that a skeleton names every field its
// kind's decoder reads, so editors see all of them.
func TestSkeleton_EveryField(t *testing.T) {
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			s, err := Skeleton(kind, skeletonTime)
			if err != nil {
				t.Fatal(err)
			}
			front, frontLine, body, err := splitFrontMatter([]byte(s))
			if err != nil {
				t.Fatal(err)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal(front, &doc); err != nil {
				t.Fatal(err)
			}
			l := &loader{label: "content", cat: &Catalog{}, ids: map[string]string{}, fieldLines: map[string]map[string]int{}}
			f := newFields("content/"+kind+"/x.md", frontLine, doc.Content[0], &l.problems)
			kinds[kind](l, f, Entry{Slug: "x"}, strings.TrimSpace(string(body)))
			var missing []string
			for name := range f.used {
				if _, ok := f.keys[name]; !ok {
					missing = append(missing, name)
				}
			}
			slices.Sort(missing)
			if len(missing) > 0 {
				t.Errorf("skeleton of %s lacks fields %q", kind, missing)
			}
		})
	}
}

func TestSkeleton_UnknownKind(t *testing.T) {
	for _, kind := range []string{"", "circular", "Circulars", "misc", "circulars/"} {
		t.Run(kind, func(t *testing.T) {
			s, err := Skeleton(kind, skeletonTime)
			if err == nil {
				t.Fatalf("Skeleton(%q) = %q, want an error", kind, s)
			}
			if s != "" {
				t.Errorf("Skeleton(%q) returned text with its error", kind)
			}
			if !strings.Contains(err.Error(), "unknown kind") || !strings.Contains(err.Error(), "circulars") {
				t.Errorf("error %q should say the kind is unknown and list the kinds", err)
			}
		})
	}
}

// TestSkeleton_Filled checks that a skeleton whose required fields are
// filled in is a valid entry.
func TestSkeleton_Filled(t *testing.T) {
	fills := map[string]map[string]string{
		"circulars":   {"title": `"A title"`, "category": "UPI", "sourceUrl": "https://example.org/c", "sourceKind": "report"},
		"news":        {"title": "A title", "excerpt": "One sentence.", "source": "RBI", "category": "CBDC", "sourceUrl": "https://example.org/n"},
		"companies":   {"name": "Example", "description": "A company.", "country": "India", "category": "Lending"},
		"regulations": {"name": "Example Act", "country": "India", "keyProvisions": "[One]"},
		"networks":    {"name": "Visa", "description": "A network.", "guidelines": "[One rule]", "circularTerms": "[Visa]"},
		"sibos":       {"title": "Sibos 2027"},
		"events":      {"name": "Example Summit"},
		"bodies":      {"name": "National Payments Corporation of India", "shortName": "NPCI", "keyFunctions": "[Runs UPI]"},
		"ads":         {"title": "An ad", "description": "What it offers.", "company": "Example", "targetUrl": "/news"},
		"videos":      {"title": "A video", "description": "What it teaches."},
		"adslots":     {"title": "A slot", "description": "What it offers."},
	}
	slugs := map[string]string{"bodies": "npci", "networks": "visa", "sibos": "2027"}
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			s, err := Skeleton(kind, skeletonTime)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(s, "\n")
			for field, value := range fills[kind] {
				found := false
				for i, l := range lines {
					if strings.HasPrefix(l, field+":") {
						lines[i], found = field+": "+value, true
					}
				}
				if !found {
					t.Fatalf("skeleton has no line for %s", field)
				}
			}
			slug := slugs[kind]
			if slug == "" {
				slug = "new-entry"
			}
			if err := ParseFile(kind+"/"+slug+".md", []byte(strings.Join(lines, "\n"))); err != nil {
				t.Errorf("filled-in skeleton has problems: %v", err)
			}
		})
	}
}
