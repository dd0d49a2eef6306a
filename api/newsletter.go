package api

import (
	"context"
	"crypto/rand"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
)

// Subscribers is what the newsletter calls need from persistence.
type Subscribers interface {
	// Subscribe adds or updates the signup's address (unique in any case)
	// and says what it did (newsletter.Status*).
	Subscribe(ctx context.Context, s newsletter.Signup) (newsletter.Subscriber, string, error)
	ListSubscribers(ctx context.Context, page catalog.Page) ([]newsletter.Subscriber, int, error)
	// Unsubscribe answers newsletter.ErrNoSubscriber for an unknown id.
	Unsubscribe(ctx context.Context, id string) (newsletter.Subscriber, error)
}

// DefaultSubscribeLimit is how many signups a client address may send per
// DefaultLimitWindow.
const DefaultSubscribeLimit = 10

// NewsletterConfig configures the newsletter calls; zero fields take defaults.
type NewsletterConfig struct {
	// Tokens checks unsubscribe tokens; nil: a random key for this process
	// (links in sent e-mails stop working at a restart).
	Tokens *newsletter.Tokens
	// SubscribeLimit is the signups a client address may send per LimitWindow.
	SubscribeLimit int
	LimitWindow    time.Duration
}

// WithNewsletter configures the newsletter calls.
func WithNewsletter(c NewsletterConfig) Option {
	return func(h *Handler) { h.nlCfg = c }
}

// The site's pages a form without JavaScript is sent to.
const (
	SubscribedPage   = "/newsletter/subscribed"
	UnsubscribedPage = "/newsletter/unsubscribed"
)

// Request and response bodies of the newsletter calls.
type (
	// SubscribeRequest is POST /newsletter/subscribe's body.
	SubscribeRequest struct {
		Email       string   `json:"email" check:"subscriberEmail"`
		FirstName   string   `json:"firstName,omitempty" check:"optionalFirst"`
		LastName    string   `json:"lastName,omitempty" check:"optionalLast"`
		Preferences []string `json:"preferences,omitempty"` // topic ids; none: regulatory and payments
		Source      string   `json:"source,omitempty"`      // none: website
	}
	// SubscribeResponse says what a signup did, and a sentence to show.
	SubscribeResponse struct {
		Status  string `json:"status" enum:"NewsletterStatus"`
		Message string `json:"message"`
	}
	// UnsubscribeResponse answers a one-click unsubscribe.
	UnsubscribeResponse struct {
		Status string `json:"status"` // "unsubscribed"
	}
)

// subscribeMessages are the sentences each outcome of a signup shows.
var subscribeMessages = map[string]string{
	newsletter.StatusSubscribed:  "Thank you for subscribing to our newsletter. You'll receive our next update soon.",
	newsletter.StatusUpdated:     "You are already subscribed; your details and topics are updated.",
	newsletter.StatusReactivated: "Welcome back! Your subscription is active again.",
}

// initNewsletter gives the newsletter's configuration its defaults.
func (h *Handler) initNewsletter() {
	c := &h.nlCfg
	if c.Tokens == nil {
		c.Tokens, _ = newsletter.NewTokens(processSecret())
	}
	subscribeDefaults(&c.SubscribeLimit, &c.LimitWindow)
}

// processSecret is a random key for this process, for the links the
// newsletter and the alerts sign when none is configured: they do not
// outlive the process.
func processSecret() []byte {
	secret := make([]byte, 32)
	rand.Read(secret)
	return secret
}

// subscribeDefaults gives an anonymous subscription's limit per client
// address and its window their defaults (the newsletter's and the
// alerts' alike).
func subscribeDefaults(limit *int, window *time.Duration) {
	if *limit <= 0 {
		*limit = DefaultSubscribeLimit
	}
	if *window <= 0 {
		*window = DefaultLimitWindow
	}
}

// requireAdmin follows requireUser: other roles get 403.
func (h *Handler) requireAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if userOf(r).Role != auth.RoleAdmin {
			h.writeError(w, r, errorStatus(http.StatusForbidden, "Only administrators may do this"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isForm reports whether r's body is an HTML form's (a browser without
// JavaScript, or a mail client's one-click unsubscribe).
func isForm(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/x-www-form-urlencoded"
}

// subscribe is POST /newsletter/subscribe: 201 for a new address, 200 for
// one already known (updated or re-activated). A plain HTML form gets a
// 303 to the site's confirmation page, or a page naming the problem.
func (h *Handler) subscribe(w http.ResponseWriter, r *http.Request) {
	var req SubscribeRequest
	form := isForm(r)
	if form {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		if err := r.ParseForm(); err != nil {
			writeNewsletterPage(w, http.StatusBadRequest, pageData{Title: "Subscription failed", Message: "The form could not be read. Please try again.", Back: "/newsletter"})
			return
		}
		req = SubscribeRequest{Email: r.PostForm.Get("email"), FirstName: r.PostForm.Get("firstName"),
			LastName: r.PostForm.Get("lastName"), Source: r.PostForm.Get("source"), Preferences: r.PostForm["preferences"]}
	} else if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	in, err := checkSignup(req)
	if err != nil {
		if form {
			writeNewsletterPage(w, http.StatusBadRequest, pageData{Title: "Subscription failed", Message: err.Error(), Back: "/newsletter#subscribe"})
			return
		}
		h.writeError(w, r, err)
		return
	}
	_, status, err := h.store.Subscribe(r.Context(), in)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if form {
		http.Redirect(w, r, SubscribedPage+"?status="+status, http.StatusSeeOther)
		return
	}
	code := http.StatusOK
	if status == newsletter.StatusSubscribed {
		code = http.StatusCreated
	}
	writeJSON(w, code, SubscribeResponse{Status: status, Message: subscribeMessages[status]})
}

// checkSignup checks a signup: the address, optional names, the topics
// (none given: the defaults) and the source (none given: the footer's).
func checkSignup(req SubscribeRequest) (newsletter.Signup, error) {
	f := fieldErrors{}
	checkFields(f, &req)
	in := newsletter.Signup{Email: req.Email, FirstName: req.FirstName, LastName: req.LastName,
		Source: strings.TrimSpace(req.Source), Preferences: req.Preferences}
	if len(in.Preferences) == 0 {
		in.Preferences = nil // the store's defaults
	} else {
		checkChoices(f, "preferences", in.Preferences, newsletter.Topics)
	}
	switch {
	case in.Source == "":
		in.Source = newsletter.SourceWebsite
	case !slices.Contains(newsletter.Sources, in.Source):
		f.add("source", "unknown source "+in.Source+"; use one of: "+strings.Join(newsletter.Sources, ", "))
	}
	if err := f.err(); err != nil {
		if msg, ok := f["email"]; ok && len(f) == 1 {
			return in, &Error{Status: http.StatusBadRequest, Message: msg, Fields: f}
		}
		return in, err
	}
	return in, nil
}

// unsubscribePage is GET /newsletter/unsubscribe?token=: a page asking to
// confirm with one button. It changes nothing: mail scanners open links.
func (h *Handler) unsubscribePage(w http.ResponseWriter, r *http.Request, token string) {
	if _, err := h.nlCfg.Tokens.Parse(token); err != nil {
		writeNewsletterPage(w, http.StatusBadRequest, pageData{Title: "Link not valid",
			Message: "This unsubscribe link is not valid. Use the link in the latest newsletter e-mail.", Back: "/newsletter"})
		return
	}
	action := (&url.URL{Path: "/api/newsletter/unsubscribe", RawQuery: url.Values{"token": {token}}.Encode()}).String()
	writeNewsletterPage(w, http.StatusOK, pageData{Title: "Unsubscribe from the RegPulse newsletter",
		Message: "Press the button to stop receiving the monthly newsletter. You can subscribe again at any time.",
		Action:  action, Back: "/"})
}

// unsubscribe is POST /newsletter/unsubscribe?token=: the confirmation
// page's button (303 to the site's confirmation) or a mail client's
// one-click request (RFC 8058, body List-Unsubscribe=One-Click: 200 JSON).
// Unsubscribing twice is not an error.
func (h *Handler) unsubscribe(w http.ResponseWriter, r *http.Request, token string) {
	id, err := h.nlCfg.Tokens.Parse(token)
	if err != nil {
		h.writeError(w, r, &Error{Status: http.StatusBadRequest, Message: err.Error(), Fields: map[string]string{"token": "not valid"}})
		return
	}
	oneClick := true
	if isForm(r) {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		if err := r.ParseForm(); err == nil {
			oneClick = r.PostForm.Get("List-Unsubscribe") == "One-Click"
		}
	}
	if _, err := h.store.Unsubscribe(r.Context(), id); errors.Is(err, newsletter.ErrNoSubscriber) {
		// A valid token of a removed subscriber: nothing left to stop.
	} else if err != nil {
		h.writeError(w, r, err)
		return
	}
	if !oneClick {
		http.Redirect(w, r, UnsubscribedPage, http.StatusSeeOther)
		return
	}
	writeJSON(w, http.StatusOK, UnsubscribeResponse{Status: "unsubscribed"})
}
