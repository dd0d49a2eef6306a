package mail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html"
	"time"
)

// Operator tells whoever runs RegPulse of what it cannot fix itself (an
// ingest source gone stale, a regulator's page that changed shape), in a
// plain one-off e-mail to one address: ingest.Operator.
type Operator struct {
	Sender Sender
	To     string
	// Open opens the way out for each message ($SMTP_URL, or .eml files):
	// these are rare, so no connection is kept.
	Open func() (Transport, error)
	Now  func() time.Time // nil: time.Now
}

// Tell sends subject and text to the operator.
func (o Operator) Tell(ctx context.Context, subject, text string) error {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "operator-" + now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
	m, err := o.Sender.Build(Message{To: o.To, Subject: subject, MessageID: name + "@" + o.Sender.Domain, Date: now(),
		Text: text, HTML: `<pre style="white-space:pre-wrap;font-family:sans-serif">` + html.EscapeString(text) + "</pre>"})
	if err != nil {
		return fmt.Errorf("e-mail to the operator %s: %w", o.To, err)
	}
	tr, err := o.Open()
	if err != nil {
		return err
	}
	defer tr.Close()
	if err := tr.Deliver(ctx, m, name); err != nil {
		return fmt.Errorf("e-mail to the operator %s: %w", o.To, err)
	}
	return nil
}
