package generator

import (
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// impactTrackerView is the /impact-tracker page's data as of the build:
// the records GET /api/impact-tracking serves (the store keeps what
// impact.Records computes at each sync, the same computation), and the
// active circulars (impact.IsActive), with 150-character previews.
type impactTrackerView struct {
	Entities []impact.Record `json:"entities"`
	High     []circularView  `json:"high"`
	Medium   []circularView  `json:"medium"`
	// Open are the active drafts and consultation papers: no obligation yet.
	Open       []circularView `json:"open"`
	WindowDays int            `json:"windowDays"`
	Rule       string         `json:"rule"`
}

func impactTracker(cat *catalog.Catalog, now time.Time) impactTrackerView {
	views := func(cs []catalog.Circular) []circularView {
		out := []circularView{}
		for _, c := range cs {
			out = append(out, circularView{Circular: c, Preview: circularPreview(c, impactPreviewLen), Related: []string{}})
		}
		return out
	}
	return impactTrackerView{
		Entities:   impact.Records(cat.Circulars, now),
		High:       views(impact.Active(cat.Circulars, "high", now)),
		Medium:     views(impact.Active(cat.Circulars, "medium", now)),
		Open:       views(impact.Open(cat.Circulars, now)),
		WindowDays: impact.WindowDays,
		Rule:       impact.ActiveRule,
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
