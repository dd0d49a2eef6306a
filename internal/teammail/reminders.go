package teammail

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/i18n"
	"regpulse/internal/indian"
	"regpulse/internal/mail"
	"regpulse/internal/metrics"
)

// Reminder is one decision a reminder lists, with its kind.
type Reminder struct {
	decisions.WorkItem
	Kind string
}

// Recipient is a member whose reminder is due: an admin or a member who
// owns open decisions due within the window or overdue that were not
// reminded of yet, with reminders on and an address not bouncing.
type Recipient struct {
	UserID, Email, Username, FirstName, LastName string
	Language                                     string // of their e-mails; "": English
}

// Store is what the reminders' run needs from persistence.
type Store interface {
	Catalog
	// Recipients are the members who have reminders due on today.
	Recipients(ctx context.Context, today catalog.Date) ([]Recipient, error)
	// ClaimReminders takes the member's reminders due on today into one
	// e-mail (messageID's {send} its id), each decision once per kind
	// and due date ever; "" when there were none (another sender took
	// them).
	ClaimReminders(ctx context.Context, userID, email string, today catalog.Date, messageID string) (string, []Reminder, error)
	// FinishReminders ends the e-mail: sent (failure ""), or failed,
	// giving its reminders back for the next run; a permanent refusal
	// counts against the address, as the alerts' do.
	FinishReminders(ctx context.Context, sendID, email, failure string, permanent bool) error
	ClaimAlertRun(ctx context.Context, key, holder string, lease time.Duration) (bool, error)
	FinishAlertRun(ctx context.Context, key string) error
}

// Options are a reminders run's settings.
type Options struct {
	Site   mail.Site
	Sender mail.Sender
	// Holder names this process in the run lock.
	Holder string
	Now    func() time.Time // nil: time.Now
	Log    *slog.Logger
}

// Report counts what a run did.
type Report struct {
	Sent, Failed, Skipped int
	Failures              map[string]string // address: reason
}

func (r Report) String() string {
	return fmt.Sprintf("reminders: %d e-mails sent, %d failed, %d taken by another sender", r.Sent, r.Failed, r.Skipped)
}

// runLease is how long a day's run holds its lock; a crashed holder's
// lease runs out and the next run takes the day up.
const runLease = 2 * time.Hour

// RunKey is the alert runs' key of the reminders of day.
func RunKey(day catalog.Date) string { return "reminders-" + day.String() }

// Remind sends the day's reminders at now, from alerts.DigestHour (as
// the daily digests), once a day across every process sharing the
// store: to each member with something due, one e-mail of their open
// decisions due within Horizon days and those overdue, each reminded
// once per kind. Every e-mail is claimed with its reminders before it
// leaves, so a rerun, a run after a crash or a second sender never
// reminds twice; a member with nothing due gets nothing.
func Remind(ctx context.Context, st Store, tr mail.Transport, o Options) (Report, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	rep := Report{Failures: map[string]string{}}
	now := o.Now().UTC()
	if now.Hour() < alerts.DigestHour {
		return rep, nil
	}
	today := catalog.Date{Time: catalog.Day(now)}
	key := RunKey(today)
	ok, err := st.ClaimAlertRun(ctx, key, o.Holder, runLease)
	if err != nil || !ok {
		return rep, err
	}
	r := &reminding{st: st, tr: tr, o: o, rep: &rep, pages: map[decisions.Subject]Page{}}
	if err := r.run(ctx, today, now); err != nil {
		return rep, fmt.Errorf("%s: %w", key, err)
	}
	return rep, st.FinishAlertRun(ctx, key)
}

type reminding struct {
	st    Store
	tr    mail.Transport
	o     Options
	rep   *Report
	pages map[decisions.Subject]Page // read once per run
}

// DuePublisher publishes the webhooks' obligation.due events of a day
// (store's PublishDue): once per decision, kind and due date, for the
// decision's organisation, whoever its reminders e-mail.
type DuePublisher interface {
	PublishDue(ctx context.Context, today catalog.Date) (int, error)
}

func (r *reminding) run(ctx context.Context, today catalog.Date, now time.Time) error {
	if p, ok := r.st.(DuePublisher); ok {
		if _, err := p.PublishDue(ctx, today); err != nil {
			return fmt.Errorf("webhooks: %w", err)
		}
	}
	to, err := r.st.Recipients(ctx, today)
	if err != nil {
		return err
	}
	for _, rc := range to {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.remind(ctx, rc, today, now); err != nil {
			return err
		}
	}
	return nil
}

// remind claims rc's reminders and e-mails them. Only a store failure
// or the end of ctx stops the run; an address refused is recorded and
// the run goes on.
func (r *reminding) remind(ctx context.Context, rc Recipient, today catalog.Date, now time.Time) error {
	msgID := "reminder-{send}@" + r.o.Sender.Domain
	sendID, items, err := r.st.ClaimReminders(ctx, rc.UserID, rc.Email, today, msgID)
	if err != nil {
		return err
	}
	if sendID == "" {
		r.rep.Skipped++
		metrics.Alerts.WithLabelValues("skipped").Inc()
		return nil
	}
	e := ReminderEmail{To: rc, Day: today, Site: r.o.Site}
	for _, it := range items {
		p, ok := r.pages[it.Subject]
		if !ok {
			if p, err = SubjectPage(ctx, r.st, it.Subject); err != nil {
				return err
			}
			r.pages[it.Subject] = p
		}
		e.Items = append(e.Items, ReminderItem{Reminder: it, Page: p})
	}
	err = r.deliver(ctx, e, strings.ReplaceAll(msgID, "{send}", sendID), "reminder-"+sendID, now)
	failure, permanent := "", false
	if err == nil {
		r.rep.Sent++
		metrics.Alerts.WithLabelValues("sent").Inc()
	} else {
		failure, permanent = err.Error(), alerts.Permanent(err)
		r.rep.Failed++
		r.rep.Failures[rc.Email] = failure
		metrics.Alerts.WithLabelValues("failed").Inc()
		r.o.Log.Warn("reminders: not delivered", "send", sendID, "err", err, "permanent", permanent)
	}
	return r.st.FinishReminders(ctx, sendID, rc.Email, failure, permanent)
}

func (r *reminding) deliver(ctx context.Context, e ReminderEmail, msgID, name string, now time.Time) error {
	rd, err := e.Render()
	if err != nil {
		return err
	}
	m, err := r.o.Sender.Build(mail.Message{To: e.To.Email, Subject: rd.Subject, MessageID: msgID, Date: now,
		Text: rd.Text, HTML: rd.HTML})
	if err != nil {
		return err
	}
	return r.tr.Deliver(ctx, m, name)
}

// ReminderItem is a reminder with its subject's page.
type ReminderItem struct {
	Reminder
	Page Page
}

// ReminderEmail is one member's reminder of a day.
type ReminderEmail struct {
	To    Recipient
	Day   catalog.Date
	Items []ReminderItem // in the store's order: by due date
	Site  mail.Site
}

type reminderLine struct {
	Title, URL, Organisation, Due, Status, When string
}

type reminderView struct {
	Subject, Name, Email string
	Overdue, DueSoon     []reminderLine
	// OverdueCount and DueSoonCount are how many of each, as the
	// headings write them (indian.Int).
	OverdueCount, DueSoonCount string
	Horizon                    int
	WorkURL, ProfileURL        string
}

// statusKeys are the catalogue's keys of the statuses as the e-mail
// says them.
var statusKeys = map[string]string{
	decisions.StatusNew: "teamMail.statusNew", decisions.StatusAssessing: "teamMail.statusAssessing",
	decisions.StatusActionPlanned: "teamMail.statusActionPlanned",
}

// days says n days, n ≥ 0, in the language of code.
func days(code string, n int) string {
	return i18n.T(code, "teamMail.days", map[string]any{"Count": n, "N": indian.Int(n)})
}

// Render renders e in its recipient's language.
func (e ReminderEmail) Render() (Rendered, error) {
	lang := i18n.Of(e.To.Language).Code
	v := reminderView{Name: name(e.To.FirstName, e.To.LastName, e.To.Username), Email: e.To.Email, Horizon: Horizon,
		WorkURL: e.Site.LinkIn(lang, "/organisation", nil), ProfileURL: e.Site.LinkIn(lang, ProfilePath, nil) + "#" + ProfileAnchor}
	for _, it := range e.Items {
		l := reminderLine{Title: it.Page.Title, URL: e.Site.LinkIn(lang, it.Page.Path, nil), Organisation: it.OrganisationName,
			Status: it.Status}
		if key, ok := statusKeys[it.Status]; ok {
			l.Status = i18n.T(lang, key, nil)
		}
		if it.DueDate != nil {
			l.Due = i18n.Date(lang, it.DueDate.Time, "2 January 2006")
			n := int(e.Day.Sub(it.DueDate.Time).Hours() / 24)
			switch {
			case it.Kind == KindOverdue:
				l.When = i18n.T(lang, "teamMail.overdueBy", map[string]any{"Days": days(lang, n)})
			case n == 0:
				l.When = i18n.T(lang, "teamMail.dueToday", nil)
			default:
				l.When = i18n.T(lang, "teamMail.dueIn", map[string]any{"Days": days(lang, -n)})
			}
		}
		if it.Kind == KindOverdue {
			v.Overdue = append(v.Overdue, l)
		} else {
			v.DueSoon = append(v.DueSoon, l)
		}
	}
	v.OverdueCount, v.DueSoonCount = indian.Int(len(v.Overdue)), indian.Int(len(v.DueSoon))
	var parts []string
	if n := len(v.Overdue); n > 0 {
		parts = append(parts, i18n.T(lang, "teamMail.subjectOverdue", map[string]any{"N": indian.Int(n)}))
	}
	if n := len(v.DueSoon); n > 0 {
		parts = append(parts, i18n.T(lang, "teamMail.subjectDueSoon", map[string]any{"N": indian.Int(n), "Days": Horizon}))
	}
	v.Subject = i18n.T(lang, "teamMail.reminderSubject", map[string]any{"Parts": strings.Join(parts, ", ")})
	return render(reminderHTML[lang], reminderText[lang], "reminder", v.Subject, v)
}
