// Package obligations keeps the AI layer's proposed obligations in the
// store: for each circular without obligations written by its editors,
// the ones extracted from its present text (ai.Service's
// ExtractObligations), extracted again only when the circular changed,
// and never over what an editor accepted.
package obligations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
)

// Store is what Refresh needs of a store (*store.DB).
type Store interface {
	ExtractedStates(ctx context.Context) (map[string]ExtractedState, error)
	PutExtractedSets(ctx context.Context, sets []ExtractedSet) (accepted []string, err error)
}

// ExtractedState is what a store holds of a circular's extracted
// obligations: the hash of the input they were made from, and whether an
// editor accepted them.
type ExtractedState struct {
	InputHash string
	Accepted  bool
}

// ExtractedSet is one circular's extracted obligations and the hash of
// the input they were made from.
type ExtractedSet struct {
	CircularID, InputHash string
	Obligations           []catalog.Obligation
}

// batch is how many circulars' obligations are written in one
// transaction.
const batch = 200

// Extractor proposes a circular's obligations (*ai.Service).
type Extractor interface {
	ExtractObligations(ctx context.Context, req ai.ObligationRequest) ([]catalog.Obligation, error)
}

// Stats says what a refresh did.
type Stats struct {
	Extracted int `json:"extracted"` // circulars whose obligations were extracted (again)
	Unchanged int `json:"unchanged"` // circulars whose stored ones were made from the same input
	Accepted  int `json:"accepted"`  // circulars whose extracted ones an editor accepted
	Written   int `json:"written"`   // circulars whose editors wrote theirs
	// Obligations is how many the extracted circulars got in all.
	Obligations int `json:"obligations"`
}

func (s Stats) String() string {
	return fmt.Sprintf("%d circulars extracted (%d obligations), %d unchanged, %d accepted by an editor, %d with written obligations",
		s.Extracted, s.Obligations, s.Unchanged, s.Accepted, s.Written)
}

// InputHash is the hash of what a circular's obligations are extracted
// from: its text, its document type (binding) and the entity types its
// editors rated (the parties when a sentence names none).
func InputHash(c catalog.Circular) string {
	b, _ := json.Marshal([]any{c.Content, c.DocumentType, c.EntityImpact, c.Title})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16])
}

// Refresh extracts the obligations of every circular of cs that has none
// written, unless its stored ones were made from the same input (all of
// them again when force is set) or an editor accepted them. A circular
// that fails is logged and skipped; only the context's end stops it.
func Refresh(ctx context.Context, st Store, ex Extractor, cs []catalog.Circular, force bool, log *slog.Logger) (Stats, error) {
	return refresh(ctx, st, ex, cs, force, log, func(int) {})
}

// refresh is Refresh telling progress how many circulars of cs it has
// read, as it goes.
func refresh(ctx context.Context, st Store, ex Extractor, cs []catalog.Circular, force bool, log *slog.Logger, progress func(done int)) (Stats, error) {
	var stats Stats
	states, err := st.ExtractedStates(ctx)
	if err != nil {
		return stats, err
	}
	var sets []ExtractedSet
	write := func() error {
		accepted, err := st.PutExtractedSets(ctx, sets)
		if err != nil {
			return err
		}
		stats.Accepted += len(accepted)
		stats.Extracted += len(sets) - len(accepted)
		for _, set := range sets {
			if !slices.Contains(accepted, set.CircularID) {
				stats.Obligations += len(set.Obligations)
			}
		}
		sets = sets[:0]
		return nil
	}
	for i, c := range cs {
		if i%batch == 0 {
			progress(i)
		}
		if len(c.Obligations) > 0 {
			stats.Written++
			continue
		}
		state, stored := states[c.ID]
		hash := InputHash(c)
		switch {
		case state.Accepted:
			stats.Accepted++
			continue
		case stored && state.InputHash == hash && !force:
			stats.Unchanged++
			continue
		}
		obs, err := ex.ExtractObligations(ctx, ai.ObligationRequest{Circular: c})
		if ctx.Err() != nil {
			return stats, ctx.Err()
		}
		if err != nil {
			log.Warn("obligations: extraction failed", "circular", c.Slug, "err", err)
			continue
		}
		sets = append(sets, ExtractedSet{CircularID: c.ID, InputHash: hash, Obligations: obs})
		if len(sets) == batch {
			if err := write(); err != nil {
				return stats, err
			}
		}
	}
	if len(sets) > 0 {
		if err := write(); err != nil {
			return stats, err
		}
	}
	progress(len(cs))
	return stats, nil
}
