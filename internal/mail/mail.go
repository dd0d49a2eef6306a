// Package mail sends RegPulse's e-mails: who sends them (Sender), each
// message with its one-click unsubscribe headers (Message, RFC 8058 and
// RFC 2369), how it leaves (Transport: SMTP, or .eml files in a folder),
// the signed tokens of the links it carries (Tokens), the links under the
// site's address (Site), and the HTML every e-mail shares (HTMLTemplates).
// The newsletter's digest and the alerts use it; it knows neither. It
// holds no SQL and no HTTP.
package mail

import (
	"fmt"
	netmail "net/mail"
	"net/url"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Sender is who sends RegPulse's e-mails: the From address, its domain,
// which names Message-IDs and List-Ids, and the List-Unsubscribe mailbox.
type Sender struct {
	From   *netmail.Address
	Domain string
	Mailto string // mailto:... for List-Unsubscribe
}

// NewSender reads from (e.g. "RegPulse <newsletter@regpulse.in>"); an
// empty unsubscribeMailto is from's address with subject "unsubscribe".
func NewSender(from, unsubscribeMailto string) (Sender, error) {
	addr, err := netmail.ParseAddress(from)
	if err != nil {
		return Sender{}, fmt.Errorf("from address %q: %w", from, err)
	}
	_, domain, _ := strings.Cut(addr.Address, "@")
	if unsubscribeMailto == "" {
		unsubscribeMailto = "mailto:" + addr.Address + "?subject=unsubscribe"
	}
	return Sender{From: addr, Domain: domain, Mailto: unsubscribeMailto}, nil
}

// Message is one e-mail: its recipient, subject, identity and bodies.
type Message struct {
	ToName, To         string
	Subject, MessageID string
	Date               time.Time
	ListID             string // List-Id: "Name <id.domain>"
	// UnsubscribeURL is the one-click unsubscribe link (RFC 8058) of
	// what this message is for: a POST of OneClick to it stops it. ""
	// for a one-off message (an invitation): no list headers.
	UnsubscribeURL string
	Text, HTML     string
}

// OneClick is the body of a one-click unsubscribe request (RFC 8058),
// which a message's List-Unsubscribe-Post announces.
const OneClick = "List-Unsubscribe=One-Click"

// IsOneClick reports whether a form POSTed to an unsubscribe link is a
// mail client's one-click request (RFC 8058), not a person's.
func IsOneClick(form url.Values) bool {
	name, value, _ := strings.Cut(OneClick, "=")
	return form.Get(name) == value
}

// Build makes m, sent by snd, as multipart/alternative (plain text first,
// HTML preferred) with its own Message-ID and, when it has an
// UnsubscribeURL (a list's message), the one-click unsubscribe headers of
// RFC 8058 and RFC 2369 and bulk precedence.
func (snd Sender) Build(m Message) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	msg.SetAddrHeaderFromMailAddress(gomail.HeaderFrom, snd.From)
	if err := msg.AddToFormat(m.ToName, m.To); err != nil {
		return nil, err
	}
	msg.Subject(m.Subject)
	msg.SetDateWithValue(m.Date)
	msg.SetMessageIDWithValue(m.MessageID)
	if m.UnsubscribeURL != "" { // a list's message; a one-off (an invitation) is none
		msg.SetBulk()
		msg.SetGenHeaderPreformatted(gomail.HeaderListUnsubscribe, "<"+m.UnsubscribeURL+">, <"+snd.Mailto+">")
		msg.SetGenHeaderPreformatted(gomail.HeaderListUnsubscribePost, OneClick)
		msg.SetGenHeader(gomail.Header("List-Id"), m.ListID)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	return msg, nil
}
