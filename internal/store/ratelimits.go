package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Rate limit counters (migrations 00017): requests per key and fixed
// window, kept in the store so that every instance of the API sharing it
// counts the same requests (api's store-backed httprate.LimitCounter).

// AddRate adds n to key's count in the window starting at window, and
// forgets key's windows older than the one before it (a sliding-window
// limit reads only the current and the previous one).
func (s *DB) AddRate(ctx context.Context, key string, window time.Time, n int, length time.Duration) (err error) {
	defer wrap(&err, "AddRate")
	w := window.Unix()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)
ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + excluded.count`, key, w, n); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM rate_limits WHERE key = ? AND window_start < ?`,
		key, window.Add(-length).Unix()); err != nil {
		return err
	}
	return nil
}

// Rates are key's counts in the windows starting at current and previous.
func (s *DB) Rates(ctx context.Context, key string, current, previous time.Time) (_ int, _ int, err error) {
	defer wrap(&err, "Rates")
	var cur, prev int
	for _, c := range []struct {
		at  time.Time
		out *int
	}{{current, &cur}, {previous, &prev}} {
		err := s.db.QueryRowContext(ctx, `SELECT count FROM rate_limits WHERE key = ? AND window_start = ?`, key, c.at.Unix()).Scan(c.out)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, 0, err
		}
	}
	return cur, prev, nil
}
