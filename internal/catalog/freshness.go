package catalog

import "time"

// Freshness says how current the catalog is, as eCFR and
// federalregister.gov say "up to date as of": the date of the newest
// circular and when the catalog was last built or synced from content
// (what an ingest writes counts from the build or sync after it).
type Freshness struct {
	// NewestCircular is the newest published circular's date (nil for an
	// empty catalog).
	NewestCircular *Date `json:"newestCircular"`
	// UpdatedAt is when the catalog was last built or synced (zero when
	// never).
	UpdatedAt time.Time `json:"updatedAt"`
}

// NewFreshness is the freshness of circulars cs (newest first, as the
// catalog orders them) built or synced at t.
func NewFreshness(cs []Circular, t time.Time) Freshness {
	f := Freshness{UpdatedAt: t.UTC().Truncate(time.Second)}
	if len(cs) > 0 {
		d := cs[0].PublishedDate
		f.NewestCircular = &d
	}
	return f
}
