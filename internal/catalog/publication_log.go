package catalog

import "time"

// The publication log (issue 45), after legislation.gov.uk's: every change
// a catalog sync made to what readers see, in the order it was made, so
// that another system can stay in step by remembering the last Seq it read.

// PublicationEvents are what an entry of the log says happened. baseline
// is the log's first entry: the catalog as it stood when the log began
// (its items are not logged one by one). removed is an item taken off the
// site (its file deleted or unpublished); republished one back after that.
var PublicationEvents = []string{"baseline", "published", "revised", "withdrawn", "superseded", "removed", "republished"}

// PublicationKinds are what an entry of the log is about: the catalog as
// a whole (the baseline), a circular, a Master Direction or one of its
// versions.
var PublicationKinds = []string{"catalog", "circular", "direction", "direction-version"}

// PublicationEntry is one entry of the publication log.
type PublicationEntry struct {
	// Seq orders the log and is its paging cursor: a later entry has a
	// larger Seq, and no entry appears below a Seq already read.
	Seq int64 `json:"seq"`
	// At is when the sync that made the change ran.
	At    time.Time `json:"at"`
	Event string    `json:"event" enum:"PublicationEvent"`
	Kind  string    `json:"kind" enum:"PublicationKind"`
	// ID and Slug are the item's (a version's slug is its direction's).
	ID     string `json:"id"`
	Slug   string `json:"slug"`
	Source string `json:"source"`
	Title  string `json:"title"`
	// Path is the item's page on the site ("" for the baseline).
	Path string `json:"path"`
	// BeforeHash and AfterHash are the log's hashes of the item's text
	// before and after a revision (AfterHash alone when it was published).
	BeforeHash string `json:"beforeHash"`
	AfterHash  string `json:"afterHash"`
	// Changes is the page that shows what changed, where there is one:
	// a Master Direction version's comparison with the text before it.
	Changes string `json:"changes"`
	// SupersededBy are the slugs of what replaced a superseded item;
	// WithdrawnOn the day a withdrawn (or superseded) item stopped being in
	// force.
	SupersededBy TextList `json:"supersededBy"`
	WithdrawnOn  *Date    `json:"withdrawnOn"`
	// Note says in words what the entry records (the baseline's counts).
	Note string `json:"note"`
}

// PublicationQuery selects a page of the log: entries after AfterSeq
// (oldest first), or, with Before set, the entries before it (newest
// first); From and To bound the day of At (UTC, inclusive); Source and
// Event filter.
type PublicationQuery struct {
	AfterSeq int64
	Before   int64
	From, To *Date
	Source   string
	Event    string
	Limit    int
}

// publicationEventLabels are how pages and feeds name each event.
var publicationEventLabels = map[string]string{
	"baseline": "Log begins", "published": "Published", "revised": "Revised in place", "withdrawn": "Withdrawn",
	"superseded": "Superseded", "removed": "Removed", "republished": "Republished",
}

// PublicationEventLabel is the name pages and feeds show for an event.
func PublicationEventLabel(event string) string { return publicationEventLabels[event] }
