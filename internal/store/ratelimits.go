package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Rate limit counters (migrations 00017): requests per key and fixed
// window, kept in the store so that every instance of the API sharing it
// counts the same requests (api's shared limiter).

// TakeRate counts one request against key in the window starting at
// window, if fewer than allowance are counted there already, in one
// statement: two instances racing for the last request cannot both get
// it (a read followed by a write could). It returns the window's count
// and whether this request was counted. The first request of a window
// forgets key's windows older than the one before it (a sliding-window
// limit reads only the current and the previous one).
func (s *DB) TakeRate(ctx context.Context, key string, window time.Time, allowance int, length time.Duration) (_ int, _ bool, err error) {
	defer wrap(&err, "TakeRate")
	if allowance < 1 {
		return 0, false, nil
	}
	var count int
	err = s.db.QueryRowContext(ctx, `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 WHERE rate_limits.count < ?
RETURNING count`, key, window.Unix(), allowance).Scan(&count)
	if errors.Is(err, sql.ErrNoRows) { // the update's condition failed: full
		return allowance, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if count == 1 {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM rate_limits WHERE key = ? AND window_start < ?`,
			key, window.Add(-length).Unix()); err != nil {
			return 0, false, err
		}
	}
	return count, true, nil
}

// Rate is key's count in the window starting at window (0 if none).
func (s *DB) Rate(ctx context.Context, key string, window time.Time) (_ int, err error) {
	defer wrap(&err, "Rate")
	var n int
	err = s.db.QueryRowContext(ctx, `SELECT count FROM rate_limits WHERE key = ? AND window_start = ?`, key, window.Unix()).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}
