package catalog

import (
	"regexp"
	"strings"
)

// A Master Direction is a rule the regulator amends in place: RBI keeps
// one current text and a list of "updated as on" dates. RegPulse keeps
// its memory: the provisions as issued, and each later version as the
// effects an amending circular had on them (inserted, substituted,
// deleted, renumbered), from which the text in force on any date is
// rebuilt (History, At) rather than stored once per version.
//
// Editors write one folder per direction under content/master-directions:
// index.md (the direction and its provisions as issued) and one file per
// version, named by the date it came into force (2023-02-10.md).

// The enumerations of Master Directions.
var (
	// DirectionStatuses: in force (whether amended or not), replaced by
	// successors, or withdrawn without one.
	DirectionStatuses = []string{"in-force", "replaced", "withdrawn"}
	// Wordings say whether a provision's text is the regulator's own
	// words or the team's digest of them.
	Wordings = []string{"official", "digest"}
	// EffectKinds are what a version does to a provision.
	EffectKinds = []string{EffectInserted, EffectSubstituted, EffectDeleted, EffectRenumbered}
)

// The effect kinds.
const (
	EffectInserted    = "inserted"
	EffectSubstituted = "substituted"
	EffectDeleted     = "deleted"
	EffectRenumbered  = "renumbered"
)

// DirectionsFolder is the content folder of the Master Directions.
const DirectionsFolder = "master-directions"

// MasterDirection is one direction, its provisions as issued and its
// versions since.
type MasterDirection struct {
	Entry
	Title      string    `json:"title"`
	ShortTitle OptString `json:"shortTitle"`
	// Source is the regulator that issued it (one of Regulators).
	Source              string    `json:"source" enum:"Source"`
	Number              OptString `json:"number"`
	DepartmentReference OptString `json:"departmentReference"`
	Department          OptString `json:"department"`
	IssuedDate          Date      `json:"issuedDate"`
	// ReviewedOn is the day an editor last compared the versions with
	// the regulator's list of updates: the text is complete for the
	// amendments known up to then ("up to date as of").
	ReviewedOn Date `json:"reviewedOn"`
	// AppliesTo are the kinds of business it governs (EntityTypes).
	AppliesTo TextList `json:"appliesTo"`
	// Circular is the catalog's circular of the direction as issued, if
	// the catalog has it: its page and the direction's link each other.
	Circular     OptString `json:"circular"`
	OfficialURL  OptString `json:"officialUrl"`
	Verification OptString `json:"verification" enum:"Verification"`
	// Status is one of DirectionStatuses; StatusDate when it was
	// replaced or withdrawn, StatusCircular the catalog's circular that
	// did it, ReplacedBy the directions (slugs) that replace it and
	// Successors those the catalog does not hold, by name.
	Status         string        `json:"status" enum:"DirectionStatus"`
	StatusDate     *Date         `json:"statusDate"`
	StatusCircular OptString     `json:"statusCircular"`
	ReplacedBy     TextList      `json:"replacedBy"`
	Successors     TextList      `json:"successors"`
	About          string        `json:"about"`
	Chapters       List[Chapter] `json:"chapters"`
	// Provisions are the text as issued, in order.
	Provisions []Provision `json:"-"`
	// Versions are the amendments since, oldest first.
	Versions []DirectionVersion `json:"-"`
	// History is every text each provision has had, derived by the
	// loader from Provisions and Versions (history.go).
	History []ProvisionSpan `json:"-"`
}

// Chapter groups provisions for a table of contents.
type Chapter struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Provision is one numbered paragraph as the regulator numbers it ("3",
// "3A", "38(c)", "Annex I.2").
type Provision struct {
	ID      string    `json:"id"`
	Chapter OptString `json:"chapter"`
	Heading OptString `json:"heading"`
	Text    string    `json:"text"`
	// Wording is one of Wordings: the official text or a digest of it.
	Wording string `json:"wording" enum:"Wording"`
}

// DirectionVersion is one amendment: the changes that came into force on
// Date, made by the catalog's Circulars or, when the catalog lacks the
// circular, the one Amending names.
type DirectionVersion struct {
	// ID is the version file's (IDForPath); Direction the slug of its
	// direction.
	ID        string            `json:"id"`
	Direction string            `json:"direction"`
	Path      string            `json:"-"`
	Date      Date              `json:"date"`
	Circulars TextList          `json:"circulars"`
	Amending  *AmendingCircular `json:"amending"`
	// Note is the team's account of what changed and why (the file's
	// body), eRegulations' section-by-section analysis.
	Note         string    `json:"note"`
	Verification OptString `json:"verification" enum:"Verification"`
	// ChangesKnown is false when only the date is known (RBI's "updated
	// as on" list names it, and what changed was not found): the version
	// then has no effects, and pages say so instead of implying none.
	ChangesKnown bool           `json:"changesKnown"`
	Source       *FetchedSource `json:"source"`
	// Draft marks a version written by regpulse ingest for an editor to
	// review: it is checked, and in no page, text or comparison.
	Draft   bool         `json:"-"`
	Effects List[Effect] `json:"effects"`
}

// AmendingCircular names a circular the catalog does not hold.
type AmendingCircular struct {
	Number OptString `json:"number"`
	Title  string    `json:"title"`
	URL    OptString `json:"url"`
}

// FetchedSource is the document a version was read from: its address,
// its SHA-256 and when it was fetched.
type FetchedSource struct {
	URL     string `json:"url"`
	SHA256  string `json:"sha256"`
	Fetched Date   `json:"fetched"`
}

// Effect is what a version did to one provision. Provision is its id
// before the effect (for an insertion, the new provision's id).
type Effect struct {
	Kind      string `json:"kind" enum:"EffectKind"`
	Provision string `json:"provision"`
	// After is the id an inserted provision follows ("" for the first).
	After string `json:"after,omitempty"`
	// To is a renumbered provision's new id.
	To      string    `json:"to,omitempty"`
	Chapter OptString `json:"chapter,omitempty"`
	Heading OptString `json:"heading,omitempty"`
	Text    string    `json:"text,omitempty"`
	Wording string    `json:"wording,omitempty" enum:"Wording"`
	// Touches are the kinds of business the change bears on; empty, they
	// are the amending circulars' (from their entity impact).
	Touches TextList `json:"touches"`
	line    int
}

var provisionIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 .()\-]{0,39}$`)

// ProvisionAnchor is the id of a provision's element on a page: "p-"
// and its id with each run of other characters than letters and digits
// made one "-" ("38(c)" is p-38-c).
func ProvisionAnchor(id string) string {
	var b strings.Builder
	b.WriteString("p")
	dash := true
	for _, r := range id {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			if dash {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// Current is the version in force on date d (the last whose date is on or
// before it), or nil when none is (the text as issued holds).
func (d *MasterDirection) Current(day Date) *DirectionVersion {
	var cur *DirectionVersion
	for i := range d.Versions {
		if d.Versions[i].Date.After(day.Time) {
			break
		}
		cur = &d.Versions[i]
	}
	return cur
}

// InForce reports whether the direction is in force on day: issued by
// then, and not replaced or withdrawn before it.
func (d *MasterDirection) InForce(day Date) bool {
	if day.Before(d.IssuedDate.Time) {
		return false
	}
	return d.Status == "in-force" || d.StatusDate == nil || day.Before(d.StatusDate.Time)
}

// Label is the direction's short title, or its title.
func (d *MasterDirection) Label() string {
	if d.ShortTitle != "" {
		return string(d.ShortTitle)
	}
	return d.Title
}

// The site's paths of the directions' pages (the generator renders
// them; obligations' reviews and e-mails link them).

// DirectionsPath is the list of Master Directions.
const DirectionsPath = "/master-directions"

// DirectionPath is a direction's page.
func DirectionPath(slug string) string { return DirectionsPath + "/" + slug }

// DirectionAsOfPath is a direction's text on day.
func DirectionAsOfPath(slug string, day Date) string {
	return DirectionPath(slug) + "/as-of/" + day.String()
}

// DirectionComparePath compares a direction's text on from and to.
func DirectionComparePath(slug string, from, to Date) string {
	return DirectionPath(slug) + "/compare/" + from.String() + "/" + to.String()
}

// TextBefore is the day of the text version vi changed: the version
// before it (drafts aside), or the issue date.
func (d *MasterDirection) TextBefore(vi int) Date {
	for i := vi - 1; i >= 0; i-- {
		if !d.Versions[i].Draft {
			return d.Versions[i].Date
		}
	}
	return d.IssuedDate
}
