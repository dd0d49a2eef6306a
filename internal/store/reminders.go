package store

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
)

// The reminders of the decisions due (teammail.Remind, issue 44): each
// open decision with a due date is reminded to its owner once per kind
// (due-soon within teammail.Horizon days, overdue after) and due date,
// in decision_reminders, claimed with its e-mail (reminder_sends) in one
// transaction before the e-mail leaves, as the alerts' matches are: a
// rerun, a crash, or two senders at once never remind twice. A failed
// e-mail gives its rows back (send_id NULL) and counts against the
// address as the alerts' do (finishSend).

// dueWhere selects the decisions a reminder on a day lists: open, owned
// by an admin or a member (an owner whose role changed since no longer
// decides), due by the window's last day. Its arguments: dueArgs.
const dueWhere = `d.status NOT IN (?, ?) AND d.due_date IS NOT NULL AND d.due_date <= ? AND m.role IN (?, ?)`

func dueArgs(today catalog.Date) []any {
	return []any{decisions.StatusDone, decisions.StatusNotApplicable, teammail.Window(today).String(), teams.RoleAdmin, teams.RoleMember}
}

// reminderKind is the kind of a decision's reminder, its argument the
// day (teammail.Kind, in SQL).
const reminderKind = `CASE WHEN d.due_date < ? THEN '` + teammail.KindOverdue + `' ELSE '` + teammail.KindDueSoon + `' END`

const reminderJoin = ` JOIN organisation_members m ON m.organisation_id = d.organisation_id AND m.user_id = d.owner_id`

// Recipients are the members who have reminders due on today: an open
// decision of theirs due within the window or overdue, of a kind and
// due date not reminded yet, their reminders on and their address not
// bouncing.
func (s *DB) Recipients(ctx context.Context, today catalog.Date) (_ []teammail.Recipient, err error) {
	defer wrap(&err, "Recipients")
	rows, err := s.db.QueryContext(ctx, `SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.language FROM users u
		JOIN user_preferences p ON p.user_id = u.id
		WHERE p.reminder_emails
		AND NOT EXISTS (SELECT 1 FROM alert_addresses b WHERE b.email_key = u.email_key AND b.bouncing)
		AND u.id IN (SELECT d.owner_id FROM decisions d`+reminderJoin+` WHERE `+dueWhere+`
			AND NOT EXISTS (SELECT 1 FROM decision_reminders r WHERE r.organisation_id = d.organisation_id
				AND r.subject_type = d.subject_type AND r.subject_id = d.subject_id AND r.provision = d.provision
				AND r.kind = `+reminderKind+` AND r.due_date = d.due_date AND r.send_id IS NOT NULL))
		ORDER BY u.id`, append(dueArgs(today), today.String())...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []teammail.Recipient
	for rows.Next() {
		var r teammail.Recipient
		if err := rows.Scan(&r.UserID, &r.Email, &r.Username, &r.FirstName, &r.LastName, &r.Language); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ClaimReminders takes userID's reminders due on today that no e-mail
// holds into one new e-mail to email (messageID's {send} its id), and
// answers its id and the reminders, by due date; "" when none was left
// (nothing due, or another sender took them first). A reminder claimed
// is never claimed again unless its e-mail fails.
func (s *DB) ClaimReminders(ctx context.Context, userID, email string, today catalog.Date, messageID string) (_ string, _ []teammail.Reminder, err error) {
	defer wrap(&err, "ClaimReminders")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", nil, err
	}
	defer tx.Rollback()
	id, now := uuid.NewString(), timeText(s.now())
	// The e-mail first: its reminders refer to it.
	if _, err := tx.ExecContext(ctx, `INSERT INTO reminder_sends (id, user_id, email_key, status, message_id, items, created_at, updated_at)
		VALUES (?, ?, ?, 'sending', ?, 0, ?, ?)`, id, userID, userKey(email), strings.ReplaceAll(messageID, "{send}", id), now, now); err != nil {
		return "", nil, err
	}
	// One row per decision, kind and due date, ever: a row another
	// e-mail holds stays its; one a failed e-mail gave back is taken.
	res, err := tx.ExecContext(ctx, `INSERT INTO decision_reminders (organisation_id, subject_type, subject_id, provision, kind, due_date, user_id, send_id)
		SELECT d.organisation_id, d.subject_type, d.subject_id, d.provision, `+reminderKind+`, d.due_date, d.owner_id, CAST(? AS TEXT)
		FROM decisions d`+reminderJoin+` WHERE d.owner_id = ? AND `+dueWhere+`
		ON CONFLICT (organisation_id, subject_type, subject_id, provision, kind, due_date)
		DO UPDATE SET send_id = excluded.send_id, user_id = excluded.user_id WHERE decision_reminders.send_id IS NULL`,
		append([]any{today.String(), id, userID}, dueArgs(today)...)...)
	if err != nil {
		return "", nil, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return "", nil, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE reminder_sends SET items = ? WHERE id = ?", n, id); err != nil {
		return "", nil, err
	}
	if err := tx.Commit(); err != nil {
		return "", nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+decisionColumns("d.")+`, o.name, r.kind FROM decision_reminders r
		JOIN decisions d ON d.organisation_id = r.organisation_id AND d.subject_type = r.subject_type AND d.subject_id = r.subject_id
			AND d.provision = r.provision
		JOIN organisations o ON o.id = d.organisation_id
		WHERE r.send_id = ? ORDER BY r.due_date, o.name, d.subject_type, d.subject_id, d.provision`, id)
	if err != nil {
		return "", nil, err
	}
	defer rows.Close()
	var out []teammail.Reminder
	for rows.Next() {
		var r teammail.Reminder
		if r.Decision, err = scanDecision(rows, &r.OrganisationName, &r.Kind); err != nil {
			return "", nil, err
		}
		out = append(out, r)
	}
	return id, out, rows.Err()
}

// FinishReminders records how the reminders' e-mail ended: sent
// (failure ""), or failed, giving its reminders back to the next run;
// a permanent refusal counts against the address as the alerts' do.
func (s *DB) FinishReminders(ctx context.Context, sendID, email, failure string, permanent bool) (err error) {
	defer wrap(&err, "FinishReminders")
	return s.finishSend(ctx, "reminder_sends", "decision_reminders", func(now string) (string, []any) {
		return "UPDATE reminder_sends SET updated_at = ? WHERE id = ?", []any{now, sendID}
	}, sendID, email, failure, permanent)
}
