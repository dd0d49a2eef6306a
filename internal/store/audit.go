package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"time"

	"regpulse/internal/audit"
)

// The audit trail (issue 44; what a row is and how its chain is checked
// is package audit's). A row is appended in the transaction of the
// change it records, so both commit or neither does: a writer runs its
// SQL inside audited, which appends the row the writer returns. Appends
// to one organisation's chain are serialised (dialect.auditLock; SQLite's
// one writer), and the key (org_id, seq) refuses a fork should anything
// slip past. There is no method to change or remove a row, and triggers
// refuse UPDATE and DELETE (and TRUNCATE on PostgreSQL) on audit_log.

const auditColumns = `id, org_id, seq, actor_id, action, subject_type, subject_id, before_json, after_json, at, request_id, client_addr, prev_hash, hash`

// audited runs change in a transaction, appends the audit row of the
// entry it returns to the entry's organisation's chain, and commits:
// the change and its row are stored together or not at all. change reads
// the before value and writes the after value in tx, so both are what
// the transaction saw. An error from change rolls everything back.
func (s *DB) audited(ctx context.Context, change func(tx *txConn) (audit.Entry, error)) (audit.Row, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return audit.Row{}, err
	}
	defer tx.Rollback()
	e, err := change(tx)
	if err != nil {
		return audit.Row{}, err
	}
	row, err := s.appendAudit(ctx, tx, e)
	if err != nil {
		return audit.Row{}, err
	}
	return row, tx.Commit()
}

// appendAudit appends e's row to its organisation's chain inside tx, the
// transaction of the change it records. A writer that records several
// rows in one transaction (a bulk reassignment: a row per item) begins
// its own and calls appendAudit for each; the rows of one organisation
// follow each other in the order appended. The row's time is taken once the
// chain is this transaction's, so a chain's times never go back (on one
// clock).
func (s *DB) appendAudit(ctx context.Context, tx *txConn, e audit.Entry) (audit.Row, error) {
	if s.db.d.auditLock != "" {
		if _, err := tx.ExecContext(ctx, s.db.d.auditLock, e.OrgID); err != nil {
			return audit.Row{}, err
		}
	}
	head, err := auditHead(ctx, tx, e.OrgID)
	if err != nil {
		return audit.Row{}, err
	}
	row, err := audit.Next(head, e, s.now())
	if err != nil {
		return audit.Row{}, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO audit_log (`+auditColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		auditValues(row)...); err != nil {
		return audit.Row{}, err
	}
	return row, nil
}

func auditValues(r audit.Row) []any {
	return []any{r.ID, r.OrgID, r.Seq, r.ActorID, r.Action, r.SubjectType, r.SubjectID, r.Before, r.After,
		r.At.UTC().Format(audit.TimeLayout), r.RequestID, r.ClientAddr, r.PrevHash, r.Hash}
}

// auditHead is the last row of orgID's chain (audit.Start when empty).
func auditHead(ctx context.Context, q querier, orgID string) (audit.Head, error) {
	var h audit.Head
	err := q.QueryRowContext(ctx, `SELECT seq, hash FROM audit_log WHERE org_id = ? ORDER BY seq DESC LIMIT 1`, orgID).Scan(&h.Seq, &h.Hash)
	if errors.Is(err, sql.ErrNoRows) {
		return audit.Start, nil
	}
	return h, err
}

// AppendAudit appends e's row on its own, for an action that changes
// nothing else in the store (an export made, say). A change of the
// store's rows is recorded by its own method, through audited.
func (s *DB) AppendAudit(ctx context.Context, e audit.Entry) (_ audit.Row, err error) {
	defer wrap(&err, "AppendAudit")
	return s.audited(ctx, func(*txConn) (audit.Entry, error) { return e, nil })
}

// AuditHead is where orgID's chain ends: its last row's number and hash.
func (s *DB) AuditHead(ctx context.Context, orgID string) (_ audit.Head, err error) {
	defer wrap(&err, "AuditHead")
	return auditHead(ctx, s.db, orgID)
}

// AuditOrganisations are the organisations that have audit rows, in
// bytewise order of their ids.
func (s *DB) AuditOrganisations(ctx context.Context) (_ []string, err error) {
	defer wrap(&err, "AuditOrganisations")
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT org_id FROM audit_log ORDER BY org_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// AuditRows streams orgID's rows in sequence order, for audit.Verify and
// exports: one query, read as it goes (a million rows are never held at
// once). Stopping the loop early closes the query. The loop holds a
// connection: an in-memory store has only one, so its body must not call
// the store.
func (s *DB) AuditRows(ctx context.Context, orgID string) iter.Seq2[audit.Row, error] {
	return s.auditRows(ctx, `SELECT `+auditColumns+` FROM audit_log WHERE org_id = ? ORDER BY seq`, orgID)
}

// AuditSubject is orgID's rows about one subject, oldest first.
func (s *DB) AuditSubject(ctx context.Context, orgID, subjectType, subjectID string) (_ []audit.Row, err error) {
	defer wrap(&err, "AuditSubject")
	out := []audit.Row{}
	for r, err := range s.auditRows(ctx, `SELECT `+auditColumns+` FROM audit_log
		WHERE org_id = ? AND subject_type = ? AND subject_id = ? ORDER BY seq`, orgID, subjectType, subjectID) {
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (s *DB) auditRows(ctx context.Context, query string, args ...any) iter.Seq2[audit.Row, error] {
	return func(yield func(audit.Row, error) bool) {
		rows, err := s.db.QueryContext(ctx, query, args...)
		if err != nil {
			yield(audit.Row{}, fmt.Errorf("store: audit rows: %w", err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			var r audit.Row
			var at string
			if err := rows.Scan(&r.ID, &r.OrgID, &r.Seq, &r.ActorID, &r.Action, &r.SubjectType, &r.SubjectID,
				&r.Before, &r.After, &at, &r.RequestID, &r.ClientAddr, &r.PrevHash, &r.Hash); err != nil {
				yield(audit.Row{}, fmt.Errorf("store: audit rows: %w", err))
				return
			}
			if r.At, err = time.Parse(audit.TimeLayout, at); err != nil {
				yield(audit.Row{}, fmt.Errorf("store: audit row %d of organisation %s (id %s): stored time %q: %w", r.Seq, r.OrgID, r.ID, at, err))
				return
			}
			if !yield(r, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(audit.Row{}, fmt.Errorf("store: audit rows: %w", err))
		}
	}
}
