package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/webhooks"
)

// The alert calls: a user's alerts, their feeds, anonymous subscriptions
// and the e-mails' links.

// alertParams are the parameters only the alert calls take.
var alertParams = map[string]*apispec.Param{
	"AlertID": {Name: "id", In: "path", Required: true, Description: "The alert's id.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
	"AlertToken": {Component: "AlertToken", Name: "token", In: "query", Required: true, Raw: true,
		Description: "The signed token of an alert e-mail's link (the alert's id and an HMAC-SHA256 of it; a confirmation's also carries its expiry).",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(200)}},
	"FeedToken": {Name: "token", In: "query", Required: true, Raw: true,
		Description: "The alert's private feed token (from GET /alerts): unguessable; renewing it ends the old feed URL.",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(100)}},
}

type (
	alertIn struct {
		ID string `param:"AlertID"`
	}
	alertTokenIn struct {
		Token string `param:"AlertToken"`
	}
	feedTokenIn struct {
		Token string `param:"FeedToken"`
	}
)

func alertRoutes() []*route {
	return []*route{
		signedIn(handle(opListAlerts, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.listAlerts(w, r) })),
		signedIn(handle(opCreateAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.createAlert(w, r) })),
		signedIn(handle(opUpdateAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertIn) { h.updateAlert(w, r, in.ID) })),
		signedIn(handle(opDeleteAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertIn) { h.deleteAlert(w, r, in.ID) })),
		signedIn(handle(opRenewAlertFeed, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertIn) { h.renewFeedToken(w, r, in.ID) })),
		handle(opAlertFeed, func(h *Handler, w http.ResponseWriter, r *http.Request, in feedTokenIn) { h.alertFeed(w, r, in.Token) }),
		limited(func(h *Handler) func(http.Handler) http.Handler {
			return h.rateLimit("alert-subscribe", h.alCfg.SubscribeLimit, h.alCfg.LimitWindow, "Too many attempts; try again later")
		}, handle(opSubscribeAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.subscribeAlert(w, r) })),
		handle(opConfirmAlertPage, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.confirmAlertPage(w, r, in.Token)
		}),
		handle(opConfirmAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.confirmAlert(w, r, in.Token)
		}),
		handle(opAlertUnsubscribePage, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.alertUnsubscribePage(w, r, in.Token)
		}),
		handle(opAlertUnsubscribe, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.alertUnsubscribe(w, r, in.Token)
		}),
	}
}

var rAlertNotFound = &apispec.Response{Component: "AlertNotFound", Description: "No alert of the signed-in user has that id (another user's alert is not found either).",
	Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}

// alertBodyNote says what an alert's body takes.
const alertBodyNote = "name 1 to 100 characters; query at most 400 characters (empty: every circular passing the filters; matched as the search's strong matches: every word in the number, title or summary, or the number as typed); sources from RBI, NPCI, SEBI, IRDAI, PFRDA, PRB, IDRBT; categories from the search's categories; documentTypes from the circulars' document types; impactLevels from high, medium, low; each list optional (empty: any) with each value at most once; frequency immediately, daily or weekly."

var opListAlerts = &apispec.Operation{ID: "listAlerts", Method: "GET", Path: "/alerts",
	Summary:     "The signed-in user's alerts: their preferences' first, then their saved searches, oldest first.",
	Description: "The preferences' alert follows the preferences (sources, impact levels, categories, entity types; on while e-mail notifications are). lastSentAt is the last e-mail it sent; feedToken makes its private feed URL (/api/alerts/feed?token=).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The alerts.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]alerts.Alert]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opCreateAlert = &apispec.Operation{ID: "createAlert", Method: "POST", Path: "/alerts",
	Summary:     "Save a search as an alert of the signed-in user.",
	Description: "The body: " + alertBodyNote + " Only circulars reaching the store after the alert is made are sent.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Created.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[alerts.Alert]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opUpdateAlert = &apispec.Operation{ID: "updateAlert", Method: "PUT", Path: "/alerts/{id}",
	Summary:     "Change one of the signed-in user's alerts: edit, pause (enabled false) or resume.",
	Description: "The body as for POST /alerts. For the preferences' alert only frequency and enabled apply (enabled is the preferences' e-mail notifications); its filters are the preferences'.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[alerts.Alert]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rAlertNotFound.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opDeleteAlert = &apispec.Operation{ID: "deleteAlert", Method: "DELETE", Path: "/alerts/{id}",
	Summary: "Delete one of the signed-in user's saved searches.",
	Responses: []*apispec.Response{
		{Status: 204, Description: "Deleted; no body."},
		rUnauthorized.At(401),
		rAlertNotFound.At(404),
		{Status: 409, Description: "The preferences' alert cannot be deleted: turn it off.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rInternalError.At(500)},
}

var opRenewAlertFeed = &apispec.Operation{ID: "renewAlertFeed", Method: "POST", Path: "/alerts/{id}/feed-token",
	Summary: "Give one of the signed-in user's alerts a new feed token: the old feed URL stops working.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The alert with its new token.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[alerts.Alert]()}}},
		rUnauthorized.At(401),
		rAlertNotFound.At(404),
		rInternalError.At(500)},
}

var opAlertFeed = &apispec.Operation{ID: "alertFeed", Method: "GET", Path: "/alerts/feed",
	Summary:     "An alert's private Atom feed: the newest 50 circulars it matched, newest first.",
	Description: "For feed readers and Slack or Teams integrations; the token is the only key, so keep the URL private.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The feed (Atom 1.0).",
			Content: []apispec.Content{{MediaType: "application/atom+xml", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		{Status: 404, Description: "No alert has this token: it was renewed, or the alert deleted.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rInternalError.At(500)},
}

var opSubscribeAlert = &apispec.Operation{ID: "subscribeAlert", Method: "POST", Path: "/alerts/subscribe",
	Summary:     "Subscribe an e-mail address to a search, without an account (double opt-in).",
	Description: "The body: a valid email and the search (" + alertBodyNote + ") The address gets a confirmation link (valid 7 days); nothing else is sent before it is followed. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertSubscribeRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 202, Description: "Stored, waiting for confirmation.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertSubscribeResponse]()}}},
		rBadBody.At(400),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var htmlPage = []apispec.Content{{MediaType: "text/html", Raw: map[string]any{"type": "string"}}}

var opConfirmAlertPage = &apispec.Operation{ID: "confirmAlertPage", Method: "GET", Path: "/alerts/confirm",
	Summary:     "The page a confirmation e-mail's link opens: one button that confirms.",
	Description: "Changes nothing (mail scanners open links); the button POSTs to the same URL.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The confirmation page.", Content: htmlPage},
		{Status: 400, Description: "The token is forged or expired: a page saying so.", Content: htmlPage}},
}

var opConfirmAlert = &apispec.Operation{ID: "confirmAlert", Method: "POST", Path: "/alerts/confirm",
	Summary: "Confirm an anonymous subscription; idempotent.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "Confirmed: a page saying so.", Content: htmlPage},
		{Status: 400, Description: "The token is forged or expired, or the subscription gone: a page saying so.", Content: htmlPage},
		rInternalError.At(500)},
}

var opAlertUnsubscribePage = &apispec.Operation{ID: "alertUnsubscribePage", Method: "GET", Path: "/alerts/unsubscribe",
	Summary:     "The page an alert e-mail's unsubscribe link opens: one button that stops that alert.",
	Description: "Changes nothing; the button POSTs to the same URL.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The page.", Content: htmlPage},
		{Status: 400, Description: "The token is not valid: a page saying so.", Content: htmlPage}},
}

var opAlertUnsubscribe = &apispec.Operation{ID: "alertUnsubscribe", Method: "POST", Path: "/alerts/unsubscribe",
	Summary:     "Stop one alert's e-mails, without signing in; idempotent.",
	Description: "The page's button gets a page saying it is done. A mail client's one-click request (RFC 8058: body List-Unsubscribe=One-Click) gets 200 JSON. Other alerts are not changed.",
	Body:        rOneClickBody,
	Responses:   unsubscribeLinkResponses,
}

// Alerts is what the alert calls need from persistence.
type Alerts interface {
	CreateAlert(ctx context.Context, a alerts.Alert) (alerts.Alert, error)
	UserAlerts(ctx context.Context, userID string) ([]alerts.Alert, error)
	// UpdateAlert, DeleteAlert and RenewFeedToken answer
	// alerts.ErrNoAlert for an alert that is not the user's.
	UpdateAlert(ctx context.Context, userID, id string, a alerts.Alert) (alerts.Alert, error)
	DeleteAlert(ctx context.Context, userID, id string) error
	RenewFeedToken(ctx context.Context, userID, id string) (alerts.Alert, error)
	AlertByFeedToken(ctx context.Context, token string) (alerts.Alert, error)
	AlertCirculars(ctx context.Context, alertID string, limit int) ([]catalog.Circular, error)
	ConfirmAlert(ctx context.Context, id string) (alerts.Alert, error)
	StopAlert(ctx context.Context, id string) (alerts.Alert, error)
}

// AlertsConfig configures the alert calls; zero fields take defaults.
type AlertsConfig struct {
	// Tokens checks the e-mails' confirmation and unsubscribe links; nil:
	// a random key for this process.
	Tokens *alerts.Tokens
	// SubscribeLimit is the anonymous subscriptions a client address may
	// ask for per LimitWindow.
	SubscribeLimit int
	LimitWindow    time.Duration
	// Channels is the address policy of the alerts' chat channels (the
	// webhooks'; AllowLoopback for tests and local development).
	Channels webhooks.AddressPolicy
}

// WithAlerts configures the alert calls.
func WithAlerts(c AlertsConfig) Option { return func(h *Handler) { h.alCfg = c } }

func (h *Handler) initAlerts() {
	c := &h.alCfg
	if c.Tokens == nil {
		c.Tokens, _ = alerts.NewTokens(processSecret())
	}
	subscribeDefaults(&c.SubscribeLimit, &c.LimitWindow)
}

// feedEntriesAlert is how many circulars an alert's feed holds.
const feedEntriesAlert = 50

// Request and response bodies of the alert calls.
type (
	// AlertRequest is POST /alerts' and PUT /alerts/{id}'s body: a saved
	// search. Lists left out are empty (any value).
	AlertRequest struct {
		Name  string `json:"name" check:"alertName"`
		Query string `json:"query,omitempty" check:"alertQuery"`
		// The filters, each optional (see the JSON tag's omitempty).
		alerts.Filters `json:",omitempty"`
		Frequency      string `json:"frequency"`
		Enabled        *bool  `json:"enabled,omitempty"` // left out: on
		// ChannelKind (slack or teams) and ChannelURL are a chat channel
		// each match is posted to at once, besides the e-mails: a Slack
		// incoming webhook (https://hooks.slack.com/...) or a Teams
		// Workflows webhook (*.logic.azure.com, *.powerplatform.com).
		// Left out or "": none (a channel the alert had is removed).
		ChannelKind string `json:"channelKind,omitempty"`
		ChannelURL  string `json:"channelUrl,omitempty" check:"channelUrl"`
	}
	// AlertSubscribeRequest is POST /alerts/subscribe's body: an
	// anonymous subscription to a search.
	AlertSubscribeRequest struct {
		Email          string `json:"email" check:"subscriberEmail"`
		Query          string `json:"query,omitempty" check:"alertQuery"`
		alerts.Filters `json:",omitempty"`
		Frequency      string `json:"frequency"`
	}
	// AlertSubscribeResponse says what happens next.
	AlertSubscribeResponse struct {
		Status  string `json:"status"` // "pending": waiting for the link to be followed
		Message string `json:"message"`
	}
)

// checkAlert checks a saved search's fields and makes the alert. A list
// left out is empty (any value).
func checkAlert(f fieldErrors, name, query string, filters alerts.Filters, frequency string) alerts.Alert {
	list := func(field string, l, allowed []string) []string {
		if l == nil {
			l = []string{}
		}
		checkChoices(f, field, l, allowed)
		return l
	}
	a := alerts.Alert{Kind: alerts.KindSearch, Name: strings.TrimSpace(name), Query: strings.TrimSpace(query),
		Filters: alerts.Filters{
			Sources:       list("sources", filters.Sources, alerts.FilterSources),
			Categories:    list("categories", filters.Categories, alerts.FilterCategories),
			DocumentTypes: list("documentTypes", filters.DocumentTypes, alerts.FilterDocumentTypes),
			ImpactLevels:  list("impactLevels", filters.ImpactLevels, alerts.FilterImpactLevels)},
		Frequency: frequency, Enabled: true}
	if !slices.Contains(alerts.Frequencies, frequency) {
		f.add("frequency", "use one of: "+strings.Join(alerts.Frequencies, ", "))
	}
	return a
}

func (h *Handler) listAlerts(w http.ResponseWriter, r *http.Request) {
	list, err := h.store.UserAlerts(r.Context(), userOf(r).ID)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// alertFromBody reads and checks an AlertRequest.
func (h *Handler) alertFromBody(w http.ResponseWriter, r *http.Request) (alerts.Alert, bool) {
	var req AlertRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return alerts.Alert{}, false
	}
	f := fieldErrors{}
	checkFields(f, &req)
	a := checkAlert(f, req.Name, req.Query, req.Filters, req.Frequency)
	if req.Enabled != nil {
		a.Enabled = *req.Enabled
	}
	a.ChannelKind, a.ChannelURL = checkAlertChannel(f, h.alCfg.Channels, req.ChannelKind, strings.TrimSpace(req.ChannelURL))
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return a, false
	}
	return a, true
}

func (h *Handler) createAlert(w http.ResponseWriter, r *http.Request) {
	a, ok := h.alertFromBody(w, r)
	if !ok {
		return
	}
	a.UserID = userOf(r).ID
	created, err := h.store.CreateAlert(r.Context(), a)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, created)
}

func (h *Handler) updateAlert(w http.ResponseWriter, r *http.Request, id string) {
	a, ok := h.alertFromBody(w, r)
	if !ok {
		return
	}
	got, err := h.store.UpdateAlert(r.Context(), userOf(r).ID, id, a)
	if err != nil {
		h.writeError(w, r, alertError(err))
		return
	}
	writeJSON(w, http.StatusOK, got)
}

func (h *Handler) deleteAlert(w http.ResponseWriter, r *http.Request, id string) {
	if err := h.store.DeleteAlert(r.Context(), userOf(r).ID, id); err != nil {
		h.writeError(w, r, alertError(err))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) renewFeedToken(w http.ResponseWriter, r *http.Request, id string) {
	a, err := h.store.RenewFeedToken(r.Context(), userOf(r).ID, id)
	if err != nil {
		h.writeError(w, r, alertError(err))
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// alertError gives the store's alert errors their status: someone else's
// alert is not found, as a missing one.
func alertError(err error) error {
	switch {
	case errors.Is(err, alerts.ErrNoAlert):
		return errorStatus(http.StatusNotFound, "No alert of yours has that id")
	case errors.Is(err, alerts.ErrPreferencesAlert):
		return errorStatus(http.StatusConflict, "The alert of your preferences cannot be deleted; turn it off instead")
	}
	return err
}

// alertFeed is GET /alerts/feed?token=: the alert's matched circulars as
// Atom. The token is the feed's secret: a renewed one ends the old.
func (h *Handler) alertFeed(w http.ResponseWriter, r *http.Request, token string) {
	a, err := h.store.AlertByFeedToken(r.Context(), token)
	if errors.Is(err, alerts.ErrNoAlert) {
		h.writeError(w, r, errorStatus(http.StatusNotFound, "No alert has this feed token: it was renewed, or the alert deleted"))
		return
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	cs, err := h.store.AlertCirculars(r.Context(), a.ID, feedEntriesAlert)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	origin := siteOrigin(r)
	body, err := circularsAtom(cs, "RegPulse alert: "+a.Name, "urn:regpulse:alert:"+a.ID,
		origin+"/api/alerts/feed?"+url.Values{"token": {token}}.Encode(), origin+"/profile#alerts", origin)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	writeRevalidated(w, r, "application/atom+xml; charset=utf-8", body)
}

// subscribeAlert is POST /alerts/subscribe: an anonymous subscription,
// stored unconfirmed; the alerts' next run e-mails its confirmation link,
// and nothing else is sent before the link is followed.
func (h *Handler) subscribeAlert(w http.ResponseWriter, r *http.Request) {
	var req AlertSubscribeRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	name := strings.TrimSpace(req.Query)
	if name == "" {
		name = "New circulars"
	}
	a := checkAlert(f, name, req.Query, req.Filters, req.Frequency)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	a.Email = strings.TrimSpace(req.Email)
	// Its e-mails (the confirmation first) in the language of the page
	// the subscription was made on.
	a.Language = requestLanguage(r).Code
	if _, err := h.store.CreateAlert(r.Context(), a); err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, AlertSubscribeResponse{Status: "pending",
		Message: "Check your inbox: we sent a confirmation link to " + a.Email + ". Nothing is sent before you confirm."})
}

// confirmAlertPage is GET /alerts/confirm?token=: one button (mail
// scanners open links, so the GET changes nothing).
func (h *Handler) confirmAlertPage(w http.ResponseWriter, r *http.Request, token string) {
	if _, err := h.alCfg.Tokens.ParseConfirm(token, h.now()); err != nil {
		writeMailPage(w, r, http.StatusBadRequest, pageData{Title: "Link not valid",
			Message: "This confirmation link is not valid or has expired. Subscribe again to get a new one.", Back: "/search"})
		return
	}
	writeMailPage(w, r, http.StatusOK, pageData{Title: "Confirm your RegPulse alert",
		Message: "Press the button to start receiving this alert by e-mail.", Button: "Confirm alert",
		Action: (&url.URL{Path: "/api/alerts/confirm", RawQuery: url.Values{"token": {token}}.Encode()}).String(), Back: "/"})
}

// confirmAlert is POST /alerts/confirm?token=: confirms (again,
// harmlessly) and answers a page saying so.
func (h *Handler) confirmAlert(w http.ResponseWriter, r *http.Request, token string) {
	id, err := h.alCfg.Tokens.ParseConfirm(token, h.now())
	if err == nil {
		_, err = h.store.ConfirmAlert(r.Context(), id)
	}
	switch {
	case errors.Is(err, alerts.ErrBadToken), errors.Is(err, alerts.ErrExpiredToken), errors.Is(err, alerts.ErrNoAlert):
		writeMailPage(w, r, http.StatusBadRequest, pageData{Title: "Link not valid", Message: "This confirmation link is not valid or has expired. Subscribe again to get a new one.", Back: "/search"})
	case err != nil:
		h.writeError(w, r, err)
	default:
		writeMailPage(w, r, http.StatusOK, pageData{Title: "Alert confirmed",
			Message: "Your alert is on. Every e-mail it sends has a link to unsubscribe from it.", Back: "/"})
	}
}

// alertUnsubscribePage is GET /alerts/unsubscribe?token=.
func (h *Handler) alertUnsubscribePage(w http.ResponseWriter, r *http.Request, token string) {
	if _, err := h.alCfg.Tokens.ParseUnsubscribe(token); err != nil {
		writeMailPage(w, r, http.StatusBadRequest, pageData{Title: "Link not valid",
			Message: "This unsubscribe link is not valid. Use the link in the latest alert e-mail.", Back: "/"})
		return
	}
	writeMailPage(w, r, http.StatusOK, pageData{Title: "Unsubscribe from this RegPulse alert",
		Message: "Press the button to stop this alert's e-mails. Your other alerts are not changed.", Button: "Unsubscribe",
		Action: (&url.URL{Path: "/api/alerts/unsubscribe", RawQuery: url.Values{"token": {token}}.Encode()}).String(), Back: "/profile#alerts"})
}

// alertUnsubscribe is POST /alerts/unsubscribe?token=: turns that alert
// off. The page's button gets a page; a mail client's one-click request
// 200 JSON.
func (h *Handler) alertUnsubscribe(w http.ResponseWriter, r *http.Request, token string) {
	h.unsubscribeLink(w, r, token, h.alCfg.Tokens.ParseUnsubscribe, func(ctx context.Context, id string) error {
		_, err := h.store.StopAlert(ctx, id)
		if errors.Is(err, alerts.ErrNoAlert) {
			return nil // a deleted alert has nothing left to stop
		}
		return err
	}, func(w http.ResponseWriter, r *http.Request) {
		writeMailPage(w, r, http.StatusOK, pageData{Title: "Unsubscribed",
			Message: "This alert sends no more e-mails. Signed in, you can turn it on again under Alerts on your profile.", Back: "/profile#alerts"})
	})
}

// checkAlertChannel checks an alert's chat channel: a kind of slack or
// teams with its service's webhook URL, or none (kind and URL empty).
func checkAlertChannel(f fieldErrors, p webhooks.AddressPolicy, kind, rawURL string) (string, string) {
	switch {
	case kind == "" && rawURL == "":
		return "", ""
	case kind != string(webhooks.KindSlack) && kind != string(webhooks.KindTeams):
		f.add("channelKind", "use slack or teams (or leave channelKind and channelUrl out for no channel)")
		return "", ""
	case rawURL == "":
		f.add("channelUrl", "give the channel's incoming webhook URL")
		return "", ""
	}
	if err := p.CheckEndpointURL(webhooks.Kind(kind), rawURL); err != nil {
		f.add("channelUrl", strings.TrimPrefix(err.Error(), "webhooks: "))
		return "", ""
	}
	return kind, rawURL
}
