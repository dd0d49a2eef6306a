package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// Decisions (package decisions, issue 44): an organisation's one
// decision per subject, its board, a member's work across organisations,
// a reassignment, and the comments. Every call that changes one takes
// the teams.Actor who acts and runs in one transaction, with its row of
// the organisation's audit trail (audit.go).
// A write names the version it read: one that read an older is refused
// (decisions.ErrStale), so two members deciding at once cannot silently
// undo each other.

// decisionColumns are the columns scanDecision reads, of the table
// named p (with its dot) or "".
func decisionColumns(p string) string {
	return p + "organisation_id, " + p + "subject_type, " + p + "subject_id, " + p + "provision, " + p + "applicability, " + p + "reason, " +
		p + "note, " + p + "deferred_until, COALESCE(" + p + "owner_id, ''), " + p + "due, " + p + "due_date, " + p + "status, COALESCE(" +
		p + "decided_by, ''), " + p + "decided_at, " + p + "text_version, " + p + "version, " + p + "reopened"
}

// subjectWhere selects a decision by organisation and subject.
const subjectWhere = "organisation_id = ? AND subject_type = ? AND subject_id = ? AND provision = ?"

func subjectArgs(orgID string, s decisions.Subject) []any {
	return []any{orgID, s.Type, s.ID, s.Provision}
}

func scanDecision(row interface{ Scan(...any) error }, extra ...any) (decisions.Decision, error) {
	var d decisions.Decision
	var deferred, dueDate sql.NullString
	var decided string
	var reopened sql.NullString
	err := row.Scan(append([]any{&d.OrganisationID, &d.Type, &d.ID, &d.Provision, &d.Applicability, &d.Reason, &d.Note, &deferred,
		&d.OwnerID, &d.Due, &dueDate, &d.Status, &d.DecidedBy, &decided, &d.TextVersion, &d.Version, &reopened}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return d, decisions.ErrNoDecision
	}
	if err != nil {
		return d, err
	}
	if d.DeferredUntil, err = nullDate(deferred); err != nil {
		return d, err
	}
	if d.DueDate, err = nullDate(dueDate); err != nil {
		return d, err
	}
	if reopened.Valid {
		d.Reopened = new(decisions.Reopening)
		if err := json.Unmarshal([]byte(reopened.String), d.Reopened); err != nil {
			return d, fmt.Errorf("decision %s: reopened: %w", d.Subject, err)
		}
	}
	d.DecidedAt, err = time.Parse(time.RFC3339Nano, decided)
	return d, err
}

func nullDate(s sql.NullString) (*catalog.Date, error) {
	if !s.Valid {
		return nil, nil
	}
	t, err := time.Parse(time.DateOnly, s.String)
	if err != nil {
		return nil, err
	}
	return &catalog.Date{Time: t}, nil
}

func nullDateText(d *catalog.Date) any {
	if d == nil {
		return nil
	}
	return d.String()
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// mayOwn answers decisions.ErrNotOwner unless userID is an active member
// of orgID whose role may decide.
func (s *DB) mayOwn(ctx context.Context, q querier, orgID, userID string) error {
	m, err := membership(ctx, q, orgID, userID)
	if errors.Is(err, teams.ErrNoMember) || err == nil && (!m.Active(s.now()) || !teams.CanDecide(m.Role)) {
		return decisions.ErrNotOwner
	}
	return err
}

// PutDecision records d as by's organisation's decision on d's subject,
// decided by by now. d.Version is the version the writer read: 0 for a
// decision that is not there yet; decisions.ErrStale when it is not the
// stored one (another write came first). An owner who is not a member
// who may decide: decisions.ErrNotOwner. The answer is as stored, its
// Version one more.
func (s *DB) PutDecision(ctx context.Context, by teams.Actor, d decisions.Decision) (_ decisions.Decision, err error) {
	defer wrap(&err, "PutDecision")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return d, err
	}
	defer tx.Rollback()
	if d.OwnerID != "" {
		if err := s.mayOwn(ctx, tx, by.OrganisationID, string(d.OwnerID)); err != nil {
			return d, err
		}
	}
	read := d.Version
	var before any // the stored decision, for the audit trail
	if read != 0 {
		old, err := scanDecision(tx.QueryRowContext(ctx, "SELECT "+decisionColumns("")+" FROM decisions WHERE "+subjectWhere,
			subjectArgs(by.OrganisationID, d.Subject)...))
		switch {
		case errors.Is(err, decisions.ErrNoDecision):
			return d, decisions.ErrStale
		case err != nil:
			return d, err
		}
		before = old
		d.Reopened = old.Reopened // the system's, which a member's write keeps
	}
	d.OrganisationID, d.DecidedBy, d.DecidedAt, d.Version = by.OrganisationID, catalog.OptString(by.UserID), s.now().UTC(), read+1
	if d.Status == "" {
		d.Status = decisions.StatusNew
	}
	var res sql.Result
	if read == 0 {
		res, err = tx.ExecContext(ctx, `INSERT INTO decisions (organisation_id, subject_type, subject_id, provision, applicability, reason, note,
			deferred_until, owner_id, due, due_date, due_key, status, decided_by, decided_at, text_version, version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			d.OrganisationID, d.Type, d.ID, d.Provision, d.Applicability, d.Reason, d.Note, nullDateText(d.DeferredUntil),
			nullText(string(d.OwnerID)), d.Due, nullDateText(d.DueDate), dueKey(d.DueDate), d.Status, nullText(string(d.DecidedBy)), timeText(d.DecidedAt), d.TextVersion, d.Version)
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE decisions SET applicability = ?, reason = ?, note = ?, deferred_until = ?, owner_id = ?, due = ?,
			due_date = ?, due_key = ?, status = ?, decided_by = ?, decided_at = ?, text_version = ?, version = ? WHERE `+subjectWhere+` AND version = ?`,
			append([]any{d.Applicability, d.Reason, d.Note, nullDateText(d.DeferredUntil), nullText(string(d.OwnerID)), d.Due,
				nullDateText(d.DueDate), dueKey(d.DueDate), d.Status, nullText(string(d.DecidedBy)), timeText(d.DecidedAt), d.TextVersion, d.Version},
				append(subjectArgs(d.OrganisationID, d.Subject), read)...)...)
	}
	if err != nil {
		return d, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return d, errors.Join(err, decisions.ErrStale)
	}
	action := "decision.update"
	if read == 0 {
		action = "decision.create"
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, action, "decision", d.Subject.String(), before, d)); err != nil {
		return d, err
	}
	change, was := "created", (*decisions.Decision)(nil)
	if old, ok := before.(decisions.Decision); ok {
		change, was = "updated", &old
	}
	if err := s.decisionChanged(ctx, tx, change, was, d); err != nil {
		return d, err
	}
	return d, tx.Commit()
}

// Decision is organisation orgID's decision on subject;
// decisions.ErrNoDecision when it has none.
func (s *DB) Decision(ctx context.Context, orgID string, subject decisions.Subject) (_ decisions.Decision, err error) {
	defer wrap(&err, "Decision")
	return scanDecision(s.db.QueryRowContext(ctx, "SELECT "+decisionColumns("")+" FROM decisions WHERE "+subjectWhere, subjectArgs(orgID, subject)...))
}

// byDue is the order of the board and of "my work": by due date, those
// without one last, then by subject.
const byDue = " ORDER BY due_key, subject_type, subject_id, provision"

// undatedKey is the due_key of a decision without a due date: after
// every date.
const undatedKey = "9999-12-31"

// dueKey is the due_key column of a due date: its order, undated last,
// in a plain column both dialects index alike.
func dueKey(d *catalog.Date) string {
	if d == nil {
		return undatedKey
	}
	return d.String()
}

// boardWhere is the condition of the board's decisions q selects.
func boardWhere(orgID string, q decisions.BoardQuery) (string, []any) {
	where, args := "organisation_id = ?", []any{orgID}
	if q.Status != "" {
		where, args = where+" AND status = ?", append(args, q.Status)
	}
	if q.OwnerID != "" {
		where, args = where+" AND owner_id = ?", append(args, q.OwnerID)
	}
	if q.DueBefore != nil {
		where, args = where+" AND due_key < ?", append(args, q.DueBefore.String())
	}
	return where, args
}

// boardQueries are the board's two queries of q's decisions: how many
// there are, and a page of them (its arguments: args, then the limit and
// the offset). The page's keys are read from the index in the board's
// order alone (every filter's index holds its column: no row is read to
// be skipped), and only the page's rows then: a deep page skips index
// entries, not rows.
func boardQueries(orgID string, q decisions.BoardQuery) ([2]string, []any) {
	where, args := boardWhere(orgID, q)
	return [2]string{"SELECT COUNT(*) FROM decisions WHERE " + where,
		"SELECT " + decisionColumns("d.") + " FROM (SELECT organisation_id, subject_type, subject_id, provision FROM decisions WHERE " + where +
			byDue + " LIMIT ? OFFSET ?) k JOIN decisions d ON d.organisation_id = k.organisation_id AND d.subject_type = k.subject_type" +
			" AND d.subject_id = k.subject_id AND d.provision = k.provision ORDER BY d.due_key, d.subject_type, d.subject_id, d.provision"}, args
}

// Board is a page of organisation orgID's decisions that q selects, by
// due date, and how many it selects in all.
func (s *DB) Board(ctx context.Context, orgID string, q decisions.BoardQuery) (_ []decisions.Decision, _ int, err error) {
	defer wrap(&err, "Board")
	query, args := boardQueries(orgID, q)
	var total int
	if err := s.db.QueryRowContext(ctx, query[0], args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if q.Limit <= 0 {
		q.Limit = catalog.MaxLimit
	}
	rows, err := s.db.QueryContext(ctx, query[1], append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []decisions.Decision{}
	for rows.Next() {
		d, err := scanDecision(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, d)
	}
	return out, total, rows.Err()
}

// openStatuses are the statuses decisions.Open counts as work.
var openStatuses = slices.DeleteFunc(slices.Clone(decisions.Statuses), func(s string) bool { return !decisions.Open(s) })

// myWorkQueries are MyWork's: how many open decisions a user owns in
// the organisations orgIDs and how many of them are overdue (arguments:
// today, then args), and a page of them (arguments: args, limit,
// offset). Both read an owner's index: (owner_id, status) names exactly
// the rows counted, (organisation_id, owner_id, due_key, ...) gives one
// organisation's in the page's order. Unlike the board's, the page is
// read in one query: the status is in no index that has the order, so
// the rows are read anyway, and a member's work is hundreds of rows, not
// tens of thousands (a join by key made PostgreSQL's prepared plan
// slower).
func myWorkQueries(userID string, orgIDs []string) ([2]string, []any) {
	args := []any{userID}
	for _, st := range openStatuses {
		args = append(args, st)
	}
	for _, id := range orgIDs {
		args = append(args, id)
	}
	where := "owner_id = ? AND status IN (" + placeholders(len(openStatuses)) + ") AND organisation_id IN (" + placeholders(len(orgIDs)) + ")"
	return [2]string{"SELECT COUNT(*), COALESCE(SUM(CASE WHEN due_key < ? THEN 1 ELSE 0 END), 0) FROM decisions WHERE " + where,
		"SELECT " + decisionColumns("") + " FROM decisions WHERE " + where +
			" ORDER BY due_key, organisation_id, subject_type, subject_id, provision LIMIT ? OFFSET ?"}, args
}

// MyWork is a page of userID's open work (decisions it owns whose status
// asks for more) across the organisations of which it is an active
// member (an auditor's whose access ended are left out), by due date
// (undated last), each with its organisation's name; with how many items
// the work holds in all and how many of them are overdue on the store's
// today (decisions.OverdueOn: open and due before today). Like the board,
// the page's keys are read first and only the page's rows then: a
// member's work may be hundreds of items, and reading each row whole was
// most of the call.
func (s *DB) MyWork(ctx context.Context, userID string, page catalog.Page) (_ []decisions.WorkItem, total, overdue int, err error) {
	defer wrap(&err, "MyWork")
	orgs, err := s.UserOrganisations(ctx, userID)
	if err != nil || len(orgs) == 0 {
		return []decisions.WorkItem{}, 0, 0, err
	}
	names := map[string]string{}
	ids := make([]string, len(orgs))
	for i, o := range orgs {
		names[o.ID], ids[i] = o.Name, o.ID
	}
	query, args := myWorkQueries(userID, ids)
	today := catalog.Date{Time: catalog.Day(s.now())}.String()
	if err := s.db.QueryRowContext(ctx, query[0], append([]any{today}, args...)...).Scan(&total, &overdue); err != nil {
		return nil, 0, 0, err
	}
	if page.Limit <= 0 {
		page.Limit = catalog.MaxLimit
	}
	rows, err := s.db.QueryContext(ctx, query[1], append(args, page.Limit, page.Offset)...)
	if err != nil {
		return nil, 0, 0, err
	}
	defer rows.Close()
	out := []decisions.WorkItem{}
	for rows.Next() {
		var w decisions.WorkItem
		if w.Decision, err = scanDecision(rows); err != nil {
			return nil, 0, 0, err
		}
		w.OrganisationName = names[w.OrganisationID]
		out = append(out, w)
	}
	return out, total, overdue, rows.Err()
}

// Reassign gives every open decision of by's organisation owned by from
// to to, in one statement, and answers how many; to must be a member
// who may decide (decisions.ErrNotOwner). Each moved decision's version
// goes up: a write that read it before is stale.
func (s *DB) Reassign(ctx context.Context, by teams.Actor, from, to string) (_ int, err error) {
	defer wrap(&err, "Reassign")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if err := s.mayOwn(ctx, tx, by.OrganisationID, to); err != nil {
		return 0, err
	}
	moving, err := s.reassigned(ctx, tx, by.OrganisationID, from)
	if err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `UPDATE decisions SET owner_id = ?, version = version + 1
		WHERE organisation_id = ? AND owner_id = ? AND status NOT IN (?, ?)`,
		to, by.OrganisationID, from, decisions.StatusDone, decisions.StatusNotApplicable)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "decision.reassign", "member", from,
		map[string]any{"owner": from}, map[string]any{"owner": to, "moved": n})); err != nil {
		return 0, err
	}
	for _, d := range moving {
		was := d
		d.OwnerID, d.Version = catalog.OptString(to), d.Version+1
		if err := s.decisionChanged(ctx, tx, "reassigned", &was, d); err != nil {
			return 0, err
		}
	}
	return int(n), tx.Commit()
}

// reassigned are the decisions Reassign moves from from, read when the
// organisation's endpoints want decision.changed (none otherwise).
func (s *DB) reassigned(ctx context.Context, tx *txConn, orgID, from string) ([]decisions.Decision, error) {
	if ok, err := orgWants(ctx, tx, orgID, webhooks.DecisionChanged); err != nil || !ok {
		return nil, err
	}
	return decisionsWhere(ctx, tx, "organisation_id = ? AND owner_id = ? AND status NOT IN (?, ?)",
		orgID, from, decisions.StatusDone, decisions.StatusNotApplicable)
}

// AddComment keeps by's comment body on its organisation's decision on
// subject (decisions.ErrNoDecision when there is none), with the members
// its @usernames name (decisions.Mentioned), whom it also answers: the
// ones to tell.
func (s *DB) AddComment(ctx context.Context, by teams.Actor, subject decisions.Subject, body string) (_ decisions.Comment, _ []teams.Member, err error) {
	defer wrap(&err, "AddComment")
	c := decisions.Comment{ID: uuid.NewString(), OrganisationID: by.OrganisationID, Subject: subject, AuthorID: catalog.OptString(by.UserID),
		Body: body, CreatedAt: s.now().UTC(), Mentions: []string{}}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return c, nil, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM decisions WHERE "+subjectWhere, subjectArgs(by.OrganisationID, subject)...).Scan(&n); err != nil {
		return c, nil, err
	}
	if n == 0 {
		return c, nil, decisions.ErrNoDecision
	}
	members, err := activeMembers(ctx, tx, by.OrganisationID, s.now())
	if err != nil {
		return c, nil, err
	}
	mentioned := decisions.Mentioned(body, members)
	for _, m := range mentioned {
		c.Mentions = append(c.Mentions, m.UserID)
	}
	ids, _ := json.Marshal(c.Mentions)
	if _, err := tx.ExecContext(ctx, `INSERT INTO decision_comments (id, organisation_id, subject_type, subject_id, provision, author_id, body,
		mentions, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.OrganisationID, subject.Type, subject.ID, subject.Provision, nullText(string(c.AuthorID)), body, string(ids), timeText(c.CreatedAt)); err != nil {
		return c, nil, err
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "comment.create", "comment", c.ID, nil, c)); err != nil {
		return c, nil, err
	}
	return c, mentioned, tx.Commit()
}

func activeMembers(ctx context.Context, q querier, orgID string, now time.Time) ([]teams.Member, error) {
	rows, err := q.QueryContext(ctx, memberSelect+" WHERE m.organisation_id = ?", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []teams.Member
	for rows.Next() {
		m, err := scanMember(rows)
		if err != nil {
			return nil, err
		}
		if m.Active(now) {
			out = append(out, m)
		}
	}
	return out, rows.Err()
}

// Comments are the comments on organisation orgID's decision on
// subject, oldest first; decisions.ErrNoDecision when there is none.
func (s *DB) Comments(ctx context.Context, orgID string, subject decisions.Subject) (_ []decisions.Comment, err error) {
	defer wrap(&err, "Comments")
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM decisions WHERE "+subjectWhere, subjectArgs(orgID, subject)...).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, decisions.ErrNoDecision
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(author_id, ''), body, mentions, created_at FROM decision_comments
		WHERE `+subjectWhere+` ORDER BY created_at, id`, subjectArgs(orgID, subject)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []decisions.Comment{}
	for rows.Next() {
		c := decisions.Comment{OrganisationID: orgID, Subject: subject}
		var ids, created string
		if err := rows.Scan(&c.ID, &c.AuthorID, &c.Body, &ids, &created); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(ids), &c.Mentions); err != nil {
			return nil, err
		}
		if c.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ObligationsByID are the obligations of ids that the catalog has, by id,
// read in batches: a board's page names up to catalog.MaxLimit.
func (s *DB) ObligationsByID(ctx context.Context, ids []string) (_ map[string]catalog.Obligation, err error) {
	defer wrap(&err, "ObligationsByID")
	out := map[string]catalog.Obligation{}
	return out, inKeyBatches(ids, func(args []any) error {
		return s.eachObligation(ctx, "SELECT "+obligationColumns.selectList("o", nil)+" FROM obligations_shown o WHERE o.id IN ("+placeholders(len(args))+")", args,
			func(o catalog.Obligation) error { out[o.ID] = o; return nil })
	})
}

// DirectionTitles are the titles of the Master Directions of slugs that
// the catalog has, by slug, in one read of their rows (no versions, no
// text).
func (s *DB) DirectionTitles(ctx context.Context, slugs []string) (_ map[string]string, err error) {
	defer wrap(&err, "DirectionTitles")
	out := map[string]string{}
	return out, inKeyBatches(slugs, func(args []any) error {
		rows, err := s.db.QueryContext(ctx, "SELECT slug, title FROM master_directions WHERE slug IN ("+placeholders(len(args))+")", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var slug, title string
			if err := rows.Scan(&slug, &title); err != nil {
				return err
			}
			out[slug] = title
		}
		return rows.Err()
	})
}

// ObligationByID is the obligation shown with id; catalog.ErrNotFound
// when there is none.
func (s *DB) ObligationByID(ctx context.Context, id string) (_ catalog.Obligation, err error) {
	defer wrap(&err, "ObligationByID")
	var out *catalog.Obligation
	err = s.eachObligation(ctx, "SELECT "+obligationColumns.selectList("o", nil)+" FROM obligations_shown o WHERE o.id = ?", []any{id},
		func(o catalog.Obligation) error { out = &o; return nil })
	if err != nil {
		return catalog.Obligation{}, err
	}
	if out == nil {
		return catalog.Obligation{}, catalog.ErrNotFound
	}
	return *out, nil
}
