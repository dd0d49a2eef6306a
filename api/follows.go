package api

import (
	"context"
	"net/http"
	"net/url"
	"reflect"

	"regpulse/api/apispec"
	"regpulse/internal/alerts"
)

// Following Master Directions: a signed-in user follows or unfollows one
// and lists those followed; each new version of one is e-mailed with its
// redline by the alerts' runs, and each e-mail's link stops it without
// signing in.

// Follows is what the follow calls need of the store.
type Follows interface {
	// FollowDirection answers catalog.ErrNotFound for an unknown slug.
	FollowDirection(ctx context.Context, userID, slug string) (alerts.Follow, error)
	UnfollowDirection(ctx context.Context, userID, slug string) error
	UserFollows(ctx context.Context, userID string) ([]alerts.Follow, error)
	StopFollow(ctx context.Context, id string) error
}

var followParams = map[string]*apispec.Param{
	"FollowToken": {Component: "FollowToken", Name: "token", In: "query", Required: true, Raw: true,
		Description: "The signed token of a Master Direction e-mail's link (the follow's id and an HMAC-SHA256 of it).",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(200)}},
}

type followTokenIn struct {
	Token string `param:"FollowToken"`
}

func followRoutes() []*route {
	return []*route{
		signedIn(handle(opListFollows, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) {
			list, err := h.store.UserFollows(r.Context(), userOf(r).ID)
			if err != nil {
				h.writeError(w, r, err)
				return
			}
			writeJSON(w, http.StatusOK, list)
		})),
		signedIn(handle(opFollowDirection, func(h *Handler, w http.ResponseWriter, r *http.Request, in directionIn) {
			f, err := h.store.FollowDirection(r.Context(), userOf(r).ID, in.Slug)
			if err != nil {
				h.writeError(w, r, directionError(err, in.Slug))
				return
			}
			writeJSON(w, http.StatusOK, f)
		})),
		signedIn(handle(opUnfollowDirection, func(h *Handler, w http.ResponseWriter, r *http.Request, in directionIn) {
			if err := h.store.UnfollowDirection(r.Context(), userOf(r).ID, in.Slug); err != nil {
				h.writeError(w, r, err)
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusNoContent)
		})),
		handle(opFollowUnsubscribePage, func(h *Handler, w http.ResponseWriter, r *http.Request, in followTokenIn) {
			if _, err := h.alCfg.Tokens.ParseUnfollow(in.Token); err != nil {
				writeMailPage(w, r, http.StatusBadRequest, pageData{Title: "Link not valid",
					Message: "This link is not valid. Use the link in the latest e-mail about the Master Direction.", Back: "/master-directions"})
				return
			}
			writeMailPage(w, r, http.StatusOK, pageData{Title: "Stop following this Master Direction",
				Message: "Press the button to stop the e-mails about this Master Direction's new versions. Your alerts and other directions are not changed.",
				Button:  "Stop following",
				Action:  (&url.URL{Path: "/api/direction-follows/unsubscribe", RawQuery: url.Values{"token": {in.Token}}.Encode()}).String(), Back: "/profile#alerts"})
		}),
		handle(opFollowUnsubscribe, func(h *Handler, w http.ResponseWriter, r *http.Request, in followTokenIn) {
			h.unsubscribeLink(w, r, in.Token, h.alCfg.Tokens.ParseUnfollow, h.store.StopFollow, func(w http.ResponseWriter, r *http.Request) {
				writeMailPage(w, r, http.StatusOK, pageData{Title: "Unsubscribed",
					Message: "You no longer follow this Master Direction. Signed in, you can follow it again from its page.", Back: "/profile#alerts"})
			})
		}),
	}
}

var opListFollows = &apispec.Operation{ID: "listFollows", Method: "GET", Path: "/direction-follows",
	Summary:     "The Master Directions the signed-in user follows, by title.",
	Description: "Each new version of a followed direction reaching RegPulse is e-mailed to the user with the amending circulars and the redline of each changed provision. lastSentAt is the last such e-mail; title is empty for a direction no longer in the catalog.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The follows.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]alerts.Follow]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opFollowDirection = &apispec.Operation{ID: "followDirection", Method: "PUT", Path: "/direction-follows/{slug}",
	Summary:     "Follow a Master Direction: an e-mail with the redline whenever a new version of it reaches RegPulse.",
	Description: "Idempotent: following again changes nothing. A version is e-mailed as soon as RegPulse has it, also when it takes effect later (the e-mail says from when). Versions RegPulse had before the follow are not sent.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "Followed.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[alerts.Follow]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rDirectionNotFound.At(404),
		rInternalError.At(500)},
}

var opUnfollowDirection = &apispec.Operation{ID: "unfollowDirection", Method: "DELETE", Path: "/direction-follows/{slug}",
	Summary:     "Stop following a Master Direction; idempotent.",
	Description: "What waited to be sent about it is dropped.",
	Responses: []*apispec.Response{
		{Status: 204, Description: "Not followed (any more); no body."},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opFollowUnsubscribePage = &apispec.Operation{ID: "followUnsubscribePage", Method: "GET", Path: "/direction-follows/unsubscribe",
	Summary:     "The page a Master Direction e-mail's unsubscribe link opens: one button that stops following it.",
	Description: "Changes nothing (mail scanners open links); the button POSTs to the same URL.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The page.", Content: htmlPage},
		{Status: 400, Description: "The token is not valid: a page saying so.", Content: htmlPage}},
}

var opFollowUnsubscribe = &apispec.Operation{ID: "followUnsubscribe", Method: "POST", Path: "/direction-follows/unsubscribe",
	Summary:     "Stop following a Master Direction, without signing in; idempotent.",
	Description: "The page's button gets a page saying it is done. A mail client's one-click request (RFC 8058: body List-Unsubscribe=One-Click) gets 200 JSON.",
	Body:        rOneClickBody,
	Responses:   unsubscribeLinkResponses,
}
