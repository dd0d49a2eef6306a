// Package impact holds the impact tracker's rules once: the compliance
// score, the window it counts over, the score bands, the entity types'
// display names, which circulars are "currently active", and Records, the
// one computation of the tracker's records. The generator's static page
// shows Records as of the build; each store sync keeps Records as of the
// sync, which the API serves.
package impact

import (
	"time"

	"regpulse/internal/catalog"
)

// The compliance score rule. No sourced scores exist, so a score nobody has
// set is
//
//	max(0, 100 - 5 × high - 2 × medium)
//
// where high and medium count the active binding circulars (see IsActive
// and catalog.Binding) whose impact on the entity type is high or medium.
// Low-impact circulars do not lower the score, nor do drafts and
// consultation papers, which oblige no one; a type with no such circular
// scores 100.
const (
	WindowDays    = 365
	HighPenalty   = 5
	MediumPenalty = 2
)

// Score is the rule's score for high and medium impact counts in the window.
func Score(high, medium int) int {
	return max(0, 100-HighPenalty*high-MediumPenalty*medium)
}

// Window returns the first and last calendar day (midnight UTC) of the
// WindowDays days ending on now's date in UTC: that date and the 364 before.
func Window(now time.Time) (from, to time.Time) {
	return catalog.DaysEnding(now, WindowDays)
}

// ActiveRule is the rule of IsActive in one sentence, as pages state it.
const ActiveRule = "A circular is active while it can still demand work: published in the last 365 days, or with an effective or compliance date in the last 365 days or still to come, and still in force: not replaced by a newer circular nor withdrawn."

// IsActive reports whether c can still demand work as of now: it is in
// force (catalog.Circular.InForce: not replaced, not withdrawn), and its publication, effective date or
// a compliance date falls in the window ending today or after it. A
// circular published years ago whose deadline is next year is active; one
// published last month but already replaced is not, nor one published
// after now.
func IsActive(c catalog.Circular, now time.Time) bool {
	from, today := Window(now)
	// Not yet issued as of now (a build as of a past date), replaced or
	// withdrawn.
	if c.PublishedDate.After(today) || !c.InForce(now) {
		return false
	}
	for _, d := range c.Dates() {
		if !catalog.Day(d).Before(from) {
			return true
		}
	}
	return false
}

// Score bands: 90 and above good (green), 80 to 89
// warning (yellow), below 80 poor (red).
const (
	GoodScore    = 90
	WarningScore = 80
)

// Band names, as written in the pages' data-band attributes.
const (
	Good    = "good"
	Warning = "warning"
	Poor    = "poor"
)

// Band is the band a score falls in.
func Band(score int) string {
	switch {
	case score >= GoodScore:
		return Good
	case score >= WarningScore:
		return Warning
	}
	return Poor
}

// DisplayName is how the tracker names an entity type (PSP is
// "Payment Service Providers", Issuer "Card Issuers", anything else
// "Payment Aggregators").
func DisplayName(entityType string) string {
	switch entityType {
	case "PSP":
		return "Payment Service Providers"
	case "Issuer":
		return "Card Issuers"
	}
	return "Payment Aggregators"
}

// Record is one entity type's impact tracking record, as the tracker page
// shows it and GET /api/impact-tracking answers it: the counts are over
// every circular naming the type, the score over the window only, and the
// band and display name follow from the score and the type.
type Record struct {
	ID string `json:"id"`
	// CircularID is the newest circular naming the entity type; null if none.
	CircularID        catalog.OptString `json:"circularId"`
	EntityType        string            `json:"entityType" enum:"EntityType"`
	Name              string            `json:"name"`
	ComplianceScore   int               `json:"complianceScore"`
	Band              string            `json:"band" enum:"Band"`
	HighImpactCount   int               `json:"highImpactCount"`
	MediumImpactCount int               `json:"mediumImpactCount"`
	LowImpactCount    int               `json:"lowImpactCount"`
	// UpdatedAt is when the record last changed.
	UpdatedAt time.Time `json:"updatedAt"`
}

// Bands lists the band names, best first.
var Bands = []string{Good, Warning, Poor}

// RecordID is the stable id of an entity type's record.
func RecordID(entityType string) string {
	return catalog.IDForPath("impact-tracking/" + entityType)
}

// Records returns one record per entity type of catalog.EntityTypes, in
// that order, as of now (which is also each record's UpdatedAt). circulars
// are in the catalog's order, newest first. The counts cover every binding
// circular naming the type; the score only the active ones.
func Records(circulars []catalog.Circular, now time.Time) []Record {
	out := make([]Record, 0, len(catalog.EntityTypes))
	for _, t := range catalog.EntityTypes {
		r := Record{ID: RecordID(t), EntityType: t, Name: DisplayName(t), UpdatedAt: now}
		var high, medium int // active
		for _, c := range circulars {
			if !catalog.Binding(c.DocumentType) {
				continue
			}
			level := c.ImpactFor(t)
			if level != "" && r.CircularID == "" {
				r.CircularID = catalog.OptString(c.ID)
			}
			recent := IsActive(c, now)
			switch level {
			case "high":
				r.HighImpactCount++
				if recent {
					high++
				}
			case "medium":
				r.MediumImpactCount++
				if recent {
					medium++
				}
			case "low":
				r.LowImpactCount++
			}
		}
		r.ComplianceScore = Score(high, medium)
		r.Band = Band(r.ComplianceScore)
		out = append(out, r)
	}
	return out
}

// Active returns the binding circulars "currently active" (IsActive) at
// an overall impact level, in the order given (the catalog's: newest
// first).
func Active(circulars []catalog.Circular, level string, now time.Time) []catalog.Circular {
	var out []catalog.Circular
	for _, c := range circulars {
		if c.ImpactLevel == level && catalog.Binding(c.DocumentType) && IsActive(c, now) {
			out = append(out, c)
		}
	}
	return out
}

// Open returns the active circulars that oblige no one yet (drafts,
// discussion and consultation papers, announcements): what a team should
// read and may comment on, shown apart from the obligations.
func Open(circulars []catalog.Circular, now time.Time) []catalog.Circular {
	var out []catalog.Circular
	for _, c := range circulars {
		if !catalog.Binding(c.DocumentType) && IsActive(c, now) {
			out = append(out, c)
		}
	}
	return out
}
