package mail

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/metrics"
)

// Transport delivers built messages: SMTP, or .eml files in a folder.
type Transport interface {
	// Deliver sends m; name names it where a transport keeps it (a file).
	Deliver(ctx context.Context, m *gomail.Msg, name string) error
	Close() error
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
