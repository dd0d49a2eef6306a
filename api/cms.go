package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"strings"

	"regpulse/api/apispec"
	"regpulse/internal/auth"
	"regpulse/internal/cms"
)

// The editors' web UI (Decap CMS at /admin) speaks its proxy protocol to
// one URL: POST /cms with {action, params}. This file is only the HTTP
// side: who asks (the signed-in account and its CMS role), the body, and
// the answer or the error's status; internal/cms is the contract, and
// internal/cms/cmsrepo answers the actions over the content's repository.

// CMSRoles is what POST /cms needs of the store.
type CMSRoles interface {
	// CMSRole is the account's role in the CMS: cms.RoleEditor,
	// cms.RoleReviewer or "" (none).
	CMSRole(ctx context.Context, userID string) (string, error)
}

// maxCMSBody bounds POST /cms's body: a media upload comes base64-encoded
// (4/3 of its size) inside the JSON, so this leaves room for a 10 MB file.
const maxCMSBody = 14 << 20

// WithCMS serves POST /cms with b (the server's clone of the content:
// regpulse serve --cms-repo). Without it the call answers 503.
func WithCMS(b cms.Backend) Option { return func(h *Handler) { h.cms = b } }

// cmsBody is POST /cms's body as Decap's proxy backend sends it: params
// stays raw JSON for the backend to read per action; branch is the
// configuration's, which Decap repeats beside every request and the
// backend ignores (it keeps to its own branches).
type cmsBody struct {
	Action string          `json:"action"`
	Params json.RawMessage `json:"params"`
	Branch string          `json:"branch"`
}

var errCMSOff = errorStatus(http.StatusServiceUnavailable, "the editors' backend is not configured on this server")

func cmsRoutes() []*route {
	return []*route{
		signedIn(handle(opCMS, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.cmsCall(w, r) })),
	}
}

var cmsError = []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}

var opCMS = &apispec.Operation{ID: "cms", Method: "POST", Path: "/cms",
	Summary: "The editors' web UI (Decap CMS at /admin): one action of Decap's proxy protocol over the content's git repository.",
	Description: "Body {action, params}, as Decap's proxy backend posts it (it adds branch, which is ignored). Actions: info (which backend answers, and that the account may use it), entriesByFolder, entriesByFiles, getEntry, " +
		"persistEntry, deleteFile, deleteFiles, getMedia, getMediaFile, persistMedia, getDeployPreview, and the editorial workflow's unpublishedEntries, unpublishedEntry, " +
		"unpublishedEntryDataFile, unpublishedEntryMediaFile, updateUnpublishedEntryStatus, publishUnpublishedEntry, deleteUnpublishedEntry. " +
		"The signed-in account must hold a CMS role (regpulse users cms-role): an editor saves drafts on a branch per entry; a reviewer also publishes, " +
		"never a change they wrote. Every write is checked by the loader the site is built with and is refused (422, the file, line and field) when the build would fail. " +
		"Writes only under content/ and the media folder. The answer is the action's, as Decap reads it; an error's message is what Decap shows.",
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Raw: map[string]any{
		"type": "object", "required": []any{"action"}, "additionalProperties": false,
		"properties": map[string]any{
			"action": map[string]any{"type": "string", "description": "The protocol's action, e.g. getEntry."},
			"params": map[string]any{"type": "object", "description": "The action's parameters, as Decap sends them."},
			"branch": map[string]any{"type": "string", "description": "The branch of Decap's configuration; ignored."},
		}}}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The action's answer, of the shape Decap reads for it (a list of entries, an entry, a media file, an empty object...).",
			Content: []apispec.Content{{MediaType: "application/json", Raw: map[string]any{}}}},
		{Status: 400, Description: "The body is malformed or has no action; an unknown action; a path outside content/ and the media folder (.., absolute, .git, a symbolic link).", Content: cmsError},
		rUnauthorized.At(401),
		{Status: 403, Description: "The account has no CMS role, or its role may not do this (an editor publishing or marking a change ready; a reviewer publishing their own change; a save straight to the published branch; deleting a published entry, which no second person would review).", Content: cmsError},
		{Status: 404, Description: "No such entry, draft or media file.", Content: cmsError},
		{Status: 409, Description: "The file changed since this person read it (another editor saved it, or saved while this save was being checked), or a publish would undo a change published since the draft was made: reload the entry; nothing was written.", Content: cmsError},
		{Status: 413, Description: "The body is over 14 MiB, or a media file over the backend's limit.", Content: cmsError},
		{Status: 415, Description: "The body is not sent as JSON, or a media file's type is not allowed.", Content: cmsError},
		{Status: 422, Description: "The site's loader refuses the content: one line per problem, file:line: field: message. Nothing was written.", Content: cmsError},
		{Status: 502, Description: "The publish could not be pushed to the remote, whose reason is quoted: the entry stays unpublished.", Content: cmsError},
		{Status: 503, Description: "The editors' backend is not configured on this server (regpulse serve --cms-repo).", Content: cmsError},
		rInternalError.At(500)},
}

// cmsCall is POST /cms.
func (h *Handler) cmsCall(w http.ResponseWriter, r *http.Request) {
	if h.cms == nil {
		h.writeError(w, r, errCMSOff)
		return
	}
	req, err := decodeCMS(w, r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	u := userOf(r)
	role, err := h.store.CMSRole(r.Context(), u.ID)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if role == "" {
		h.writeError(w, r, errorStatus(http.StatusForbidden,
			"your account may not edit content: the operator gives it a role with regpulse users cms-role "+u.Username+" editor (or reviewer)"))
		return
	}
	h.answerCMS(w, r, h.cms, cmsPerson(u, role), req)
}

// cmsPerson is who asks the CMS: the account, its name for the commits
// (first and last name, else the username) and its role.
func cmsPerson(u auth.User, role string) cms.Person {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.Username
	}
	return cms.Person{ID: u.ID, Name: name, Email: u.Email, Role: role}
}

// decodeCMS reads POST /cms's body.
func decodeCMS(w http.ResponseWriter, r *http.Request) (cms.Request, error) {
	var body cmsBody
	if err := decodeBodyLimit(w, r, &body, maxCMSBody); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Status == http.StatusRequestEntityTooLarge {
			e.Message = "the request is over 14 MiB: upload a smaller file"
		}
		return cms.Request{}, err
	}
	if body.Action == "" {
		return cms.Request{}, &Error{Status: http.StatusBadRequest, Message: "invalid field: action",
			Fields: map[string]string{"action": "is required: the protocol's action"}}
	}
	if p := bytes.TrimSpace(body.Params); len(p) > 0 && p[0] != '{' && !bytes.Equal(p, []byte("null")) {
		return cms.Request{}, &Error{Status: http.StatusBadRequest, Message: "invalid field: params",
			Fields: map[string]string{"params": "must be an object"}}
	}
	return cms.Request{Action: body.Action, Params: body.Params}, nil
}

// answerCMS has b do req for who: its answer as JSON, a *cms.Error as its
// status with its message in "error" (what Decap shows), anything else a
// logged 500.
func (h *Handler) answerCMS(w http.ResponseWriter, r *http.Request, b cms.Backend, who cms.Person, req cms.Request) {
	out, err := b.Do(r.Context(), who, req)
	var ce *cms.Error
	switch {
	case errors.As(err, &ce):
		if ce.Status >= 500 {
			h.log.Warn("api: cms", "action", req.Action, "person", who.Name, "status", ce.Status, "err", ce.Message, "request_id", requestID(r.Context()))
		}
		h.writeError(w, r, errorStatus(ce.Status, ce.Message))
		return
	case err != nil:
		h.writeError(w, r, err)
		return
	}
	if out == nil {
		out = struct{}{}
	}
	writeJSON(w, http.StatusOK, out)
}

// LocalCMS serves POST /api/cms (or wherever mounted) with b for who,
// with no sign-in: regpulse cms, an editor's own machine, loopback only.
// The body and the answers are POST /cms's.
func LocalCMS(b cms.Backend, who cms.Person, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	h := &Handler{log: log}
	return h.requests(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeJSON(w, http.StatusMethodNotAllowed, errorStatus(http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path))
			return
		}
		req, err := decodeCMS(w, r)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		h.answerCMS(w, r, b, who, req)
	}))
}
