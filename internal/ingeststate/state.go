// Package ingeststate is what the ingestion pipeline (internal/ingest)
// keeps in the store: each source's state and polls, and every
// instrument and copy it has seen with the drafts it queued. The store
// implements State and Items over these types; they live apart from
// internal/ingest so that the store, and every binary that links it (the
// API's function), does not link the feed and page parsers.
package ingeststate

import (
	"context"
	"time"
)

// The pipeline's state lives in the store (issue 45), not in the content
// tree: what each source answered last (its validators, so the next poll
// is conditional), when it is next due, and every poll's figures. A run
// with no State polls as before: unconditionally, every source, every
// time.

// Outcome is how one poll of a source ended.
type Outcome string

const (
	// Parsed: the source answered with a new body, which was read.
	Parsed Outcome = "parsed"
	// NotModified: a 304 to the validators sent; nothing was read.
	NotModified Outcome = "not-modified"
	// Unchanged: a 200 whose body hashes as the last one did (a server
	// that ignores validators); nothing was parsed.
	Unchanged Outcome = "unchanged"
	// Failed: the fetch or the parse failed.
	Failed Outcome = "error"
	// ShapeChanged: a listing page answered but no longer matches its
	// selectors (the regulator redesigned it): loud, never "no items".
	ShapeChanged Outcome = "shape-changed"
)

// Validators are what a source's last good answer carried, sent back on
// the next poll (If-None-Match, If-Modified-Since), and the SHA-256 of
// its body for servers that send neither.
type Validators struct {
	ETag         string
	LastModified string
	BodySHA256   string
}

// SourceState is what the store knows of one source (a feeds.yaml entry).
type SourceState struct {
	Name   string // the feeds.yaml name
	Source string // the catalog source (RBI, SEBI, NPCI …)
	Kind   string // "feed" or "listing"
	URL    string
	Validators
	LastPoll, LastSuccess, NextPoll time.Time
	LastStatus                      Outcome
	LastError                       string
	ConsecutiveErrors               int
	StaleReported, ShapeReported    time.Time
}

// Poll is one poll's record: what happened and what to remember.
type Poll struct {
	Name, Source, Kind, URL string
	At                      time.Time
	Outcome                 Outcome
	HTTPStatus              int
	// Items read from the source; New written as drafts; Backfilled of
	// them found on listing pages beyond the feed's window; Merged kept
	// as another copy of a known instrument.
	Items, New, Backfilled, Merged int
	Took                           time.Duration
	Err                            string
	// Validators to send next time (kept as they were on an error).
	Validators Validators
	// NextPoll is when the source is next due (its cadence, jitter and
	// back-off, decided by the caller).
	NextPoll time.Time
	// StaleReported and ShapeReported are when the operator was told
	// that the source went stale or changed shape, this spell (zero:
	// not told, or the spell is over); saved as given.
	StaleReported, ShapeReported time.Time
}

// State is the store's side of polling.
type State interface {
	// IngestSource is what is known of the source named name (ok false
	// before its first poll).
	IngestSource(ctx context.Context, name string) (s SourceState, ok bool, err error)
	// SaveIngestPoll records a poll and updates its source's state in
	// one transaction.
	SaveIngestPoll(ctx context.Context, p Poll) error
}

// Operator is whoever runs the pipeline, told when a source goes stale
// (no successful poll for catalog.StaleAfter) or a listing page changes
// shape: once per spell, by e-mail in production.
type Operator interface {
	Tell(ctx context.Context, subject, text string) error
}

// Identity is what an item is recognised by.
type Identity struct {
	Source    string
	Date      time.Time
	Link      string // catalog.NormaliseLink
	Ref       string // RefKey: space-separated keys, "" when none
	TitleDate string // source|yyyy-mm-dd|title words
	SimHash   uint64 // 0 when the text is too short to fingerprint
}

// Item statuses in the store.
const (
	// StatusQueued: a draft kept in the store only, waiting for a pull.
	StatusQueued = "queued"
	// StatusWritten: a draft written as a file (FilePath).
	StatusWritten = "written"
	// StatusMerged: another copy of an instrument, its link added to the
	// first copy's draft.
	StatusMerged = "merged"
	// StatusPending: another copy whose link waits for an editor: the
	// first copy's file was edited or published, and is never rewritten.
	StatusPending = "pending"
	// StatusKnown: an instrument the content already had (the seed).
	StatusKnown = "known"
)

// Item is one row of the store's ingest_items: an instrument or a copy.
type Item struct {
	ID   int64
	Feed string // the feeds.yaml name it came from ("" for the seed)
	Identity
	URL   string // the link as the source gave it
	Title string
	// Variant is what a copy is: primary (a first copy), press-release,
	// hindi, pdf or repost.
	Variant string
	// CanonicalID is the first copy's row (0 for a first copy).
	CanonicalID int64
	Status      string
	FilePath    string // content/circulars/x.md once written
	Draft       string // the rendered file
	FirstSeen   time.Time
}

// Items is the store's side of identities and the draft queue.
type Items interface {
	// IngestItems is every row, oldest first.
	IngestItems(ctx context.Context) ([]Item, error)
	// IngestCandidates are the rows an item with identity id may be a
	// copy of by any rule (a superset: Index.Match decides), with their
	// first copies, oldest first.
	IngestCandidates(ctx context.Context, id Identity) ([]Item, error)
	// HasIngestItems reports whether any row exists.
	HasIngestItems(ctx context.Context) (bool, error)
	// AddIngestItems inserts rows (a row whose link is known is left as
	// it is) and returns their ids in order (0 for one left out).
	AddIngestItems(ctx context.Context, items []Item) ([]int64, error)
	// SetIngestDraft replaces a draft's text (a link added to it).
	SetIngestDraft(ctx context.Context, id int64, draft string) error
	// MarkIngestWritten records that a queued draft is now the file path.
	MarkIngestWritten(ctx context.Context, id int64, path string) error
}
