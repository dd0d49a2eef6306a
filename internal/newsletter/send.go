package newsletter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regpulse/internal/metrics"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Store is what sending needs from persistence: the list, and a record
// of each delivery so a month's digest reaches a subscriber once.
type Store interface {
	ActiveSubscribers(ctx context.Context) ([]Subscriber, error)
	// ClaimDelivery answers false when the subscriber's digest of month
	// was sent or is being sent; a failed one may be claimed again.
	ClaimDelivery(ctx context.Context, subscriberID, month, messageID string) (bool, error)
	// FinishDelivery records the end: failure "" is sent.
	FinishDelivery(ctx context.Context, subscriberID, month, failure string) error
}

// Transport delivers built messages: SMTP, or .eml files in a folder.
type Transport interface {
	Deliver(ctx context.Context, m *gomail.Msg, name string) error
	Close() error
}

// Options are a digest run's settings.
type Options struct {
	// From is the sender, e.g. "RegPulse <newsletter@regpulse.in>"; its
	// domain names the messages (Message-ID) and the unsubscribe mailbox.
	From string
	// UnsubscribeMailto is the List-Unsubscribe mailbox; "" is the
	// sender's address with subject "unsubscribe".
	UnsubscribeMailto string
	// DryRun renders and delivers (to a folder, say) without recording:
	// nothing counts as sent.
	DryRun bool
	Now    func() time.Time // the Date header's clock; nil: time.Now
	Log    *slog.Logger
}

// Report counts what a run did.
type Report struct {
	Month                 string
	Sent, Skipped, Failed int
	Failures              map[string]string // address: reason
}

func (r Report) String() string {
	return fmt.Sprintf("digest %s: %d sent, %d already sent (skipped), %d failed", r.Month, r.Sent, r.Skipped, r.Failed)
}

// Send renders the issue for every active subscriber and delivers each
// message the store has not recorded yet. One failing address (a server's
// 5xx) is recorded and the run goes on; the run stops only when the store
// fails or ctx ends. Running it again sends only what was not sent.
func Send(ctx context.Context, st Store, tr Transport, rd *Renderer, o Options) (Report, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	snd, err := NewSender(o.From, o.UnsubscribeMailto)
	if err != nil {
		return Report{}, err
	}
	month := MonthKey(rd.issue.Month)
	rep := Report{Month: month, Failures: map[string]string{}}
	subs, err := st.ActiveSubscribers(ctx)
	if err != nil {
		return rep, err
	}
	for _, sub := range subs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		msgID := "digest-" + month + "-" + sub.ID + "@" + snd.Domain
		if !o.DryRun {
			ok, err := st.ClaimDelivery(ctx, sub.ID, month, msgID)
			if err != nil {
				return rep, err
			}
			if !ok {
				rep.Skipped++
				continue
			}
		}
		failure := ""
		m, err := buildMessage(rd, sub, snd, msgID, o.Now())
		if err == nil {
			err = tr.Deliver(ctx, m, sub.ID)
		}
		if err != nil {
			failure = err.Error()
			rep.Failed++
			rep.Failures[sub.Email] = failure
			o.Log.Warn("digest: not delivered", "month", month, "subscriber", sub.ID, "err", err)
		} else {
			rep.Sent++
		}
		if !o.DryRun {
			if err := st.FinishDelivery(ctx, sub.ID, month, failure); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// buildMessage is sub's digest as a message.
func buildMessage(rd *Renderer, sub Subscriber, snd Sender, msgID string, now time.Time) (*gomail.Msg, error) {
	r, err := rd.Render(sub)
	if err != nil {
		return nil, err
	}
	return snd.Message(Envelope{ToName: strings.TrimSpace(sub.FirstName + " " + sub.LastName), To: sub.Email,
		Subject: r.Subject, MessageID: msgID, Date: now, ListID: "RegPulse monthly update <monthly." + snd.Domain + ">",
		UnsubscribeURL: r.UnsubscribeURL, Text: r.Text, HTML: r.HTML})
}

// Sender is who sends RegPulse's e-mails (the digest and the alerts):
// the From address, its domain, which names Message-IDs and List-Ids,
// and the List-Unsubscribe mailbox.
type Sender struct {
	From   *mail.Address
	Domain string
	Mailto string // mailto:... for List-Unsubscribe
}

// NewSender reads from (e.g. "RegPulse <newsletter@regpulse.in>"); an
// empty unsubscribeMailto is from's address with subject "unsubscribe".
func NewSender(from, unsubscribeMailto string) (Sender, error) {
	addr, err := mail.ParseAddress(from)
	if err != nil {
		return Sender{}, fmt.Errorf("from address %q: %w", from, err)
	}
	_, domain, _ := strings.Cut(addr.Address, "@")
	if unsubscribeMailto == "" {
		unsubscribeMailto = "mailto:" + addr.Address + "?subject=unsubscribe"
	}
	return Sender{From: addr, Domain: domain, Mailto: unsubscribeMailto}, nil
}

// Envelope is one message's recipient, subject, identity and bodies.
type Envelope struct {
	ToName, To         string
	Subject, MessageID string
	Date               time.Time
	ListID             string // List-Id: "Name <id.domain>"
	// UnsubscribeURL is the one-click unsubscribe link (RFC 8058) of
	// what this message is for.
	UnsubscribeURL string
	Text, HTML     string
}

// Message builds e as multipart/alternative (plain text first, HTML
// preferred) with the one-click unsubscribe headers of RFC 8058 and
// RFC 2369, bulk precedence and its own Message-ID.
func (snd Sender) Message(e Envelope) (*gomail.Msg, error) {
	m := gomail.NewMsg()
	m.SetAddrHeaderFromMailAddress(gomail.HeaderFrom, snd.From)
	if err := m.AddToFormat(e.ToName, e.To); err != nil {
		return nil, err
	}
	m.Subject(e.Subject)
	m.SetDateWithValue(e.Date)
	m.SetMessageIDWithValue(e.MessageID)
	m.SetBulk()
	m.SetGenHeaderPreformatted(gomail.HeaderListUnsubscribe, "<"+e.UnsubscribeURL+">, <"+snd.Mailto+">")
	m.SetGenHeaderPreformatted(gomail.HeaderListUnsubscribePost, "List-Unsubscribe=One-Click")
	m.SetGenHeader(gomail.Header("List-Id"), e.ListID)
	m.SetBodyString(gomail.TypeTextPlain, e.Text)
	m.AddAlternativeString(gomail.TypeTextHTML, e.HTML)
	return m, nil
}

// Dir is a Transport writing each message to DIR/NAME.eml, the default
// when no SMTP server is configured.
type Dir struct{ Path string }

// Deliver writes the message whole or not at all (a temporary file renamed).
func (d Dir) Deliver(_ context.Context, m *gomail.Msg, name string) error {
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		return err
	}
	final := filepath.Join(d.Path, name+".eml")
	tmp := final + ".tmp"
	if err := m.WriteToFile(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, final)
}

func (Dir) Close() error { return nil }

// SMTP is a Transport through an SMTP server, one connection per run.
type SMTP struct {
	client *gomail.Client
	dialed bool
}

// NewSMTP connects to the server of rawURL when the first message goes:
// smtp://user:pass@host:587 (STARTTLS required), smtps://...:465
// (implicit TLS); ?tls=none allows a plain connection (a local relay or a
// test server only).
func NewSMTP(rawURL string) (*SMTP, error) {
	u, err := parseSMTPURL(rawURL)
	if err != nil {
		return nil, err
	}
	opts := []gomail.Option{gomail.WithPort(u.port), gomail.WithTimeout(30 * time.Second)}
	switch {
	case u.implicitTLS:
		opts = append(opts, gomail.WithSSL())
	case u.noTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if u.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(u.user), gomail.WithPassword(u.pass))
	}
	c, err := gomail.NewClient(u.host, opts...)
	if err != nil {
		return nil, err
	}
	return &SMTP{client: c}, nil
}

type smtpURL struct {
	host, user, pass   string
	port               int
	implicitTLS, noTLS bool
}

func parseSMTPURL(raw string) (smtpURL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return smtpURL{}, fmt.Errorf("SMTP_URL: %w", err)
	}
	out := smtpURL{host: u.Hostname(), implicitTLS: u.Scheme == "smtps"}
	if u.Scheme != "smtp" && u.Scheme != "smtps" || out.host == "" {
		return smtpURL{}, errors.New("SMTP_URL: want smtp://[user:pass@]host[:port] (STARTTLS) or smtps:// (TLS)")
	}
	switch tls := u.Query().Get("tls"); tls {
	case "", "required":
	case "none":
		out.noTLS = true
	default:
		return smtpURL{}, fmt.Errorf("SMTP_URL: tls=%q: use none (a local relay) or leave it out", tls)
	}
	out.port = 587
	if out.implicitTLS {
		out.port = 465
	}
	if p := u.Port(); p != "" {
		if out.port, err = strconv.Atoi(p); err != nil || out.port < 1 || out.port > 65535 {
			return smtpURL{}, fmt.Errorf("SMTP_URL: port %q", p)
		}
	}
	if u.User != nil {
		out.user = u.User.Username()
		out.pass, _ = u.User.Password()
	}
	return out, nil
}

// Deliver sends one message. A refused recipient is that message's
// error; a broken connection is dialled again once.
func (s *SMTP) Deliver(ctx context.Context, m *gomail.Msg, _ string) (err error) {
	defer func() { metrics.Emails.WithLabelValues(emailOutcome(err)).Inc() }()
	if !s.dialed {
		if err := s.client.DialWithContext(ctx); err != nil {
			return err
		}
		s.dialed = true
	}
	err = s.client.Send(m)
	var se *gomail.SendError
	if errors.As(err, &se) && se.Reason == gomail.ErrConnCheck {
		metrics.Emails.WithLabelValues("retried").Inc()
		s.client.Close()
		if err := s.client.DialWithContext(ctx); err != nil {
			return err
		}
		err = s.client.Send(m)
	}
	return err
}

// emailOutcome is how metrics.Emails counts a delivery's result.
func emailOutcome(err error) string {
	var se *gomail.SendError
	switch {
	case err == nil:
		return "sent"
	case errors.As(err, &se) && !se.IsTemp() && (se.Reason == gomail.ErrSMTPRcptTo || se.Reason == gomail.ErrSMTPData || se.Reason == gomail.ErrSMTPMailFrom):
		return "refused"
	}
	return "failed"
}

// Close ends the connection.
func (s *SMTP) Close() error {
	if !s.dialed {
		return nil
	}
	return s.client.Close()
}
