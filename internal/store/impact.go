package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// ImpactRecord is the impact tracking record of one entity type (SPEC.md
// section 3): its compliance score and how many circulars hit it how hard.
type ImpactRecord struct {
	ID                                                 string
	CircularID                                         string // the newest circular naming the entity type; "" if none
	EntityType                                         string
	ComplianceScore                                    int // 0-100
	HighImpactCount, MediumImpactCount, LowImpactCount int
	UpdatedAt                                          time.Time
}

// The compliance score is impact.Score over the circulars of impact.Window
// as of the sync: a score that has not been set explicitly is recomputed at
// every sync (SetComplianceScore pins one). An entity type with no circular
// in the window scores 100, which is also the default the migration seeds.

// ImpactTracking returns one record per entity type, in the order PSP,
// Issuer, Aggregator (then any other type by first appearance).
func (s *DB) ImpactTracking(ctx context.Context) ([]ImpactRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT cs.id, cs.entity_type, cs.score, cs.updated_at,
	(SELECT COUNT(*) FROM circular_entity_impact e WHERE e.entity_type = cs.entity_type AND e.impact_level = 'high'),
	(SELECT COUNT(*) FROM circular_entity_impact e WHERE e.entity_type = cs.entity_type AND e.impact_level = 'medium'),
	(SELECT COUNT(*) FROM circular_entity_impact e WHERE e.entity_type = cs.entity_type AND e.impact_level = 'low'),
	(SELECT c.id FROM circular_entity_impact e JOIN circulars c ON c.id = e.circular_id
	  WHERE e.entity_type = cs.entity_type ORDER BY c.published_date DESC, c.slug LIMIT 1)
FROM compliance_scores cs ORDER BY cs.position, cs.entity_type`)
	if err != nil {
		return nil, fmt.Errorf("store: ImpactTracking: %w", err)
	}
	defer rows.Close()
	list := []ImpactRecord{}
	for rows.Next() {
		var r ImpactRecord
		var updated string
		var circular sql.NullString
		if err := rows.Scan(&r.ID, &r.EntityType, &r.ComplianceScore, &updated,
			&r.HighImpactCount, &r.MediumImpactCount, &r.LowImpactCount, &circular); err != nil {
			return nil, fmt.Errorf("store: ImpactTracking: %w", err)
		}
		r.CircularID = circular.String
		if r.UpdatedAt, err = parseTime(updated); err != nil {
			return nil, fmt.Errorf("store: ImpactTracking: %w", err)
		}
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: ImpactTracking: %w", err)
	}
	return list, nil
}

// SetComplianceScore sets an entity type's score explicitly; syncs keep it
// from then on instead of applying the rule.
func (s *DB) SetComplianceScore(ctx context.Context, entityType string, score int) error {
	if score < 0 || score > 100 {
		return fmt.Errorf("store: SetComplianceScore: score %d outside 0-100", score)
	}
	if entityType == "" {
		return fmt.Errorf("store: SetComplianceScore: empty entity type")
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO compliance_scores (id, entity_type, position, score, origin, updated_at)
VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM compliance_scores), ?, 'set', ?)
ON CONFLICT (entity_type) DO UPDATE SET score = excluded.score, origin = 'set', updated_at = excluded.updated_at`,
		uuid.NewString(), entityType, score, timeText(s.now()))
	if err != nil {
		return fmt.Errorf("store: SetComplianceScore: %w", err)
	}
	return nil
}

// refreshComplianceScores runs in a sync's transaction: it makes sure every
// entity type of catalog.EntityTypes has a record, gives every score not set
// explicitly the rule's value as of now, and stamps updated_at on records
// whose score changed, or on all when circularsChanged (their counts may
// have). It returns how many scores got a new value.
func refreshComplianceScores(ctx context.Context, tx *sql.Tx, now time.Time, circularsChanged bool) (int, error) {
	stamp := timeText(now)
	for i, t := range catalog.EntityTypes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO compliance_scores (id, entity_type, position, score, origin, updated_at)
VALUES (?, ?, ?, 100, 'default', ?) ON CONFLICT (entity_type) DO NOTHING`, uuid.NewString(), t, i, stamp); err != nil {
			return 0, err
		}
	}
	first, last := impact.Window(now)
	from, to := dateText(first), dateText(last)
	rows, err := tx.QueryContext(ctx, `SELECT cs.entity_type, cs.score, cs.origin,
	(SELECT COUNT(*) FROM circular_entity_impact e JOIN circulars c ON c.id = e.circular_id
	  WHERE e.entity_type = cs.entity_type AND e.impact_level = 'high' AND c.published_date BETWEEN ? AND ?),
	(SELECT COUNT(*) FROM circular_entity_impact e JOIN circulars c ON c.id = e.circular_id
	  WHERE e.entity_type = cs.entity_type AND e.impact_level = 'medium' AND c.published_date BETWEEN ? AND ?)
FROM compliance_scores cs`, from, to, from, to)
	if err != nil {
		return 0, err
	}
	type update struct {
		entityType string
		old, score int
	}
	var updates []update
	for rows.Next() {
		var u update
		var score, high, medium int
		var origin string
		if err := rows.Scan(&u.entityType, &score, &origin, &high, &medium); err != nil {
			rows.Close()
			return 0, err
		}
		u.old, u.score = score, score
		if origin != "set" {
			u.score = impact.Score(high, medium)
		}
		if u.score != score || origin == "default" {
			updates = append(updates, u)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	changed := 0
	for _, u := range updates {
		if _, err := tx.ExecContext(ctx, `UPDATE compliance_scores SET score = ?, origin = 'rule', updated_at = ?
WHERE entity_type = ?`, u.score, stamp, u.entityType); err != nil {
			return 0, err
		}
		if u.score != u.old {
			changed++
		}
	}
	if circularsChanged {
		if _, err := tx.ExecContext(ctx, `UPDATE compliance_scores SET updated_at = ?`, stamp); err != nil {
			return 0, err
		}
	}
	return changed, nil
}
