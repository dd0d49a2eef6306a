package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"

	"regpulse/internal/catalog"
)

// dataFile is JSON that in-browser filters load: public/data/NAME.HASH.json.
// The hash of the content in the name lets the CDN cache it for a year.
type dataFile struct {
	Name string
	URL  string
	Body []byte
}

// circularSummary is a circular as lists need it: no full text, a preview.
type circularSummary struct {
	ID             string                 `json:"id"`
	Slug           string                 `json:"slug"`
	CircularNumber string                 `json:"circularNumber,omitempty"`
	Title          string                 `json:"title"`
	Preview        string                 `json:"preview"`
	Summary        string                 `json:"summary,omitempty"`
	Source         string                 `json:"source"`
	Category       string                 `json:"category"`
	PublishedDate  catalog.Date           `json:"publishedDate"`
	ImpactLevel    string                 `json:"impactLevel"`
	EntityImpact   []catalog.EntityImpact `json:"entityImpact"`
	OfficialURL    string                 `json:"officialUrl,omitempty"`
}

type newsSummary struct {
	ID            string       `json:"id"`
	Slug          string       `json:"slug"`
	Title         string       `json:"title"`
	Excerpt       string       `json:"excerpt"`
	Source        string       `json:"source"`
	Category      string       `json:"category"`
	Region        string       `json:"region"`
	PublishedDate catalog.Date `json:"publishedDate"`
	SourceURL     string       `json:"sourceUrl"`
}

// SPEC.md section 9: a circular's preview is 200 characters on cards and
// 150 on the impact tracker.
const (
	cardPreviewLen   = 200
	impactPreviewLen = 150
)

// circularPreview is the plain-text start of a circular, n characters long.
func circularPreview(c catalog.Circular, n int) string {
	return catalog.Preview(catalog.PlainText(c.Content), n)
}

func summarizeCircular(c catalog.Circular) circularSummary {
	return circularSummary{ID: c.ID, Slug: c.Slug, CircularNumber: c.CircularNumber, Title: c.Title,
		Preview: circularPreview(c, cardPreviewLen), Summary: c.Summary,
		Source: c.Source, Category: c.Category, PublishedDate: c.PublishedDate, ImpactLevel: c.ImpactLevel,
		EntityImpact: c.EntityImpact, OfficialURL: c.OfficialURL}
}

// dataFiles builds every data file from the catalog.
func dataFiles(cat *catalog.Catalog) ([]dataFile, error) {
	circulars := make([]circularSummary, len(cat.Circulars))
	for i, c := range cat.Circulars {
		circulars[i] = summarizeCircular(c)
	}
	news := make([]newsSummary, len(cat.News))
	for i, n := range cat.News {
		news[i] = newsSummary{ID: n.ID, Slug: n.Slug, Title: n.Title, Excerpt: n.Excerpt, Source: n.Source,
			Category: n.Category, Region: n.Region, PublishedDate: n.PublishedDate, SourceURL: n.SourceURL}
	}
	sets := map[string]any{
		"circulars":   circulars,
		"news":        news,
		"companies":   cat.Companies,
		"regulations": cat.Regulations,
		"networks":    cat.Networks,
		"sibos":       cat.Sibos,
		"events":      cat.Events,
	}
	names := make([]string, 0, len(sets))
	for n := range sets {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []dataFile
	for _, name := range names {
		body, err := json.Marshal(sets[name])
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		out = append(out, dataFile{Name: name, URL: "/data/" + name + "." + hex.EncodeToString(sum[:])[:12] + ".json", Body: body})
	}
	return out, nil
}
