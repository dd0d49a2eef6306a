package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// Webhooks and chat channels of an organisation (issue 47): its admins
// add endpoints (a signed webhook, a Slack incoming webhook, a Teams
// Workflows webhook) with the events each wants, change, turn off and on,
// remove them, rotate a webhook's secret, send a test event, read an
// endpoint's delivery log and resend a delivery. Every call is the
// admins' ("manage"): an endpoint's URL and secret are credentials. The
// secret is shown in the answer of create and rotate only. The sender
// (package webhooks, internal/store's deliveries) does the rest.

// Webhooks is what the webhook calls need of the store.
type Webhooks interface {
	WebhookEndpoints(ctx context.Context, orgID string) ([]webhooks.Endpoint, error)
	// WebhookEndpoint, UpdateWebhookEndpoint, DeleteWebhookEndpoint,
	// RotateWebhookSecret, WebhookDeliveries and SendWebhookTest answer
	// catalog.ErrNotFound for an endpoint the organisation has not.
	WebhookEndpoint(ctx context.Context, orgID, id string) (webhooks.Endpoint, error)
	// CreateWebhookEndpoint answers webhooks.ErrTooManyEndpoints.
	CreateWebhookEndpoint(ctx context.Context, by teams.Actor, e webhooks.Endpoint) (webhooks.Endpoint, error)
	UpdateWebhookEndpoint(ctx context.Context, by teams.Actor, e webhooks.Endpoint) (webhooks.Endpoint, error)
	DeleteWebhookEndpoint(ctx context.Context, by teams.Actor, id string) error
	// RotateWebhookSecret answers webhooks.ErrNoSecret for a chat channel.
	RotateWebhookSecret(ctx context.Context, by teams.Actor, id string) (webhooks.Endpoint, error)
	WebhookDeliveries(ctx context.Context, orgID, endpointID string, page catalog.Page) ([]webhooks.LogEntry, int, error)
	// ResendWebhookDelivery answers catalog.ErrNotFound for a delivery
	// the endpoint has not, webhooks.ErrBusy for one being sent.
	ResendWebhookDelivery(ctx context.Context, by teams.Actor, endpointID, id string) (webhooks.Delivery, error)
	SendWebhookTest(ctx context.Context, by teams.Actor, endpointID string, ev webhooks.Event) (webhooks.Delivery, error)
}

// WithWebhookPolicy sets which endpoint URLs admins may give (the
// zero policy, production's, refuses http and loopback; serve's
// --webhooks-allow-loopback allows them for tests and local
// development).
func WithWebhookPolicy(p webhooks.AddressPolicy) Option {
	return func(h *Handler) { h.whPolicy = p }
}

var webhookParams = map[string]*apispec.Param{
	"WebhookID": {Name: "webhookId", In: "path", Required: true, Description: "The endpoint's id.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
	"DeliveryID": {Name: "deliveryId", In: "path", Required: true, Description: "The delivery's id.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
}

type (
	webhookIn struct {
		organisationIn
		Webhook string `param:"WebhookID"`
	}
	webhookLogIn struct {
		webhookIn
		pageIn
	}
	deliveryIn struct {
		webhookIn
		Delivery string `param:"DeliveryID"`
	}
)

// Request and response bodies of the webhook calls.
type (
	// WebhookRequest is POST /organisations/{id}/webhooks's body.
	WebhookRequest struct {
		Kind        webhooks.Kind        `json:"kind" enum:"WebhookKind"`
		URL         string               `json:"url" check:"webhookUrl"`
		Description string               `json:"description" check:"webhookDescription"`
		Events      []webhooks.EventType `json:"events" enum:"WebhookEvent"`
	}
	// WebhookUpdate is PATCH .../webhooks/{webhookId}'s body: each field
	// given is set, each left out kept.
	WebhookUpdate struct {
		URL         *string              `json:"url,omitempty"`
		Description *string              `json:"description,omitempty"`
		Events      []webhooks.EventType `json:"events,omitempty" enum:"WebhookEvent"`
		// Enabled true turns the endpoint on again (its failures
		// forgotten); false turns it off.
		Enabled *bool `json:"enabled,omitempty"`
	}
	// WebhookWithSecret is an endpoint as made or rotated: with its
	// signing secret, shown this once ("" for a chat channel, which has
	// none).
	WebhookWithSecret struct {
		webhooks.Endpoint
		// Secret is "whsec_" and the key in base64 (Standard Webhooks):
		// keep it where the receiver verifies signatures.
		Secret string `json:"secret"`
	}
)

// The largest description and URL an endpoint takes.
const (
	maxWebhookURL         = 2000
	maxWebhookDescription = 200
)

func init() {
	rules["webhookUrl"] = apispec.Rule{Trim: true, MaxLength: maxWebhookURL, NoControl: true, Messages: map[string]string{
		"required": "The URL is required", "long": "URL too long", "control": "The URL must not contain control characters"}}
	rules["webhookDescription"] = apispec.Rule{Trim: true, MaxLength: maxWebhookDescription, NoControl: true, Messages: map[string]string{
		"long": "Description too long", "control": "The description must not contain control characters"}}
}

func webhookRoutes() []*route {
	return []*route{
		signedIn(handle(opListWebhooks, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) {
			h.listWebhooks(w, r, in.ID)
		})),
		signedIn(handle(opCreateWebhook, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) {
			h.createWebhook(w, r, in.ID)
		})),
		signedIn(handle(opGetWebhook, (*Handler).getWebhook)),
		signedIn(handle(opUpdateWebhook, (*Handler).updateWebhook)),
		signedIn(handle(opDeleteWebhook, (*Handler).deleteWebhook)),
		signedIn(handle(opRotateWebhookSecret, (*Handler).rotateWebhookSecret)),
		signedIn(handle(opTestWebhook, (*Handler).testWebhook)),
		signedIn(handle(opListWebhookDeliveries, (*Handler).listWebhookDeliveries)),
		signedIn(handle(opResendWebhookDelivery, (*Handler).resendWebhookDelivery)),
	}
}

const webhookNote = " Kinds: webhook (the event's JSON, signed per Standard Webhooks 1.0: headers webhook-id, webhook-timestamp, webhook-signature; the id is the same on every attempt and resend, so a receiver drops repeats), " +
	"slack (a Slack incoming webhook, https://hooks.slack.com/services/…, the event as Block Kit) and teams (a Microsoft Teams Workflows webhook, https on a host ending .logic.azure.com or .powerplatform.com, the event as an Adaptive Card). " +
	"A URL is https and its host public (no loopback, private, link-local or reserved address, checked again on every connection after DNS) unless the server allows loopback for tests. " +
	"Events: circular.published, circular.revised, direction.changed, alert.matched, obligation.due, decision.changed. An organisation has at most 20 endpoints."

var (
	rWebhookNotFound = &apispec.Response{Component: "WebhookNotFound",
		Description: "No organisation of the signed-in user's has that id, or it has no endpoint of that id.", Content: jsonError()}
	webhookJSON  = []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[webhooks.Endpoint]()}}
	secretJSON   = []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[WebhookWithSecret]()}}
	deliveryJSON = []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[webhooks.Delivery]()}}
)

var opListWebhooks = &apispec.Operation{ID: "listWebhooks", Method: "GET", Path: "/organisations/{id}/webhooks", Permission: "manage",
	Summary:     "The organisation's webhooks and chat channels (admins only).",
	Description: "Oldest first, never with a secret; a disabled endpoint says why (disabledReason: empty when an admin turned it off)." + webhookNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The endpoints.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]webhooks.Endpoint]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

var opCreateWebhook = &apispec.Operation{ID: "createWebhook", Method: "POST", Path: "/organisations/{id}/webhooks", Permission: "manage",
	Summary: "Add a webhook or chat channel (admins only).",
	Description: "The body: kind, url, description, events (at least one). A webhook's answer holds its signing secret, shown this once (rotate-secret makes a new one). " +
		"The audit trail records webhook.create, without the secret or a chat channel's URL path." + webhookNote,
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[WebhookRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Added, enabled.", Content: secretJSON},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		{Status: 409, Description: "The organisation has 20 endpoints already.", Content: jsonError()},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opGetWebhook = &apispec.Operation{ID: "getWebhook", Method: "GET", Path: "/organisations/{id}/webhooks/{webhookId}", Permission: "manage",
	Summary: "One of the organisation's endpoints (admins only), without its secret.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The endpoint.", Content: webhookJSON},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rWebhookNotFound.At(404),
		rInternalError.At(500)},
}

var opUpdateWebhook = &apispec.Operation{ID: "updateWebhook", Method: "PATCH", Path: "/organisations/{id}/webhooks/{webhookId}", Permission: "manage",
	Summary: "Change an endpoint, or turn it off or on again (admins only).",
	Description: "The body: any of url, description, events, enabled; what is left out stays. Its kind and secret stay. " +
		"Turning it on again (enabled true) clears why the sender turned it off and its run of failures. The audit trail records webhook.update." + webhookNote,
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[WebhookUpdate]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Changed.", Content: webhookJSON},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rWebhookNotFound.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opDeleteWebhook = &apispec.Operation{ID: "deleteWebhook", Method: "DELETE", Path: "/organisations/{id}/webhooks/{webhookId}", Permission: "manage",
	Summary:     "Remove an endpoint and its delivery log (admins only).",
	Description: "Deliveries not yet sent are not sent. The audit trail records webhook.delete.",
	Responses: []*apispec.Response{
		{Status: 204, Description: "Removed; no body."},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rWebhookNotFound.At(404),
		rInternalError.At(500)},
}

var opRotateWebhookSecret = &apispec.Operation{ID: "rotateWebhookSecret", Method: "POST", Path: "/organisations/{id}/webhooks/{webhookId}/rotate-secret", Permission: "manage",
	Summary: "Give a webhook a new signing secret (admins only).",
	Description: "The answer holds the new secret, shown this once; deliveries from now on are signed with it (one already being sent may carry the old signature). " +
		"The audit trail records webhook.rotate, without either secret.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The endpoint with its new secret.", Content: secretJSON},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rWebhookNotFound.At(404),
		{Status: 409, Description: "A chat channel has no secret (its URL is its credential: change the URL instead).", Content: jsonError()},
		rInternalError.At(500)},
}

var opTestWebhook = &apispec.Operation{ID: "testWebhook", Method: "POST", Path: "/organisations/{id}/webhooks/{webhookId}/test", Permission: "manage",
	Summary: "Send a test event (webhook.test) to this endpoint alone (admins only).",
	Description: "The event is delivered like any other (signed, retried), enabled or not, and shows in the delivery log. " +
		"Its data: endpointId and a message. The audit trail records webhook.test.",
	Responses: []*apispec.Response{
		{Status: 202, Description: "Queued: the delivery, pending.", Content: deliveryJSON},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rWebhookNotFound.At(404),
		rInternalError.At(500)},
}

var opListWebhookDeliveries = &apispec.Operation{ID: "listWebhookDeliveries", Method: "GET", Path: "/organisations/{id}/webhooks/{webhookId}/deliveries", Permission: "manage",
	Summary: "An endpoint's delivery log (admins only): a page of its deliveries, newest first, each with its attempts.",
	Description: "Each delivery: its event (eventId, the webhook-id; eventType), status (pending, sending, delivered, failed, unknown: a chat message whose sender stopped mid-send, never sent twice), " +
		"attempts, nextAttemptAt, lastAttempt, and history: every attempt with the status code answered (0: none, error says why), the start of the response (2 KiB at most) and how long it took.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The deliveries.", Headers: []*apispec.Header{hXTotalCount, hLink},
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]webhooks.LogEntry]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rWebhookNotFound.At(404),
		rInternalError.At(500)},
}

var opResendWebhookDelivery = &apispec.Operation{ID: "resendWebhookDelivery", Method: "POST", Path: "/organisations/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/resend", Permission: "manage",
	Summary: "Send a delivery again (admins only).",
	Description: "The delivery is pending again, due now: the same event, so the same webhook-id (a receiver that has it drops the repeat), its attempts kept. " +
		"A chat message whose delivery is unknown (its sender stopped mid-send; it may have arrived) is sent again only this way, at an admin's word. The audit trail records delivery.resend.",
	Responses: []*apispec.Response{
		{Status: 202, Description: "Queued: the delivery, pending.", Content: deliveryJSON},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		{Status: 404, Description: "No organisation of the signed-in user's has that id, no endpoint of it that id, or no delivery of the endpoint that id.", Content: jsonError()},
		{Status: 409, Description: "The delivery is being sent right now; resend it once the attempt is over.", Content: jsonError()},
		rInternalError.At(500)},
}

// webhookError gives the webhook calls' errors their status.
func webhookError(err error, what string) error {
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return errorStatus(http.StatusNotFound, "No "+what+" has that id")
	case errors.Is(err, webhooks.ErrTooManyEndpoints):
		return errorStatus(http.StatusConflict, capitalise(strings.TrimPrefix(webhooks.ErrTooManyEndpoints.Error(), "webhooks: ")))
	case errors.Is(err, webhooks.ErrNoSecret):
		return errorStatus(http.StatusConflict, capitalise(strings.TrimPrefix(webhooks.ErrNoSecret.Error(), "webhooks: ")))
	case errors.Is(err, webhooks.ErrBusy):
		return errorStatus(http.StatusConflict, capitalise(strings.TrimPrefix(webhooks.ErrBusy.Error(), "webhooks: ")))
	}
	return teamsError(err)
}

// checkWebhookURL adds url's fault, for an endpoint of kind, to f.
func (h *Handler) checkWebhookURL(f fieldErrors, kind webhooks.Kind, url string) {
	if msg, bad := checkRule(rules["webhookUrl"], url); bad {
		f.add("url", msg)
		return
	}
	if err := h.whPolicy.CheckEndpointURL(kind, url); err != nil {
		f.add("url", capitalise(strings.TrimPrefix(err.Error(), "webhooks: ")))
	}
}

func checkWebhookEvents(f fieldErrors, events []webhooks.EventType) {
	if err := webhooks.CheckEvents(events); err != nil {
		f.add("events", capitalise(err.Error()))
	}
}

func (h *Handler) listWebhooks(w http.ResponseWriter, r *http.Request, orgID string) {
	list, err := h.store.WebhookEndpoints(r.Context(), orgID)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, list)
}

func (h *Handler) createWebhook(w http.ResponseWriter, r *http.Request, orgID string) {
	var req WebhookRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if err := webhooks.CheckKind(req.Kind); err != nil {
		f.add("kind", capitalise(err.Error()))
	} else if _, bad := f["url"]; !bad {
		h.checkWebhookURL(f, req.Kind, req.URL)
	}
	checkWebhookEvents(f, req.Events)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	e, err := h.store.CreateWebhookEndpoint(r.Context(), actor(r, orgID),
		webhooks.Endpoint{Kind: req.Kind, URL: req.URL, Description: req.Description, Events: req.Events})
	if err != nil {
		h.writeError(w, r, webhookError(err, "endpoint"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, WebhookWithSecret{Endpoint: e, Secret: e.Secret})
}

func (h *Handler) getWebhook(w http.ResponseWriter, r *http.Request, in webhookIn) {
	e, err := h.store.WebhookEndpoint(r.Context(), in.ID, in.Webhook)
	if err != nil {
		h.writeError(w, r, webhookError(err, "endpoint of the organisation"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, e)
}

func (h *Handler) updateWebhook(w http.ResponseWriter, r *http.Request, in webhookIn) {
	var req WebhookUpdate
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	e, err := h.store.WebhookEndpoint(r.Context(), in.ID, in.Webhook)
	if err != nil {
		h.writeError(w, r, webhookError(err, "endpoint of the organisation"))
		return
	}
	f := fieldErrors{}
	if req.URL != nil {
		e.URL = strings.TrimSpace(*req.URL)
		h.checkWebhookURL(f, e.Kind, e.URL)
	}
	if req.Description != nil {
		e.Description = strings.TrimSpace(*req.Description)
		if msg, bad := checkRule(rules["webhookDescription"], e.Description); bad {
			f.add("description", msg)
		}
	}
	if req.Events != nil {
		e.Events = req.Events
		checkWebhookEvents(f, e.Events)
	}
	if req.Enabled != nil {
		e.Enabled = *req.Enabled
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	e, err = h.store.UpdateWebhookEndpoint(r.Context(), actor(r, in.ID), e)
	if err != nil {
		h.writeError(w, r, webhookError(err, "endpoint of the organisation"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, e)
}

func (h *Handler) deleteWebhook(w http.ResponseWriter, r *http.Request, in webhookIn) {
	if err := h.store.DeleteWebhookEndpoint(r.Context(), actor(r, in.ID), in.Webhook); err != nil {
		h.writeError(w, r, webhookError(err, "endpoint of the organisation"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) rotateWebhookSecret(w http.ResponseWriter, r *http.Request, in webhookIn) {
	e, err := h.store.RotateWebhookSecret(r.Context(), actor(r, in.ID), in.Webhook)
	if err != nil {
		h.writeError(w, r, webhookError(err, "endpoint of the organisation"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, WebhookWithSecret{Endpoint: e, Secret: e.Secret})
}

func (h *Handler) testWebhook(w http.ResponseWriter, r *http.Request, in webhookIn) {
	site := h.tmCfg.Site
	if site == "" {
		site = siteOrigin(r) + "/"
	}
	settings := strings.TrimSuffix(site, "/") + webhooks.OrganisationPath + "?" + url.Values{"id": {in.ID}}.Encode() + "#" + webhooks.OrganisationAnchor
	ev, err := webhooks.TestEvent(in.ID, in.Webhook, settings, h.now())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	d, err := h.store.SendWebhookTest(r.Context(), actor(r, in.ID), in.Webhook, ev)
	if err != nil {
		h.writeError(w, r, webhookError(err, "endpoint of the organisation"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusAccepted, d)
}

func (h *Handler) listWebhookDeliveries(w http.ResponseWriter, r *http.Request, in webhookLogIn) {
	w.Header().Set("Cache-Control", "no-store")
	listPage(h, w, r, in.page(), in, func(ctx context.Context, in webhookLogIn) ([]webhooks.LogEntry, int, error) {
		items, total, err := h.store.WebhookDeliveries(ctx, in.ID, in.Webhook, in.page())
		return items, total, webhookError(err, "endpoint of the organisation")
	})
}

func (h *Handler) resendWebhookDelivery(w http.ResponseWriter, r *http.Request, in deliveryIn) {
	d, err := h.store.ResendWebhookDelivery(r.Context(), actor(r, in.ID), in.Webhook, in.Delivery)
	if err != nil {
		h.writeError(w, r, webhookError(err, "delivery of the endpoint"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusAccepted, d)
}
