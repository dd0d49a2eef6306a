package api

import (
	"context"
	"crypto/rand"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
)

// The newsletter calls: subscribing, the list of subscribers
// (administrators), and the e-mails' unsubscribe links.

// newsletterParams are the parameters only the newsletter calls take.
var newsletterParams = map[string]*apispec.Param{
	"UnsubscribeToken": {Component: "UnsubscribeToken", Name: "token", In: "query", Required: true, Raw: true,
		Description: "The signed unsubscribe token of the subscriber's e-mail link (the subscriber's id and an HMAC-SHA256 of it).",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(200)}},
}

type tokenIn struct {
	Token string `param:"UnsubscribeToken"`
}

func newsletterRoutes() []*route {
	return []*route{
		limited(func(h *Handler) func(http.Handler) http.Handler {
			return h.rateLimit("subscribe", h.nlCfg.SubscribeLimit, h.nlCfg.LimitWindow, "Too many attempts; try again later")
		}, handle(opSubscribe, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.subscribe(w, r) })),
		admin(handle(opListSubscribers, func(h *Handler, w http.ResponseWriter, r *http.Request, in pageIn) {
			listPage(h, w, r, in.page(), in.page(), h.store.ListSubscribers)
		})),
		handle(opUnsubscribePage, func(h *Handler, w http.ResponseWriter, r *http.Request, in tokenIn) {
			h.unsubscribePage(w, r, in.Token)
		}),
		handle(opUnsubscribe, func(h *Handler, w http.ResponseWriter, r *http.Request, in tokenIn) { h.unsubscribe(w, r, in.Token) }),
	}
}

// hLocation is a redirect's target.
var hLocation = &apispec.Header{Name: "Location", Schema: apispec.Schema{Type: "string"}}

var opSubscribe = &apispec.Operation{ID: "subscribe", Method: "POST", Path: "/newsletter/subscribe",
	Summary:     "Subscribe an address to the monthly newsletter.",
	Description: "The address must be valid ('Please enter a valid email address'); it is unique whatever its case, so subscribing again updates names and topics (200 updated) or re-activates an unsubscribed address (200 reactivated). Topics default to regulatory and payments; source to website. An HTML form (application/x-www-form-urlencoded, without JavaScript) gets 303 to the site's confirmation page, or a page naming the problem. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SubscribeRequest]()}, {MediaType: "application/x-www-form-urlencoded", Raw: map[string]any{"properties": map[string]any{"email": map[string]any{"type": "string"}, "firstName": map[string]any{"type": "string"}, "lastName": map[string]any{"type": "string"}, "preferences": map[string]any{"items": map[string]any{"type": "string"}, "type": "array"}, "source": map[string]any{"type": "string"}}, "type": "object"}}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The address was already on the list: updated or re-activated.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SubscribeResponse]()}}},
		{Status: 201, Description: "A new subscriber.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SubscribeResponse]()}}},
		{Status: 303, Description: "A form's signup stored: see the site's confirmation page (/newsletter/subscribed?status=...).",
			Headers: []*apispec.Header{hLocation}},
		{Status: 400, Description: "A field or the body is not acceptable (a form gets a page saying which).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}, {MediaType: "text/html", Raw: map[string]any{"type": "string"}}}},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var opListSubscribers = &apispec.Operation{ID: "listSubscribers", Method: "GET", Path: "/newsletter/subscribers",
	Summary: "Every subscriber, active or not, latest subscription first (administrators only).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]newsletter.Subscriber]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rForbidden.At(403),
		rInternalError.At(500)},
}

var opUnsubscribePage = &apispec.Operation{ID: "unsubscribePage", Method: "GET", Path: "/newsletter/unsubscribe",
	Summary:     "The page an e-mail's unsubscribe link opens: one button that confirms.",
	Description: "Changes nothing (mail scanners open links); the button POSTs to the same URL.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The confirmation page.",
			Content: []apispec.Content{{MediaType: "text/html", Raw: map[string]any{"type": "string"}}}},
		{Status: 400, Description: "The token is not valid: a page saying so.",
			Content: []apispec.Content{{MediaType: "text/html", Raw: map[string]any{"type": "string"}}}}},
}

var opUnsubscribe = &apispec.Operation{ID: "unsubscribe", Method: "POST", Path: "/newsletter/unsubscribe",
	Summary:     "Unsubscribe, without signing in; idempotent.",
	Description: "The confirmation page's button gets 303 to the site's /newsletter/unsubscribed page. A mail client's one-click request (RFC 8058: body List-Unsubscribe=One-Click) gets 200.",
	Body:        rOneClickBody,
	Responses: []*apispec.Response{
		{Status: 200, Description: "Unsubscribed (or already).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[UnsubscribeResponse]()}}},
		{Status: 303, Description: "Unsubscribed: see the site's confirmation page.",
			Headers: []*apispec.Header{hLocation}},
		{Status: 400, Description: "The token is not valid.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rInternalError.At(500)},
}

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
			writeMailPage(w, r, http.StatusBadRequest, pageData{Title: "Subscription failed", Message: "The form could not be read. Please try again.", Back: "/newsletter"})
			return
		}
		req = SubscribeRequest{Email: r.PostForm.Get("email"), FirstName: r.PostForm.Get("firstName"),
			LastName: r.PostForm.Get("lastName"), Source: r.PostForm.Get("source"), Preferences: r.PostForm["preferences"]}
	} else if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	in, err := checkSignup(req)
	in.Language = requestLanguage(r).Code
	if err != nil {
		if form {
			writeMailPage(w, r, http.StatusBadRequest, pageData{Title: "Subscription failed", Message: err.Error(), Back: "/newsletter#subscribe"})
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
	writeJSON(w, code, SubscribeResponse{Status: status, Message: translate(requestLanguage(r), subscribeMessages[status])})
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
		writeMailPage(w, r, http.StatusBadRequest, pageData{Title: "Link not valid",
			Message: "This unsubscribe link is not valid. Use the link in the latest newsletter e-mail.", Back: "/newsletter"})
		return
	}
	action := (&url.URL{Path: "/api/newsletter/unsubscribe", RawQuery: url.Values{"token": {token}}.Encode()}).String()
	writeMailPage(w, r, http.StatusOK, pageData{Title: "Unsubscribe from the RegPulse newsletter",
		Message: "Press the button to stop receiving the monthly newsletter. You can subscribe again at any time.",
		Action:  action, Back: "/"})
}

// unsubscribe is POST /newsletter/unsubscribe?token=: the confirmation
// page's button (303 to the site's confirmation) or a mail client's
// one-click request (200 JSON).
func (h *Handler) unsubscribe(w http.ResponseWriter, r *http.Request, token string) {
	h.unsubscribeLink(w, r, token, h.nlCfg.Tokens.Parse, func(ctx context.Context, id string) error {
		_, err := h.store.Unsubscribe(ctx, id)
		if errors.Is(err, newsletter.ErrNoSubscriber) {
			return nil // a valid token of a removed subscriber: nothing left to stop
		}
		return err
	}, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, UnsubscribedPage, http.StatusSeeOther)
	})
}
