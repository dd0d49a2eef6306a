package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
)

// The AI layer's proposed obligations: extracted_obligations, and
// obligation_extractions (one row per circular extracted, obligations
// found or not). A refresh (internal/obligations) reads and writes them;
// an editor accepts them.

// ExtractedStates returns, by circular id, the state of each circular
// extracted (found obligations or not).
func (s *DB) ExtractedStates(ctx context.Context) (_ map[string]obligations.ExtractedState, err error) {
	defer wrap(&err, "ExtractedStates")
	rows, err := s.db.QueryContext(ctx, `SELECT x.circular_id, x.input_hash,
		EXISTS (SELECT 1 FROM extracted_obligations e WHERE e.circular_id = x.circular_id AND e.accepted = TRUE)
		FROM obligation_extractions x`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]obligations.ExtractedState{}
	for rows.Next() {
		var id string
		var st obligations.ExtractedState
		if err := rows.Scan(&id, &st.InputHash, &st.Accepted); err != nil {
			return nil, err
		}
		prev := out[id]
		out[id] = obligations.ExtractedState{InputHash: st.InputHash, Accepted: prev.Accepted || st.Accepted}
	}
	return out, rows.Err()
}

// PutExtractedObligations replaces the extracted obligations of circular
// circularID with obs, made from an input of hash inputHash. It refuses
// (ErrAccepted) to replace obligations an editor accepted.
func (s *DB) PutExtractedObligations(ctx context.Context, circularID, inputHash string, obs []catalog.Obligation) (err error) {
	defer wrap(&err, "PutExtractedObligations")
	skipped, err := s.putExtracted(ctx, []obligations.ExtractedSet{{CircularID: circularID, InputHash: inputHash, Obligations: obs}})
	if err == nil && len(skipped) > 0 {
		err = ErrAccepted
	}
	return err
}

// PutExtractedSets is PutExtractedObligations for many circulars in one
// transaction (a refresh writes thousands); it leaves alone, and returns,
// the circulars whose obligations an editor accepted.
func (s *DB) PutExtractedSets(ctx context.Context, sets []obligations.ExtractedSet) (accepted []string, err error) {
	defer wrap(&err, "PutExtractedSets")
	return s.putExtracted(ctx, sets)
}

func (s *DB) putExtracted(ctx context.Context, sets []obligations.ExtractedSet) ([]string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st := newTxStmts(tx)
	defer st.close()
	cols := slices.Concat(obligationColumns.names, []string{"input_hash", "extracted_at"})
	rows := st.batch(func(n int) string { return insertRowsSQL("extracted_obligations", cols, n) }, len(cols))
	at, _ := timeColumn(s.now()).Value()
	var skipped []string
	for _, set := range sets {
		row, err := st.queryRow(ctx, `SELECT COUNT(*) FROM extracted_obligations WHERE circular_id = ? AND accepted = TRUE`, set.CircularID)
		if err != nil {
			return nil, err
		}
		var accepted int
		if err := row.Scan(&accepted); err != nil {
			return nil, err
		}
		if accepted > 0 {
			skipped = append(skipped, set.CircularID)
			continue
		}
		if err := rows.flush(ctx); err != nil { // the rows of earlier sets, before this one's delete
			return nil, err
		}
		if err := st.exec(ctx, `DELETE FROM extracted_obligations WHERE circular_id = ?`, set.CircularID); err != nil {
			return nil, err
		}
		if err := st.exec(ctx, `INSERT INTO obligation_extractions (circular_id, input_hash, extracted_at, version) VALUES (?, ?, ?, 1)
			ON CONFLICT (circular_id) DO UPDATE SET input_hash = excluded.input_hash, extracted_at = excluded.extracted_at,
			version = obligation_extractions.version + 1`, set.CircularID, set.InputHash, at); err != nil {
			return nil, err
		}
		for _, o := range set.Obligations {
			if o.CircularID != set.CircularID || o.Origin != catalog.OriginExtracted {
				return nil, fmt.Errorf("obligation %s: of circular %s, origin %q: want an extracted one of %s", o.ID, o.CircularID, o.Origin, set.CircularID)
			}
			vals, err := obligationColumns.values(o)
			if err != nil {
				return nil, err
			}
			if err := rows.add(ctx, append(vals, set.InputHash, at)...); err != nil {
				return nil, err
			}
		}
	}
	if err := rows.flush(ctx); err != nil {
		return nil, err
	}
	return skipped, tx.Commit()
}

// ErrAccepted is a change refused because an editor accepted the
// obligations it would replace.
var ErrAccepted = errors.New("the extracted obligations were accepted by an editor")

// AcceptObligations marks the extracted obligations of the circular
// whose id or slug is circular as accepted by an editor, and returns how
// many it marked (catalog.ErrNotFound for an unknown circular).
func (s *DB) AcceptObligations(ctx context.Context, circular string) (_ int, err error) {
	defer wrap(&err, "AcceptObligations")
	var id string
	err = s.db.QueryRowContext(ctx, `SELECT id FROM circulars WHERE id = ? OR slug = ?`, circular, circular).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, catalog.ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE extracted_obligations SET accepted = TRUE WHERE circular_id = ? AND accepted = FALSE`, id)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return 0, err
	}
	// the page shows them accepted: a new stamp (ExtractedStamps)
	if _, err := tx.ExecContext(ctx, `UPDATE obligation_extractions SET version = version + 1 WHERE circular_id = ?`, id); err != nil {
		return 0, err
	}
	return int(n), tx.Commit()
}

// ExtractedStamps returns, by circular id, a stamp of the extracted
// obligations of each circular extracted: it changes whenever they or
// whether they are shown (the store holds the circular, which has none
// written) change. A site
// build hashes these, and reads the obligations themselves only for the
// pages it renders (ExtractedObligationsOf): at 100,000 circulars the
// extraction stores millions. (One scan of the extractions and the few
// circulars with written ones: a test of both per circular took 0.7 s.)
func (s *DB) ExtractedStamps(ctx context.Context) (_ map[string]string, err error) {
	defer wrap(&err, "ExtractedStamps")
	written := map[string]bool{}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT circular_id FROM circular_obligations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		written[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// (whether the store holds the circular too: the view shows the
	// obligations of those it holds, and a circular removed from content
	// keeps its extraction, shown again once it is back)
	rows, err = s.db.QueryContext(ctx, `SELECT x.circular_id, x.input_hash, x.extracted_at, x.version, c.id IS NOT NULL
		FROM obligation_extractions x LEFT JOIN circulars c ON c.id = x.circular_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, hash, at string
		var version int64
		var held bool
		if err := rows.Scan(&id, &hash, &at, &version, &held); err != nil {
			return nil, err
		}
		out[id] = fmt.Sprintf("%s %s %d %t %t", hash, at, version, written[id], held)
	}
	return out, rows.Err()
}

// ExtractedObligationsOf returns the extracted obligations shown of the
// circulars ids (those with none written), by circular id, each
// circular's in order.
func (s *DB) ExtractedObligationsOf(ctx context.Context, ids []string) (_ map[string][]catalog.Obligation, err error) {
	defer wrap(&err, "ExtractedObligationsOf")
	out := map[string][]catalog.Obligation{}
	for part := range slices.Chunk(ids, batchParams) {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		err := s.eachObligation(ctx, "SELECT "+obligationColumns.selectList("o", nil)+" FROM obligations_shown o WHERE o.origin = ? AND o.circular_id IN ("+
			placeholders(len(part))+") ORDER BY o.circular_id, o.position", append([]any{catalog.OriginExtracted}, args...),
			func(o catalog.Obligation) error { out[o.CircularID] = append(out[o.CircularID], o); return nil })
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DatedExtractedObligations returns the binding extracted obligations
// shown that are due on or after from, by circular id, each circular's
// in order: what the compliance calendar lists of them.
func (s *DB) DatedExtractedObligations(ctx context.Context, from catalog.Date) (_ map[string][]catalog.Obligation, err error) {
	defer wrap(&err, "DatedExtractedObligations")
	out := map[string][]catalog.Obligation{}
	// (ordered here: ordered by circular, SQLite read the view in the
	// order of the circulars' index, every obligation, not the few dated
	// ones of extracted_obligations_due: 3 s at 3 million)
	err = s.eachObligation(ctx, "SELECT "+obligationColumns.selectList("o", nil)+` FROM obligations_shown o
		WHERE o.origin = ? AND o.binding = TRUE AND o.due_date >= ?`,
		[]any{catalog.OriginExtracted, from.String()},
		func(o catalog.Obligation) error { out[o.CircularID] = append(out[o.CircularID], o); return nil })
	for _, obs := range out {
		slices.SortFunc(obs, func(a, b catalog.Obligation) int { return cmp.Compare(a.Position, b.Position) })
	}
	return out, err
}
