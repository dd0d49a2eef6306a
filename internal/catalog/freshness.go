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

// StaleAfter is how long a source may go without a successful poll
// before readers are told its list may be behind and the operator is
// told it stopped answering.
const StaleAfter = 24 * time.Hour

// SourceFreshness says how fresh one regulator's items are, as eCFR's
// "up to date as of": when ingest last read each of its feeds or listing
// pages successfully. A source with several feeds is as fresh as its
// least fresh one.
type SourceFreshness struct {
	// Source is the catalog source (RBI, SEBI, NPCI …).
	Source string `json:"source"`
	// Feeds are the feeds.yaml names read for it.
	Feeds []string `json:"feeds"`
	// LastSuccess is the oldest of its feeds' last successful polls (zero
	// when one has never answered).
	LastSuccess time.Time `json:"lastSuccess"`
	// Stale is set when LastSuccess is more than StaleAfter ago, or zero.
	Stale bool `json:"stale"`
}

// IsStale says whether a source last read successfully at last is stale
// at now.
func IsStale(last, now time.Time) bool {
	return last.IsZero() || now.Sub(last) > StaleAfter
}
