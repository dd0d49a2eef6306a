package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/directions"
	"regpulse/internal/teams"
)

// Reopening decisions (issue 44; the rule is decisions.Reopen's): in
// the catalog sync's transaction, once the catalog's tables are
// written, every decision whose text changed since it was decided (its
// TextVersion) goes back to assessing with what changed, and its
// organisation's audit trail gets a decision.reopen row by the system
// (no actor). The reopened decision's TextVersion is the text's now, so
// a second sync reopens nothing; the search is from the state, not from
// what this sync changed, so a decision written while a sync ran is
// caught by the next one.
//
// The search starts from the subjects' side (the indexes of migration
// 00038): the withdrawn circulars and the decisions decided on a
// withdrawn text for circulars and obligations; for provisions, per
// Master Direction, the decisions on another version than the one in
// force today, compared once per version decided on.

// reopening is a decision the sync reopens: as read, and as it becomes.
type reopening struct {
	before, after decisions.Decision
}

// circularEnd is a circular's lifecycle as its decisions compare it.
type circularEnd struct {
	withdrawnOn string
	withdrawnBy []string
	rulesNowIn  []catalog.RuleHome
}

// reopenDecisions reopens, in tx, the decisions whose text changed, and
// answers how many it reopened.
func (s *DB) reopenDecisions(ctx context.Context, tx *txConn) (int, error) {
	now := s.now().UTC()
	todo, err := circularReopenings(ctx, tx, now)
	if err != nil {
		return 0, fmt.Errorf("circulars: %w", err)
	}
	prov, err := provisionReopenings(ctx, tx, now)
	if err != nil {
		return 0, fmt.Errorf("provisions: %w", err)
	}
	todo = append(todo, prov...)
	slices.SortFunc(todo, func(a, b reopening) int {
		return strings.Compare(a.before.OrganisationID+"\x00"+a.before.Subject.String(), b.before.OrganisationID+"\x00"+b.before.Subject.String())
	})
	// Every row first, then the audit rows: a concurrent write of one
	// decision waits for its row holding no lock of the trail's, so it
	// cannot deadlock with this transaction (PostgreSQL; SQLite has one
	// writer). One changed since it was read is left to the next sync.
	var done []reopening
	for _, r := range todo {
		a := r.after
		js, err := json.Marshal(a.Reopened)
		if err != nil {
			return 0, err
		}
		res, err := tx.ExecContext(ctx, `UPDATE decisions SET status = ?, text_version = ?, version = ?, reopened = ? WHERE `+subjectWhere+` AND version = ?`,
			append([]any{a.Status, a.TextVersion, a.Version, string(js)}, append(subjectArgs(a.OrganisationID, a.Subject), r.before.Version)...)...)
		if err != nil {
			return 0, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, err
		} else if n == 1 {
			done = append(done, r)
		}
	}
	for _, r := range done {
		system := teams.Actor{OrganisationID: r.after.OrganisationID}
		if _, err := s.appendAudit(ctx, tx, auditEntry(system, "decision.reopen", "decision", r.after.Subject.String(), r.before, r.after)); err != nil {
			return 0, err
		}
		if err := s.decisionChanged(ctx, tx, "reopened", &r.before, r.after); err != nil {
			return 0, fmt.Errorf("webhooks: %w", err)
		}
	}
	return len(done), nil
}

// withdrawnCirculars are the ids of the circulars no longer in force
// (from index circulars_withdrawn).
const withdrawnCirculars = "SELECT id FROM circulars WHERE withdrawn_on IS NOT NULL"

// circularReopenings are the decisions on circulars and obligations
// whose circular's withdrawnOn is not the one decided on.
func circularReopenings(ctx context.Context, tx *txConn, now time.Time) ([]reopening, error) {
	cols := decisionColumns("d.") + ", COALESCE(c.withdrawn_on, ''), c.withdrawn_by, c.rules_now_in"
	circ, obl := decisions.SubjectCircular, decisions.SubjectObligation
	queries := []struct {
		sql  string
		args []any
	}{
		// Decided in force, withdrawn since: looked up from the withdrawn
		// circulars (IN a list: SQLite then reads decisions by their key).
		{`SELECT ` + cols + ` FROM decisions d JOIN circulars c ON c.id = d.subject_id
			WHERE d.subject_type = ? AND d.provision = '' AND d.text_version = '' AND d.subject_id IN (` + withdrawnCirculars + `)`, []any{circ}},
		{`SELECT ` + cols + ` FROM decisions d JOIN obligations_shown o ON o.id = d.subject_id JOIN circulars c ON c.id = o.circular_id
			WHERE d.subject_type = ? AND d.provision = '' AND d.text_version = '' AND d.subject_id IN (
				SELECT id FROM circular_obligations WHERE circular_id IN (` + withdrawnCirculars + `)
				UNION ALL SELECT id FROM extracted_obligations WHERE circular_id IN (` + withdrawnCirculars + `))`, []any{obl}},
		// Decided withdrawn, now in force again or from another day.
		{`SELECT ` + cols + ` FROM decisions d JOIN circulars c ON c.id = d.subject_id
			WHERE d.subject_type = ? AND d.text_version <> '' AND d.text_version <> COALESCE(c.withdrawn_on, '')`, []any{circ}},
		{`SELECT ` + cols + ` FROM decisions d JOIN obligations_shown o ON o.id = d.subject_id JOIN circulars c ON c.id = o.circular_id
			WHERE d.subject_type = ? AND d.text_version <> '' AND d.text_version <> COALESCE(c.withdrawn_on, '')`, []any{obl}},
	}
	type found struct {
		d   decisions.Decision
		end circularEnd
	}
	var list []found
	var slugs []string
	for _, q := range queries {
		rows, err := tx.QueryContext(ctx, q.sql, q.args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var f found
			var by, rules string
			if f.d, err = scanDecision(rows, &f.end.withdrawnOn, &by, &rules); err == nil {
				err = json.Unmarshal([]byte(by), &f.end.withdrawnBy)
			}
			if err == nil {
				err = json.Unmarshal([]byte(rules), &f.end.rulesNowIn)
			}
			if err != nil {
				rows.Close()
				return nil, err
			}
			slugs = append(slugs, f.end.withdrawnBy...)
			list = append(list, f)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	refs, err := circularRefs(ctx, tx, "slug", slugs)
	if err != nil {
		return nil, err
	}
	var out []reopening
	for _, f := range list {
		var by []catalog.CircularRef
		for _, s := range f.end.withdrawnBy {
			ref, ok := refs[s]
			if !ok {
				ref = catalog.CircularRef{Slug: s}
			}
			by = append(by, ref)
		}
		r := decisions.CircularReopening(string(f.d.TextVersion), f.end.withdrawnOn, by, f.end.rulesNowIn, now)
		if r != nil {
			out = append(out, reopening{before: f.d, after: f.d.Reopen(*r)})
		}
	}
	return out, nil
}

// provisionReopenings are the decisions on provisions that a version of
// their direction in force since changed.
func provisionReopenings(ctx context.Context, tx *txConn, now time.Time) ([]reopening, error) {
	today := catalog.Date{Time: catalog.Day(now)}
	// The version in force today of each direction decided on: its
	// latest published version's date up to today, else its issue date.
	rows, err := tx.QueryContext(ctx, `SELECT m.slug, COALESCE((SELECT MAX(v.date) FROM direction_versions v WHERE v.direction = m.slug AND v.date <= ?), m.issued_date)
		FROM master_directions m WHERE EXISTS (SELECT 1 FROM decisions d WHERE d.subject_type = ? AND d.subject_id = m.slug)
		ORDER BY m.slug`, today.String(), decisions.SubjectProvision)
	if err != nil {
		return nil, err
	}
	current := map[string]string{}
	var slugs []string
	for rows.Next() {
		var slug, version string
		if err := rows.Scan(&slug, &version); err != nil {
			rows.Close()
			return nil, err
		}
		current[slug] = version
		slugs = append(slugs, slug)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	var out []reopening
	for _, slug := range slugs {
		to := current[slug]
		// The provisions decided on another version, by the version.
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT text_version, provision FROM decisions
			WHERE subject_type = ? AND subject_id = ? AND text_version <> ? ORDER BY text_version, provision`,
			decisions.SubjectProvision, slug, to)
		if err != nil {
			return nil, err
		}
		byVersion := map[string][]string{}
		var versions []string
		for rows.Next() {
			var from, p string
			if err := rows.Scan(&from, &p); err != nil {
				rows.Close()
				return nil, err
			}
			if len(byVersion[from]) == 0 {
				versions = append(versions, from)
			}
			byVersion[from] = append(byVersion[from], p)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		for _, from := range versions {
			day, err := time.Parse(time.DateOnly, from)
			if err != nil {
				continue // no version to compare from (never one the API writes)
			}
			fromDay := catalog.Date{Time: day}
			d, err := directionBetween(ctx, tx, slug, fromDay, today)
			if err != nil {
				return nil, err
			}
			c := directions.Compare(&d, fromDay, today, nil)
			for _, p := range byVersion[from] {
				r := decisions.ProvisionReopening(c, p, from, to, now)
				if r == nil {
					continue
				}
				list, err := decisionsWhere(ctx, tx, "subject_type = ? AND subject_id = ? AND provision = ? AND text_version = ?",
					decisions.SubjectProvision, slug, p, from)
				if err != nil {
					return nil, err
				}
				for _, d := range list {
					out = append(out, reopening{before: d, after: d.Reopen(*r)})
				}
			}
		}
	}
	return out, nil
}

// decisionsWhere are the decisions where selects, in the key's order.
func decisionsWhere(ctx context.Context, q querier, where string, args ...any) ([]decisions.Decision, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+decisionColumns("")+" FROM decisions WHERE "+where+" ORDER BY organisation_id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []decisions.Decision
	for rows.Next() {
		d, err := scanDecision(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
