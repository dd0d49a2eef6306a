package generator

import (
	"context"
	"slices"

	"regpulse/internal/catalog"
)

// StoredObligations is the store's extracted obligations as a build
// reads them (*store.DB): a circular without written obligations shows
// its extracted ones, labelled as such. At 100,000 circulars the
// extraction stores millions, so a build hashes each circular's stamp and
// reads the obligations of the texts it renders only, a batch at a time,
// and the dated ones the calendar lists.
type StoredObligations interface {
	// ExtractedStamps returns, by circular id, a stamp that changes
	// whenever the circular's extracted obligations shown do.
	ExtractedStamps(ctx context.Context) (map[string]string, error)
	// ExtractedObligationsOf returns the extracted obligations shown of
	// the circulars ids, by circular id, each circular's in order.
	ExtractedObligationsOf(ctx context.Context, ids []string) (map[string][]catalog.Obligation, error)
	// DatedExtractedObligations returns the binding extracted
	// obligations shown due on or after from, by circular id.
	DatedExtractedObligations(ctx context.Context, from catalog.Date) (map[string][]catalog.Obligation, error)
}

// extractedObligations is what a build read of Options.Obligations: the
// stamps, and the store to read the obligations themselves from.
type extractedObligations struct {
	store  StoredObligations // nil: none
	stamps map[string]string
}

// readExtracted reads the stamps of opts.Obligations.
func readExtracted(ctx context.Context, opts Options) (extractedObligations, error) {
	if opts.Obligations == nil {
		return extractedObligations{}, nil
	}
	stamps, err := opts.Obligations.ExtractedStamps(ctx)
	return extractedObligations{store: opts.Obligations, stamps: stamps}, err
}

// stamp is the stamp of the extracted obligations c shows: "" when it
// shows none (it has written ones, which are the content's, or the
// store has none).
func (e extractedObligations) stamp(c catalog.Circular) string {
	if len(c.Obligations) > 0 {
		return ""
	}
	return e.stamps[c.ID]
}

// read reads the extracted obligations shown of the circulars of cs
// that have some (stamp).
func (e extractedObligations) read(ctx context.Context, cs []catalog.Circular) (map[string][]catalog.Obligation, error) {
	var ids []string
	for _, c := range cs {
		if e.stamp(c) != "" {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return e.store.ExtractedObligationsOf(ctx, ids)
}

// dated reads the extracted obligations the calendar lists: binding, due
// on or after from (complianceEvents shows them for the circulars without
// written ones only, as shownObligations does).
func (e extractedObligations) dated(ctx context.Context, from catalog.Date) (map[string][]catalog.Obligation, error) {
	if e.store == nil || len(e.stamps) == 0 {
		return nil, nil
	}
	return e.store.DatedExtractedObligations(ctx, from)
}

// shownObligations are the obligations c's page shows: its written
// ones, or else its extracted ones of read (extractedObligations.read).
func shownObligations(c catalog.Circular, read map[string][]catalog.Obligation) []catalog.Obligation {
	if len(c.Obligations) > 0 {
		return c.Obligations
	}
	return slices.Clip(read[c.ID])
}

// extractedBatch is how many circulars' texts are rendered from one read
// of their extracted obligations: at some 30 an extracted circular, a
// batch holds tens of thousands of obligations, not millions.
const extractedBatch = 1024
