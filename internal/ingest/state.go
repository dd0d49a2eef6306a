package ingest

import "regpulse/internal/ingeststate"

// The pipeline's records, kept in the store, are ingeststate's (so the
// store need not link this package's parsers); here under their short
// names.
type (
	Outcome     = ingeststate.Outcome
	Validators  = ingeststate.Validators
	SourceState = ingeststate.SourceState
	Poll        = ingeststate.Poll
	State       = ingeststate.State
	Operator    = ingeststate.Operator
	Identity    = ingeststate.Identity
	Item        = ingeststate.Item
	Items       = ingeststate.Items
)

const (
	Parsed       = ingeststate.Parsed
	NotModified  = ingeststate.NotModified
	Unchanged    = ingeststate.Unchanged
	Failed       = ingeststate.Failed
	ShapeChanged = ingeststate.ShapeChanged

	StatusQueued  = ingeststate.StatusQueued
	StatusWritten = ingeststate.StatusWritten
	StatusMerged  = ingeststate.StatusMerged
	StatusPending = ingeststate.StatusPending
	StatusKnown   = ingeststate.StatusKnown
)
