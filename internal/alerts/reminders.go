package alerts

import (
	"context"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/i18n"
	"regpulse/internal/indian"
)

// The comment deadlines' reminders (issue 45). A consultation (a
// draft, discussion or consultation paper with commentsDue) matches
// alerts on arrival like any circular; besides, an alert it matches is
// reminded of its deadline twice: a week before and the day before. The
// reminders go once a day, in the first run from DigestHour (a run lock
// per day, as the daily digests), matched through the same Index as
// arrivals, as of the run (an alert made since the consultation arrived
// is reminded too); each (alert, circular, reminder) is claimed in the
// store before its e-mail leaves: sent once, whatever the reruns (a
// failed one goes again the next day, while its reminder is due).
const (
	ReminderWeek = "comments-7d"
	ReminderDay  = "comments-1d"
)

// ReminderKinds are the reminders, in the order they fall.
var ReminderKinds = []string{ReminderWeek, ReminderDay}

// reminderDays is how many days before the deadline each reminder falls.
var reminderDays = map[string]int{ReminderWeek: 7, ReminderDay: 1}

// KindReminder is the kind of a reminder's e-mail (Email.Kind).
const KindReminder = "reminder"

// DueReminder is the reminder of c due on today's date, "" for none: the
// week's from 7 days before the deadline to 2 days before, the day's on
// the day before and the day itself (so a run that misses a day still
// sends it), while comments are open (catalog.Circular.CommentsOpen). A
// reminder is left out when the consultation was published after its day:
// its arrival's e-mail already said it all.
func DueReminder(c catalog.Circular, today time.Time) string {
	if !c.CommentsOpen(today) {
		return ""
	}
	day := catalog.Day(today)
	left := int(c.CommentsDue.Sub(day).Hours() / 24)
	kind := ReminderWeek
	if left <= reminderDays[ReminderDay] {
		kind = ReminderDay
	} else if left > reminderDays[ReminderWeek] {
		return ""
	}
	if c.PublishedDate.After(c.CommentsDue.AddDate(0, 0, -reminderDays[kind])) {
		return ""
	}
	return kind
}

// reminders e-mails the reminders due at now: each consultation closing
// within a week whose reminder is due (DueReminder), to every alert it
// matches.
func (r *runner) reminders(ctx context.Context, now time.Time) error {
	today := catalog.Date{Time: catalog.Day(now)}
	closing, err := r.st.ConsultationsClosing(ctx, today, catalog.Date{Time: today.AddDate(0, 0, reminderDays[ReminderWeek])})
	if err != nil || len(closing) == 0 {
		return err
	}
	active, err := r.st.ActiveAlerts(ctx)
	if err != nil {
		return err
	}
	x := NewIndex(active)
	for _, c := range closing {
		kind := DueReminder(c, now)
		if kind == "" {
			continue
		}
		var found []Alert
		x.Match(Arrival{Circular: c, At: now}, func(a *Alert) { found = append(found, *a) })
		for _, a := range found {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := r.sendReminder(ctx, a, c, kind, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// sendReminder claims a's reminder of c and e-mails it; an address
// refused is recorded and the run goes on, as sendAlert does.
func (r *runner) sendReminder(ctx context.Context, a Alert, c catalog.Circular, kind string, now time.Time) error {
	msgID := "reminder-{send}@" + r.o.Sender.Domain
	sendID, err := r.st.ClaimReminder(ctx, a.ID, c.ID, kind, a.Email, msgID)
	if err != nil {
		return err
	}
	if sendID == "" {
		return nil // sent already, or being sent by another run
	}
	err = r.deliver(ctx, Email{Alert: a, Kind: KindReminder, Reminder: kind, Circulars: []catalog.Circular{c}, Now: now},
		strings.ReplaceAll(msgID, "{send}", sendID), "reminder-"+sendID, now)
	failure, permanent := r.outcome(err, a.Email, "reminder", a.ID)
	return r.st.FinishReminder(ctx, sendID, a.Email, failure, permanent)
}

// reminderIntro is what a reminder's e-mail says first, in the language
// of code.
func reminderIntro(code string, c catalog.Circular, now time.Time) string {
	left := int(c.CommentsDue.Sub(catalog.Day(now)).Hours() / 24)
	when := i18n.T(code, "alertsMail.dueToday", nil)
	switch {
	case left == 1:
		when = i18n.T(code, "alertsMail.dueTomorrow", nil)
	case left > 1:
		when = i18n.T(code, "alertsMail.dueInDays", map[string]any{"N": indian.Int(left)})
	}
	return i18n.T(code, "alertsMail.reminderIntro", map[string]any{"Type": strings.ToLower(documentType(code, c.DocumentType)),
		"When": when, "Date": i18n.Date(code, c.CommentsDue.Time, "2 January 2006")})
}
