package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
)

// Users following Master Directions (direction_follows), and what the
// alerts' runs send them: each published version once when it first
// reaches the store (direction_arrivals, written by the sync), one
// delivery per (follow, version) (direction_deliveries), and the e-mails,
// each claimed with its deliveries before it leaves (direction_sends), as
// alert_matches.go and alert_sends.go do for circulars.

// followSelect reads a follow with its direction's label and its user's
// address and language.
const followSelect = `SELECT f.id, f.direction,
	COALESCE(CASE WHEN d.short_title != '' THEN d.short_title ELSE d.title END, ''),
	f.created_at, f.last_sent_at, f.user_id, u.email, u.language
	FROM direction_follows f JOIN users u ON u.id = f.user_id LEFT JOIN master_directions d ON d.slug = f.direction`

func (s *DB) followsWhere(ctx context.Context, where, order string, args ...any) ([]alerts.Follow, error) {
	rows, err := s.db.QueryContext(ctx, followSelect+" WHERE "+where+" ORDER BY "+order, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []alerts.Follow{}
	for rows.Next() {
		var f alerts.Follow
		var created string
		var lastSent sql.NullString
		if err := rows.Scan(&f.ID, &f.Direction, &f.Title, &created, &lastSent, &f.UserID, &f.Email, &f.Language); err != nil {
			return nil, err
		}
		if f.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, err
		}
		if lastSent.Valid {
			t, err := time.Parse(time.RFC3339Nano, lastSent.String)
			if err != nil {
				return nil, err
			}
			f.LastSentAt = &t
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// FollowDirection makes the user follow the direction with slug (again:
// no change) and returns the follow; ErrNotFound when no direction has
// that slug. Only versions reaching the store from now on are sent.
func (s *DB) FollowDirection(ctx context.Context, userID, slug string) (_ alerts.Follow, err error) {
	defer wrap(&err, "FollowDirection")
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM master_directions WHERE slug = ?", slug).Scan(&n); err != nil {
		return alerts.Follow{}, err
	}
	if n == 0 {
		return alerts.Follow{}, ErrNotFound
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO direction_follows (id, user_id, direction, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, direction) DO NOTHING`, uuid.NewString(), userID, slug, timeText(s.now())); err != nil {
		return alerts.Follow{}, err
	}
	fs, err := s.followsWhere(ctx, "f.user_id = ? AND f.direction = ?", "f.id", userID, slug)
	if err != nil {
		return alerts.Follow{}, err
	}
	if len(fs) == 0 { // the user was deleted meanwhile
		return alerts.Follow{}, alerts.ErrNoFollow
	}
	return fs[0], nil
}

// UnfollowDirection stops the user following the direction (and drops
// what waited to be sent); not following it is no error.
func (s *DB) UnfollowDirection(ctx context.Context, userID, slug string) (err error) {
	defer wrap(&err, "UnfollowDirection")
	_, err = s.db.ExecContext(ctx, "DELETE FROM direction_follows WHERE user_id = ? AND direction = ?", userID, slug)
	return err
}

// StopFollow ends the follow with id (an e-mail's unsubscribe link);
// one already ended is no error.
func (s *DB) StopFollow(ctx context.Context, id string) (err error) {
	defer wrap(&err, "StopFollow")
	_, err = s.db.ExecContext(ctx, "DELETE FROM direction_follows WHERE id = ?", id)
	return err
}

// UserFollows returns the directions the user follows, by label.
func (s *DB) UserFollows(ctx context.Context, userID string) (_ []alerts.Follow, err error) {
	defer wrap(&err, "UserFollows")
	return s.followsWhere(ctx, "f.user_id = ?", "3, f.direction", userID)
}

// recordVersionArrivals notes the published versions a sync added that
// never reached the store before (a draft published arrives then).
func recordVersionArrivals(ctx context.Context, tx *txConn, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO direction_arrivals (version_id, arrived_at, matched)
		SELECT v.id, ?, FALSE FROM direction_versions v WHERE NOT EXISTS (SELECT 1 FROM direction_arrivals r WHERE r.version_id = v.id)`, timeText(now))
	return err
}

// MatchFollows makes one delivery per follower of each version that
// arrived (who followed by then) and marks the versions matched, a batch at a time, each in one
// transaction; it answers how many deliveries it made. The batch's
// versions are named, so a version a sync adds meanwhile waits for the
// next batch rather than being marked unseen; a delivery made twice is
// one.
func (s *DB) MatchFollows(ctx context.Context) (_ int, err error) {
	defer wrap(&err, "MatchFollows")
	total := 0
	for {
		n, more, err := s.matchFollowsBatch(ctx)
		total += n
		if err != nil || !more {
			return total, err
		}
	}
}

func (s *DB) matchFollowsBatch(ctx context.Context) (int, bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT version_id FROM direction_arrivals WHERE NOT matched
		ORDER BY arrived_at, version_id LIMIT ?`, batchRows)
	if err != nil {
		return 0, false, err
	}
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, false, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return 0, false, err
	}
	in := placeholders(len(ids))
	// A version that arrived before the follow was made is not news to
	// its follower (a fresh store's first sync brings every version),
	// even when no run had matched it yet. (The times are RFC 3339 text:
	// within one second the order may be taken the wrong way round.)
	res, err := tx.ExecContext(ctx, `INSERT INTO direction_deliveries (follow_id, version_id, matched_at)
		SELECT f.id, v.id, ? FROM direction_arrivals a JOIN direction_versions v ON v.id = a.version_id
		JOIN direction_follows f ON f.direction = v.direction AND f.created_at <= a.arrived_at
		WHERE a.version_id IN (`+in+`) ON CONFLICT DO NOTHING`, append([]any{timeText(s.now())}, ids...)...)
	if err != nil {
		return 0, false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, false, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE direction_arrivals SET matched = TRUE WHERE version_id IN ("+in+")", ids...); err != nil {
		return 0, false, err
	}
	return int(n), len(ids) == batchRows, tx.Commit()
}

// FollowsWaiting returns the follows with versions waiting to be sent,
// but those to a bouncing address.
func (s *DB) FollowsWaiting(ctx context.Context) (_ []alerts.Follow, err error) {
	defer wrap(&err, "FollowsWaiting")
	return s.followsWhere(ctx, `f.id IN (SELECT follow_id FROM direction_deliveries WHERE send_id IS NULL)
		AND NOT EXISTS (SELECT 1 FROM alert_addresses b WHERE b.email_key = u.email_key AND b.bouncing)`, "f.id")
}

// ClaimFollowSend takes every version waiting for the follow into one
// e-mail to email and returns the e-mail's id and the versions, oldest
// first, without their effects (those the catalog lost since left out). An id of "" means
// another sender took them first; a claimed e-mail is never claimed
// again.
func (s *DB) ClaimFollowSend(ctx context.Context, followID, email, messageID string) (_ string, _ []catalog.DirectionVersion, err error) {
	defer wrap(&err, "ClaimFollowSend")
	id, err := s.claimSend(ctx, "UPDATE direction_deliveries SET send_id = ? WHERE follow_id = ? AND send_id IS NULL", followID,
		func(id string, n int64, now string) (string, []any) {
			return `INSERT INTO direction_sends (id, follow_id, email_key, status, message_id, versions, created_at, updated_at)
				VALUES (?, ?, ?, 'sending', ?, ?, ?, ?)`, []any{id, followID, userKey(email), strings.ReplaceAll(messageID, "{send}", id), n, now, now}
		})
	if err != nil || id == "" {
		return "", nil, err
	}
	// Without their effects: the run reads the direction whole once for
	// all its followers (DirectionBetween).
	vs, err := scanAll(ctx, s.db, versionColumns, `SELECT `+versionColumns.selectList("v", map[string]string{"effects": "'[]'"})+` FROM direction_versions v
		JOIN direction_deliveries dd ON dd.version_id = v.id WHERE dd.send_id = ? ORDER BY v.date, v.id`, id)
	return id, vs, err
}

// FinishFollowSend records how the e-mail ended: sent (failure ""), or
// failed, giving its versions back to a later run; the address's
// refusals are counted as FinishSend counts them.
func (s *DB) FinishFollowSend(ctx context.Context, sendID, email, failure string, permanent bool) (err error) {
	defer wrap(&err, "FinishFollowSend")
	return s.finishSend(ctx, "direction_sends", "direction_deliveries", func(now string) (string, []any) {
		return "UPDATE direction_follows SET last_sent_at = ? WHERE id = (SELECT follow_id FROM direction_sends WHERE id = ?)", []any{now, sendID}
	}, sendID, email, failure, permanent)
}
