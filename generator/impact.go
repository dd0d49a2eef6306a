package generator

import (
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// impactCircular is a circular as the impact tracker lists it.
type impactCircular struct {
	ID             string       `json:"id"`
	Slug           string       `json:"slug"`
	CircularNumber string       `json:"circularNumber,omitempty"`
	Title          string       `json:"title"`
	Preview        string       `json:"preview"`
	Source         string       `json:"source"`
	PublishedDate  catalog.Date `json:"publishedDate"`
}

// impactTrackerView is the /impact-tracker page's data as of the build:
// the same records GET /api/impact-tracking serves (the island replaces
// them with the API's when it can reach it, since the store may hold
// scores set by hand) and the circulars active in the score's window.
type impactTrackerView struct {
	Entities   []impact.Record  `json:"entities"`
	High       []impactCircular `json:"high"`
	Medium     []impactCircular `json:"medium"`
	WindowDays int              `json:"windowDays"`
	Thresholds map[string]int   `json:"thresholds"` // band limits, for the island's props
}

func impactTracker(cat *catalog.Catalog, now time.Time) impactTrackerView {
	list := func(level string) []impactCircular {
		out := []impactCircular{}
		for _, c := range impact.Active(cat.Circulars, level, now) {
			out = append(out, impactCircular{ID: c.ID, Slug: c.Slug, CircularNumber: c.CircularNumber, Title: c.Title,
				Preview: circularPreview(c, impactPreviewLen), Source: c.Source, PublishedDate: c.PublishedDate})
		}
		return out
	}
	return impactTrackerView{
		Entities:   impact.Records(cat.Circulars, now),
		High:       list("high"),
		Medium:     list("medium"),
		WindowDays: impact.WindowDays,
		Thresholds: map[string]int{impact.Good: impact.GoodScore, impact.Warning: impact.WarningScore},
	}
}

// entityType is an entity type and the name pages show for it.
type entityType struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

func entityTypes() []entityType {
	out := make([]entityType, len(catalog.EntityTypes))
	for i, t := range catalog.EntityTypes {
		out[i] = entityType{Type: t, Name: impact.DisplayName(t)}
	}
	return out
}
