package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/teams"
)

// Evidence (decisions.Evidence, issue 44): files and links attached to
// an organisation's decision, and their review. A file's bytes are kept
// in decision_evidence_files (migration 00034 says why a BLOB), read
// only by EvidenceFile. Every change runs in one transaction with its
// row of the organisation's audit trail.

const evidenceColumns = `id, organisation_id, subject_type, subject_id, provision, kind, name, size, sha256, media_type, client_type,
	link, note, COALESCE(added_by, ''), added_at, state, COALESCE(reviewed_by, ''), reviewed_at, review_note`

func scanEvidence(row interface{ Scan(...any) error }) (decisions.Evidence, error) {
	var e decisions.Evidence
	var added string
	var reviewed sql.NullString
	err := row.Scan(&e.ID, &e.OrganisationID, &e.Type, &e.Subject.ID, &e.Provision, &e.Kind, &e.Name, &e.Size, &e.SHA256, &e.MediaType,
		&e.ClientType, &e.Link, &e.Note, &e.AddedBy, &added, &e.State, &e.ReviewedBy, &reviewed, &e.ReviewNote)
	if errors.Is(err, sql.ErrNoRows) {
		return e, decisions.ErrNoEvidence
	}
	if err != nil {
		return e, err
	}
	if e.AddedAt, err = time.Parse(time.RFC3339Nano, added); err != nil {
		return e, err
	}
	e.ReviewedAt, err = nullTime(reviewed)
	return e, err
}

// AddEvidence attaches e (a file, its bytes data, or a link) to by's
// organisation's decision on subject (decisions.ErrNoDecision when
// there is none), pending review, added by by now. The answer is as
// stored, with its id.
func (s *DB) AddEvidence(ctx context.Context, by teams.Actor, subject decisions.Subject, e decisions.Evidence, data []byte) (_ decisions.Evidence, err error) {
	defer wrap(&err, "AddEvidence")
	if e.Kind == decisions.EvidenceFile && int64(len(data)) != e.Size {
		return e, errors.New("the file's size is not its bytes'")
	}
	e.ID, e.OrganisationID, e.Subject, e.AddedBy, e.AddedAt = uuid.NewString(), by.OrganisationID, subject, catalog.OptString(by.UserID), s.now().UTC()
	e.State, e.ReviewedBy, e.ReviewedAt, e.ReviewNote = decisions.EvidencePending, "", nil, ""
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return e, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM decisions WHERE "+subjectWhere, subjectArgs(by.OrganisationID, subject)...).Scan(&n); err != nil {
		return e, err
	}
	if n == 0 {
		return e, decisions.ErrNoDecision
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO decision_evidence (id, organisation_id, subject_type, subject_id, provision, kind, name, size,
		sha256, media_type, client_type, link, note, added_by, added_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.OrganisationID, subject.Type, subject.ID, subject.Provision, e.Kind, e.Name, e.Size, e.SHA256, e.MediaType, e.ClientType,
		e.Link, e.Note, nullText(string(e.AddedBy)), timeText(e.AddedAt), e.State); err != nil {
		return e, err
	}
	if e.Kind == decisions.EvidenceFile {
		if _, err := tx.ExecContext(ctx, "INSERT INTO decision_evidence_files (evidence_id, data) VALUES (?, ?)", e.ID, data); err != nil {
			return e, err
		}
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "evidence.add", "evidence", e.ID, nil, e)); err != nil {
		return e, err
	}
	return e, tx.Commit()
}

// EvidenceList is the evidence on organisation orgID's decision on
// subject, oldest first; decisions.ErrNoDecision when there is none.
func (s *DB) EvidenceList(ctx context.Context, orgID string, subject decisions.Subject) (_ []decisions.Evidence, err error) {
	defer wrap(&err, "EvidenceList")
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM decisions WHERE "+subjectWhere, subjectArgs(orgID, subject)...).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, decisions.ErrNoDecision
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+evidenceColumns+" FROM decision_evidence WHERE "+subjectWhere+" ORDER BY added_at, id",
		subjectArgs(orgID, subject)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []decisions.Evidence{}
	for rows.Next() {
		e, err := scanEvidence(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Evidence is organisation orgID's piece of evidence id, without its
// bytes; decisions.ErrNoEvidence when it has none of that id.
func (s *DB) Evidence(ctx context.Context, orgID, id string) (_ decisions.Evidence, err error) {
	defer wrap(&err, "Evidence")
	return scanEvidence(s.db.QueryRowContext(ctx, "SELECT "+evidenceColumns+" FROM decision_evidence WHERE organisation_id = ? AND id = ?", orgID, id))
}

// EvidenceFile is organisation orgID's file of evidence id and its
// bytes; decisions.ErrNoEvidence when it has no file of that id (a
// link has none).
func (s *DB) EvidenceFile(ctx context.Context, orgID, id string) (_ decisions.Evidence, _ []byte, err error) {
	defer wrap(&err, "EvidenceFile")
	e, err := s.Evidence(ctx, orgID, id)
	if err != nil {
		return e, nil, err
	}
	var data []byte
	err = s.db.QueryRowContext(ctx, "SELECT data FROM decision_evidence_files WHERE evidence_id = ?", id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return e, nil, decisions.ErrNoEvidence
	}
	return e, data, err
}

// evidenceReview is what the audit trail keeps of a review, before and
// after.
type evidenceReview struct {
	State      string            `json:"state"`
	ReviewedBy catalog.OptString `json:"reviewedBy"`
	ReviewedAt *time.Time        `json:"reviewedAt"`
	ReviewNote catalog.OptString `json:"reviewNote"`
}

func reviewOf(e decisions.Evidence) evidenceReview {
	return evidenceReview{State: e.State, ReviewedBy: e.ReviewedBy, ReviewedAt: e.ReviewedAt, ReviewNote: e.ReviewNote}
}

// ReviewEvidence sets by's organisation's evidence id to state
// (decisions.EvidenceAccepted or EvidenceRejected; a rejection needs a
// note: decisions.CheckReview) reviewed by by now. A piece already
// reviewed may be reviewed again (an auditor may learn more); the audit
// row keeps the review before and after. decisions.ErrNoEvidence for
// none of that id.
func (s *DB) ReviewEvidence(ctx context.Context, by teams.Actor, id, state, note string) (_ decisions.Evidence, err error) {
	defer wrap(&err, "ReviewEvidence")
	if bad := decisions.CheckReview(state, note); bad != nil {
		return decisions.Evidence{}, errors.New("a review to " + state + " is not valid")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return decisions.Evidence{}, err
	}
	defer tx.Rollback()
	e, err := scanEvidence(tx.QueryRowContext(ctx, "SELECT "+evidenceColumns+" FROM decision_evidence WHERE organisation_id = ? AND id = ?",
		by.OrganisationID, id))
	if err != nil {
		return e, err
	}
	before := reviewOf(e)
	now := s.now().UTC()
	e.State, e.ReviewedBy, e.ReviewedAt, e.ReviewNote = state, catalog.OptString(by.UserID), &now, catalog.OptString(note)
	if _, err := tx.ExecContext(ctx, `UPDATE decision_evidence SET state = ?, reviewed_by = ?, reviewed_at = ?, review_note = ?
		WHERE organisation_id = ? AND id = ?`, e.State, e.ReviewedBy, timeText(now), e.ReviewNote, by.OrganisationID, id); err != nil {
		return e, err
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "evidence.review", "evidence", e.ID, before, reviewOf(e))); err != nil {
		return e, err
	}
	return e, tx.Commit()
}
