package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"regpulse/internal/decisions"
	"regpulse/internal/inspection"
	"regpulse/internal/teams"
)

// The inspection export's read (package inspection, issue 44): an
// organisation's whole register in six queries whatever its size (the
// organisation, its decisions with their subjects' titles, all their
// comments, all their evidence without the files' bytes, its audit
// trail, the people they name), each read in one pass in the order of
// an index, so 10,000 items cost no more round trips than ten
// (BenchmarkExportRegister). Comments and evidence are joined to their
// items in Go, by subject. (export.go is the catalog's bulk download.)

// registerTitle is a decision's subject's title as the catalog has it
// now: a circular's title, an obligation's text, a provision's
// direction's title; NULL for a subject the catalog no longer has.
const registerTitle = `CASE d.subject_type
	WHEN 'circular' THEN (SELECT c.title FROM circulars c WHERE c.id = d.subject_id)
	WHEN 'obligation' THEN (SELECT o.what FROM obligations_shown o WHERE o.id = d.subject_id)
	WHEN 'provision' THEN (SELECT m.title FROM master_directions m WHERE m.slug = d.subject_id)
	END`

// subjectOrder is the register's order: the decisions' primary key, so
// no sort; comments and evidence follow it, oldest first within an item
// (their subject indexes).
const subjectOrder = "subject_type, subject_id, provision"

// InspectionRegister reads organisation orgID's register for an
// inspection export: every decision with its title, comments and
// evidence (metadata and SHA-256, not the bytes), its whole audit trail
// in order, and the people they name. teams.ErrNoOrganisation when
// there is no such organisation. The caller decides who may read it.
func (s *DB) InspectionRegister(ctx context.Context, orgID string) (_ inspection.Register, err error) {
	defer wrap(&err, "InspectionRegister")
	var r inspection.Register
	var kinds, created string
	err = s.db.QueryRowContext(ctx, "SELECT id, name, entity_types, created_at FROM organisations WHERE id = ?", orgID).
		Scan(&r.Organisation.ID, &r.Organisation.Name, &kinds, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return r, teams.ErrNoOrganisation
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(kinds), &r.Organisation.EntityTypes); err != nil {
		return r, err
	}
	if r.Organisation.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return r, err
	}
	if err := s.registerItems(ctx, &r); err != nil {
		return r, err
	}
	index := make(map[decisions.Subject]int, len(r.Items))
	for i, it := range r.Items {
		index[it.Subject] = i
	}
	if err := s.registerComments(ctx, &r, index); err != nil {
		return r, err
	}
	if err := s.registerEvidence(ctx, &r, index); err != nil {
		return r, err
	}
	for row, err := range s.AuditRows(ctx, orgID) {
		if err != nil {
			return r, err
		}
		r.Trail = append(r.Trail, row)
	}
	r.People, err = s.registerPeople(ctx, orgID)
	return r, err
}

func (s *DB) registerItems(ctx context.Context, r *inspection.Register) error {
	rows, err := s.db.QueryContext(ctx, "SELECT "+decisionColumns("d.")+", COALESCE("+registerTitle+", '') FROM decisions d WHERE d.organisation_id = ? ORDER BY "+
		"d.subject_type, d.subject_id, d.provision", r.Organisation.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	r.Items = []inspection.Item{}
	for rows.Next() {
		var it inspection.Item
		if it.Decision, err = scanDecision(rows, &it.Title); err != nil {
			return err
		}
		r.Items = append(r.Items, it)
	}
	return rows.Err()
}

func (s *DB) registerComments(ctx context.Context, r *inspection.Register, index map[decisions.Subject]int) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, subject_type, subject_id, provision, COALESCE(author_id, ''), body, mentions, created_at
		FROM decision_comments WHERE organisation_id = ? ORDER BY `+subjectOrder+`, created_at, id`, r.Organisation.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		c := decisions.Comment{OrganisationID: r.Organisation.ID}
		var ids, created string
		if err := rows.Scan(&c.ID, &c.Type, &c.Subject.ID, &c.Provision, &c.AuthorID, &c.Body, &ids, &created); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(ids), &c.Mentions); err != nil {
			return err
		}
		if c.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return err
		}
		if i, ok := index[c.Subject]; ok { // a comment's decision is there: the foreign key
			r.Items[i].Comments = append(r.Items[i].Comments, c)
		}
	}
	return rows.Err()
}

func (s *DB) registerEvidence(ctx context.Context, r *inspection.Register, index map[decisions.Subject]int) error {
	rows, err := s.db.QueryContext(ctx, "SELECT "+evidenceColumns+" FROM decision_evidence WHERE organisation_id = ? ORDER BY "+
		subjectOrder+", added_at, id", r.Organisation.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEvidence(rows)
		if err != nil {
			return err
		}
		if i, ok := index[e.Subject]; ok {
			r.Items[i].Evidence = append(r.Items[i].Evidence, e)
		}
	}
	return rows.Err()
}

// registerPeople are the users an organisation's register names: its
// members, past ones too through the trail's actors, and the owners,
// deciders, authors and reviewers of its items.
func (s *DB) registerPeople(ctx context.Context, orgID string) (map[string]inspection.Person, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, username, first_name, last_name FROM users WHERE id IN (
		SELECT user_id FROM organisation_members WHERE organisation_id = ?
		UNION SELECT actor_id FROM audit_log WHERE org_id = ?
		UNION SELECT owner_id FROM decisions WHERE organisation_id = ?
		UNION SELECT decided_by FROM decisions WHERE organisation_id = ?
		UNION SELECT author_id FROM decision_comments WHERE organisation_id = ?
		UNION SELECT added_by FROM decision_evidence WHERE organisation_id = ?
		UNION SELECT reviewed_by FROM decision_evidence WHERE organisation_id = ?)`,
		orgID, orgID, orgID, orgID, orgID, orgID, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]inspection.Person{}
	for rows.Next() {
		var id, first, last string
		var p inspection.Person
		if err := rows.Scan(&id, &p.Username, &first, &last); err != nil {
			return nil, err
		}
		p.Name = first
		if last != "" {
			p.Name += " " + last
		}
		out[id] = p
	}
	return out, rows.Err()
}

// RecordExport appends the audit row of an export made by by (entry:
// inspection.Entry) on its own: an export changes nothing else, and the
// row is written before the file is sent.
func (s *DB) RecordExport(ctx context.Context, by teams.Actor, format string, r inspection.Register, h inspection.Hashed) (err error) {
	defer wrap(&err, "RecordExport")
	_, err = s.AppendAudit(ctx, inspection.Entry(by, format, r, h))
	return err
}
