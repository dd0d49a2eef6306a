package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
)

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
		Name          string   `json:"name" check:"alertName"`
		Query         string   `json:"query,omitempty" check:"alertQuery"`
		Sources       []string `json:"sources,omitempty"`
		Categories    []string `json:"categories,omitempty"`
		DocumentTypes []string `json:"documentTypes,omitempty"`
		ImpactLevels  []string `json:"impactLevels,omitempty"`
		Frequency     string   `json:"frequency"`
		Enabled       *bool    `json:"enabled,omitempty"` // left out: on
	}
	// AlertSubscribeRequest is POST /alerts/subscribe's body: an
	// anonymous subscription to a search.
	AlertSubscribeRequest struct {
		Email         string   `json:"email" check:"subscriberEmail"`
		Query         string   `json:"query,omitempty" check:"alertQuery"`
		Sources       []string `json:"sources,omitempty"`
		Categories    []string `json:"categories,omitempty"`
		DocumentTypes []string `json:"documentTypes,omitempty"`
		ImpactLevels  []string `json:"impactLevels,omitempty"`
		Frequency     string   `json:"frequency"`
	}
	// AlertSubscribeResponse says what happens next.
	AlertSubscribeResponse struct {
		Status  string `json:"status"` // "pending": waiting for the link to be followed
		Message string `json:"message"`
	}
)

// checkAlert checks a saved search's fields and makes the alert.
func checkAlert(f fieldErrors, name, query string, sources, categories, types, levels []string, frequency string) alerts.Alert {
	list := func(field string, l, allowed []string) []string {
		if l == nil {
			l = []string{}
		}
		checkChoices(f, field, l, allowed)
		return l
	}
	a := alerts.Alert{Kind: alerts.KindSearch, Name: strings.TrimSpace(name), Query: strings.TrimSpace(query),
		Sources: list("sources", sources, alerts.FilterSources), Categories: list("categories", categories, alerts.FilterCategories),
		DocumentTypes: list("documentTypes", types, alerts.FilterDocumentTypes),
		ImpactLevels:  list("impactLevels", levels, alerts.FilterImpactLevels), Frequency: frequency, Enabled: true}
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
	a := checkAlert(f, req.Name, req.Query, req.Sources, req.Categories, req.DocumentTypes, req.ImpactLevels, req.Frequency)
	if req.Enabled != nil {
		a.Enabled = *req.Enabled
	}
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
	a := checkAlert(f, name, req.Query, req.Sources, req.Categories, req.DocumentTypes, req.ImpactLevels, req.Frequency)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	a.Email = strings.TrimSpace(req.Email)
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
		writeNewsletterPage(w, http.StatusBadRequest, pageData{Title: "Link not valid", Message: err.Error() + ".", Back: "/search"})
		return
	}
	writeNewsletterPage(w, http.StatusOK, pageData{Title: "Confirm your RegPulse alert",
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
		writeNewsletterPage(w, http.StatusBadRequest, pageData{Title: "Link not valid", Message: "This confirmation link is not valid or has expired. Subscribe again to get a new one.", Back: "/search"})
	case err != nil:
		h.writeError(w, r, err)
	default:
		writeNewsletterPage(w, http.StatusOK, pageData{Title: "Alert confirmed",
			Message: "Your alert is on. Every e-mail it sends has a link to unsubscribe from it.", Back: "/"})
	}
}

// alertUnsubscribePage is GET /alerts/unsubscribe?token=.
func (h *Handler) alertUnsubscribePage(w http.ResponseWriter, r *http.Request, token string) {
	if _, err := h.alCfg.Tokens.ParseUnsubscribe(token); err != nil {
		writeNewsletterPage(w, http.StatusBadRequest, pageData{Title: "Link not valid",
			Message: "This unsubscribe link is not valid. Use the link in the latest alert e-mail.", Back: "/"})
		return
	}
	writeNewsletterPage(w, http.StatusOK, pageData{Title: "Unsubscribe from this RegPulse alert",
		Message: "Press the button to stop this alert's e-mails. Your other alerts are not changed.", Button: "Unsubscribe",
		Action: (&url.URL{Path: "/api/alerts/unsubscribe", RawQuery: url.Values{"token": {token}}.Encode()}).String(), Back: "/profile#alerts"})
}

// alertUnsubscribe is POST /alerts/unsubscribe?token=: turns that alert
// off, without signing in. The page's button gets a page; a mail
// client's one-click request (RFC 8058) 200 JSON. Idempotent.
func (h *Handler) alertUnsubscribe(w http.ResponseWriter, r *http.Request, token string) {
	id, err := h.alCfg.Tokens.ParseUnsubscribe(token)
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
	if _, err := h.store.StopAlert(r.Context(), id); err != nil && !errors.Is(err, alerts.ErrNoAlert) {
		h.writeError(w, r, err) // a deleted alert has nothing left to stop
		return
	}
	if !oneClick {
		writeNewsletterPage(w, http.StatusOK, pageData{Title: "Unsubscribed",
			Message: "This alert sends no more e-mails. Signed in, you can turn it on again under Alerts on your profile.", Back: "/profile#alerts"})
		return
	}
	writeJSON(w, http.StatusOK, UnsubscribeResponse{Status: "unsubscribed"})
}
