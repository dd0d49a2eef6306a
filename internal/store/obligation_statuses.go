package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/register"
)

// The statuses a user sets on the obligations of their register
// (obligation_statuses, one row per user and obligation) and every change
// of them (obligation_status_history).

// SetObligationStatus sets the status and note of obligation id in the
// user's register and records the change in its history, in one
// transaction (catalog.ErrNotFound when the register does not hold it).
func (s *DB) SetObligationStatus(ctx context.Context, userID, id string, types []string, status, note string) (_ register.Item, err error) {
	defer wrap(&err, "SetObligationStatus")
	if !slices.Contains(register.Statuses, status) {
		return register.Item{}, fmt.Errorf("unknown status %q", status)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return register.Item{}, err
	}
	defer tx.Rollback()
	now := s.now().UTC().Truncate(time.Second)
	if _, err := registerItem(ctx, tx, userRegister(userID), id, types, now); err != nil {
		return register.Item{}, err
	}
	if err := setStatus(ctx, tx, userID, id, status, note, now); err != nil {
		return register.Item{}, err
	}
	it, err := registerItem(ctx, tx, userRegister(userID), id, types, now)
	if err != nil {
		return register.Item{}, err
	}
	return it, tx.Commit()
}

// ConfirmInForce marks done, with note, every obligation of the user's
// register that was in force before it began tracking (register's
// GroupInForce) and is neither done nor not applicable, recording each
// change in its history, in one transaction; it returns how many it
// confirmed. A second call confirms nothing more: once is enough.
func (s *DB) ConfirmInForce(ctx context.Context, userID string, types []string, note string) (n int, err error) {
	defer wrap(&err, "ConfirmInForce")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	now := s.now().UTC().Truncate(time.Second)
	src := userRegister(userID)
	w := registerWhere(src, types, now)
	w.group(register.GroupInForce, now)
	w.add(src.status+" NOT IN (?, ?)", register.StatusDone, register.StatusNotApplicable)
	rows, err := tx.QueryContext(ctx, "SELECT o.id FROM "+src.from+w.sql()+" ORDER BY o.id", w.args...)
	if err != nil {
		return 0, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		// Nothing to confirm, or no such user (the register's join of its
		// row finds nothing either way): say which.
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM users WHERE id = ?", userID).Scan(&n); err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, catalog.ErrNotFound
		}
	}
	for _, id := range ids {
		if err := setStatus(ctx, tx, userID, id, register.StatusDone, note, now); err != nil {
			return 0, err
		}
	}
	return len(ids), tx.Commit()
}

// setStatus sets the status and note of obligation id for the user and
// records the change in its history, at time at, in tx.
func setStatus(ctx context.Context, tx *txConn, userID, id, status, note string, at time.Time) error {
	v, _ := timeColumn(at).Value()
	if _, err := tx.ExecContext(ctx, upsertKeySQL("obligation_statuses", []string{"user_id", "obligation_id", "status", "note", "updated_at"}, 2),
		userID, id, status, note, v); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO obligation_status_history (user_id, obligation_id, status, note, changed_at) VALUES (?, ?, ?, ?, ?)`,
		userID, id, status, note, v)
	return err
}

// ObligationHistory returns the user's status changes of obligation id,
// oldest first (catalog.ErrNotFound when the register does not hold it).
func (s *DB) ObligationHistory(ctx context.Context, userID, id string, types []string) (_ []register.Change, err error) {
	defer wrap(&err, "ObligationHistory")
	if _, err := registerItem(ctx, s.db, userRegister(userID), id, types, s.now()); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT status, note, changed_at FROM obligation_status_history
		WHERE user_id = ? AND obligation_id = ? ORDER BY id`, userID, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []register.Change{}
	for rows.Next() {
		var c register.Change
		if err := rows.Scan(&c.Status, &c.Note, (*timeColumn)(&c.ChangedAt)); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
