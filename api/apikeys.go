package api

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"

	"regpulse/api/apispec"
	"regpulse/internal/apikeys"
	"regpulse/internal/audit"
	"regpulse/internal/teams"
)

// API keys (issue 47): an organisation's admin creates keys for the
// organisation's own systems (a GRC tool's feed), each shown once,
// stored hashed, scoped read or read-write, with an expiry; sent as
// Authorization: Bearer rpk_…. Who calls is a principal: a signed-in
// user (requireUser) or a key (keyAuth, below, the one place a key is
// authenticated and let through or refused). A key acts only in its own
// organisation (another's paths are a 404, as for a non-member), may call
// the calls its scope allows (apikeys.Scope.Allows: read, or also
// decide; never manage nor review) and the public calls, which then
// count its rate limits per key; the calls of a signed-in person refuse
// it. Every request of a read-write key appends apikey.use to the
// organisation's audit trail.

// APIKeys is what the API keys need of the store.
type APIKeys interface {
	CreateAPIKey(ctx context.Context, by teams.Actor, k apikeys.Key, hash string) (apikeys.Key, error)
	APIKeys(ctx context.Context, orgID string) ([]apikeys.Key, error)
	// RevokeAPIKey answers apikeys.ErrNoKey for none of by's
	// organisation's keys.
	RevokeAPIKey(ctx context.Context, by teams.Actor, id string) (apikeys.Key, error)
	// APIKeyByHash answers apikeys.ErrNoKey for none.
	APIKeyByHash(ctx context.Context, hash string) (apikeys.Key, error)
	TouchAPIKey(ctx context.Context, id string, at time.Time) (bool, error)
	// KeyOrganisation answers teams.ErrNoOrganisation for none.
	KeyOrganisation(ctx context.Context, id string) (teams.Organisation, error)
	AppendAudit(ctx context.Context, e audit.Entry) (audit.Row, error)
}

var apiKeyParams = map[string]*apispec.Param{
	"APIKeyID": {Name: "keyId", In: "path", Required: true, Description: "The API key's id.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
}

type apiKeyIn struct {
	organisationIn
	KeyID string `param:"APIKeyID"`
}

type (
	// APIKeyRequest is POST /organisations/{id}/api-keys' body.
	APIKeyRequest struct {
		Name      string     `json:"name" check:"apiKeyName"`
		Scope     string     `json:"scope" enum:"APIKeyScope"`
		ExpiresAt *time.Time `json:"expiresAt"`
	}
	// APIKeyCreated is the key created and its token, shown this once.
	APIKeyCreated struct {
		Key   apikeys.Key `json:"key"`
		Token string      `json:"token"`
	}
)

func apiKeyRoutes() []*route {
	return []*route{
		signedIn(handle(opListAPIKeys, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) {
			h.listAPIKeys(w, r, in.ID)
		})),
		signedIn(handle(opCreateAPIKey, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) {
			h.createAPIKey(w, r, in.ID)
		})),
		signedIn(handle(opRevokeAPIKey, func(h *Handler, w http.ResponseWriter, r *http.Request, in apiKeyIn) { h.revokeAPIKey(w, r, in) })),
	}
}

const apiKeyNote = "A key is sent as Authorization: Bearer rpk_…; it acts in its organisation only: read calls the organisation's reads and the public calls, read-write also records decisions, comments and evidence (every request of a read-write key is in the audit trail as apikey.use). No key manages members, keys, single sign-on or webhooks, nor reviews evidence."

var opListAPIKeys = &apispec.Operation{ID: "listAPIKeys", Method: "GET", Path: "/organisations/{id}/api-keys", Permission: "manage",
	Summary:     "The organisation's API keys (admins only).",
	Description: "Newest first, revoked and expired ones included (status says which). The tokens are never shown again, only their first characters (prefix). " + apiKeyNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The keys.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]apikeys.Key]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

var opCreateAPIKey = &apispec.Operation{ID: "createAPIKey", Method: "POST", Path: "/organisations/{id}/api-keys", Permission: "manage",
	Summary: "Create an API key (admins only).",
	Description: "The body: name (1 to 100 characters), scope (read or read-write), expiresAt (required: in the future, at most 366 days away). " +
		"The answer carries the token, this once: only its SHA-256 is stored. The audit trail records apikey.create. " + apiKeyNote,
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[APIKeyRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Created; the token is shown here only.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[APIKeyCreated]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opRevokeAPIKey = &apispec.Operation{ID: "revokeAPIKey", Method: "DELETE", Path: "/organisations/{id}/api-keys/{keyId}", Permission: "manage",
	Summary:     "Revoke an API key (admins only).",
	Description: "From now on the key is refused (401). The key stays in the list, revoked, so the audit trail's apikey:<id> keeps naming it; revoking it again changes nothing. The audit trail records apikey.revoke.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "Revoked; the key as now.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[apikeys.Key]()}}},
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		{Status: 404, Description: "No organisation of the signed-in user's has that id, or no key of it has that id.", Content: jsonError()},
		rInternalError.At(500)},
}

func (h *Handler) listAPIKeys(w http.ResponseWriter, r *http.Request, orgID string) {
	list, err := h.store.APIKeys(r.Context(), orgID)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	now := h.now()
	for i := range list {
		list[i] = list[i].WithStatus(now)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, list)
}

func (h *Handler) createAPIKey(w http.ResponseWriter, r *http.Request, orgID string) {
	var req APIKeyRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if !apikeys.Scope(req.Scope).Valid() {
		f.add("scope", "use one of: "+strings.Join(apikeys.Scopes, ", "))
	}
	now := h.now()
	if msg := apikeys.CheckExpiry(req.ExpiresAt, now); msg != "" {
		f.add("expiresAt", msg)
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	token, hash, prefix := apikeys.New()
	k, err := h.store.CreateAPIKey(r.Context(), actor(r, orgID),
		apikeys.Key{ID: uuid.NewString(), Name: req.Name, Prefix: prefix, Scope: apikeys.Scope(req.Scope), ExpiresAt: *req.ExpiresAt}, hash)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, APIKeyCreated{Key: k.WithStatus(now), Token: token})
}

func (h *Handler) revokeAPIKey(w http.ResponseWriter, r *http.Request, in apiKeyIn) {
	k, err := h.store.RevokeAPIKey(r.Context(), actor(r, in.ID), in.KeyID)
	if errors.Is(err, apikeys.ErrNoKey) {
		h.writeError(w, r, errorStatus(http.StatusNotFound, apikeys.ErrNoKey.Error()))
		return
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, k.WithStatus(h.now()))
}

// The principal of a request made with a key.

type keyCtxKey struct{}

// keyOf is the API key r is made with, if it is.
func keyOf(r *http.Request) (apikeys.Key, bool) {
	k, ok := r.Context().Value(keyCtxKey{}).(apikeys.Key)
	return k, ok
}

// personPaths are the calls of a person, public ones included (their
// account, alerts, follows, newsletter, invitations, the editors' CMS):
// a key is refused there.
var personPaths = []string{"/auth/", "/user/", "/alerts", "/direction-follows", "/newsletter", "/invites", "/cms"}

// keyReaches reports whether a request with a key goes past
// authentication to rt's own checks: an organisation's call (the scope
// is checked against its Permission there, after the organisation, so
// another organisation's is a 404 whatever the call) and the public
// calls but a person's.
func (rt *route) keyReaches() bool {
	if rt.op.Permission != "" {
		return true
	}
	if rt.user || rt.admin {
		return false
	}
	return !slices.ContainsFunc(personPaths, func(p string) bool { return strings.HasPrefix(rt.op.Path, p) })
}

// keyScopes are the scopes of the keys that may call rt (none: no key).
func (rt *route) keyScopes() []string {
	switch {
	case !rt.keyReaches():
		return nil
	case rt.op.Permission != "":
		return apikeys.ScopesFor(rt.op.Permission)
	}
	return slices.Clone(apikeys.Scopes)
}

var (
	errKeyInvalid = errorStatus(http.StatusUnauthorized, "This API key is not valid: unknown, revoked or expired")
	errKeyRefused = errorStatus(http.StatusForbidden, "API keys cannot call this: it is a signed-in person's call (sign in instead)")
)

// keyAuth authenticates a request whose bearer token is an API key
// (rpk_…): unknown, revoked or expired is a 401; a call the key cannot
// reach a 403; else the key is the request's principal (keyOf), its use
// recorded (last used, at most once a minute; a read-write key's request
// in the audit trail). Another request goes through untouched.
func (h *Handler) keyAuth(rt *route, next http.Handler) http.Handler {
	reaches := rt.keyReaches()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearerKey(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		k, err := h.lookupKey(r, token)
		if err != nil {
			if errors.Is(err, errKeyInvalid) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="regpulse", error="invalid_token"`)
			}
			h.writeError(w, r, err)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), keyCtxKey{}, k))
		if k.NeedsTouch(h.now()) {
			if _, err := h.store.TouchAPIKey(r.Context(), k.ID, h.now()); err != nil {
				h.log.Error("api: recording an API key's use failed", "key", k.ID, "err", err, "request_id", requestID(r.Context()))
			}
		}
		if k.Scope == apikeys.ReadWrite {
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			defer func() {
				status := ww.Status()
				p := recover()
				if p != nil {
					status = http.StatusInternalServerError // the recoverer answers it
				}
				h.auditKeyUse(r, k, status)
				if p != nil {
					panic(p)
				}
			}()
			w = ww
		}
		if !reaches {
			h.writeError(w, r, errKeyRefused)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearerKey is r's bearer token if it is meant as an API key.
func bearerKey(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || !apikeys.IsKey(token) {
		return "", false
	}
	return token, true
}

// lookupKey is the working key of token, or errKeyInvalid.
func (h *Handler) lookupKey(r *http.Request, token string) (apikeys.Key, error) {
	if !apikeys.WellFormed(token) {
		return apikeys.Key{}, errKeyInvalid
	}
	k, err := h.store.APIKeyByHash(r.Context(), apikeys.Hash(token))
	switch {
	case errors.Is(err, apikeys.ErrNoKey):
		return k, errKeyInvalid
	case err != nil:
		return k, err
	case k.Check(h.now()) != nil:
		return k, errKeyInvalid
	}
	return k, nil
}

// auditKeyUse appends apikey.use for a read-write key's request, once
// answered (or failed: 500): its method, path and status. The answer is sent already; a
// failure is logged.
func (h *Handler) auditKeyUse(r *http.Request, k apikeys.Key, status int) {
	if status == 0 {
		status = http.StatusOK
	}
	addr, _ := clientKey(r)
	// The request's context may be cancelled once answered: the row is
	// written whatever the client does.
	ctx := context.WithoutCancel(r.Context())
	if _, err := h.store.AppendAudit(ctx, audit.Entry{OrgID: k.OrganisationID, ActorID: k.ActorID(), Action: "apikey.use",
		SubjectType: "apikey", SubjectID: k.ID, After: map[string]any{"method": r.Method, "path": r.URL.Path, "status": status},
		RequestID: requestID(r.Context()), ClientAddr: addr}); err != nil {
		h.log.Error("api: auditing an API key's use failed", "key", k.ID, "err", err, "request_id", requestID(r.Context()))
	}
}

// keyMay checks a key's call of organisation orgID's operation that asks
// permission: another organisation's is the non-member's 404, a scope
// that does not allow it a 403.
func keyMay(k apikeys.Key, orgID, permission string) error {
	if k.OrganisationID != orgID {
		return teamsError(teams.ErrNoOrganisation)
	}
	if !k.Scope.Allows(permission) {
		return errorStatus(http.StatusForbidden, "This API key (scope "+string(k.Scope)+") may not do this: "+keyDenial(permission))
	}
	return nil
}

func keyDenial(permission string) string {
	switch permission {
	case "decide":
		return "a read-write key records decisions"
	case "review":
		return "an admin or auditor signs in to review evidence"
	}
	return "an admin signs in to manage the organisation"
}

// keyRole is the role a key's scope amounts to, for what the
// organisation's answer says the caller may do.
func keyRole(s apikeys.Scope) string {
	if s == apikeys.ReadWrite {
		return teams.RoleMember
	}
	return teams.RoleViewer
}

// organisation is organisation id as r's principal sees it: a member's
// (teams.ErrNoOrganisation for another's), or a key's own.
func (h *Handler) organisation(r *http.Request, id string) (teams.Organisation, error) {
	k, ok := keyOf(r)
	if !ok {
		return h.store.Organisation(r.Context(), userOf(r).ID, id)
	}
	if k.OrganisationID != id {
		return teams.Organisation{}, teams.ErrNoOrganisation
	}
	o, err := h.store.KeyOrganisation(r.Context(), id)
	o.Role = keyRole(k.Scope)
	return o, err
}

// principalUserID is r's signed-in user's id, "" for a key.
func principalUserID(r *http.Request) string {
	if _, ok := keyOf(r); ok {
		return ""
	}
	return userOf(r).ID
}

var apiKeyScheme = &apispec.SecurityScheme{Type: "http", Scheme: "bearer", BearerFormat: "rpk",
	Description: "An organisation's API key (rpk_ and 43 characters), sent as Authorization: Bearer. Its scope (read or read-write) is checked against each operation's x-regpulse-scopes; it acts in its own organisation only, and public calls count their rate limits per key. Unknown, revoked or expired: 401."}

var (
	rKeyUnauthorized = &apispec.Response{Component: "KeyUnauthorized", Description: "An API key was sent and it is unknown, revoked or expired (a call without one is answered as usual).",
		Content: jsonError(), Headers: []*apispec.Header{hWWWAuthenticate}}
	rKeyRefused = &apispec.Response{Component: "KeyRefused", Description: "An API key was sent: this is a signed-in person's call, which no key makes.",
		Content: jsonError()}
)

// keyDeclared is rt's operation as the document has it: the schemes it
// accepts (bearer for a signed-in call, apiKey where a key may call it,
// none for a public one), the scopes of the keys that may
// (x-regpulse-scopes, also said in its description), and the answers a
// key adds (401 for a key not valid, 403 where keys are refused) where
// it declares none of that status.
func keyDeclared(rt *route) apispec.Operation {
	op := *rt.op
	scopes := rt.keyScopes()
	op.KeyScopes = append([]string{}, scopes...)
	switch {
	case rt.user || rt.admin:
		op.Security = []string{"bearer"}
		if len(scopes) > 0 {
			op.Security = append(op.Security, "apiKey")
		}
	case len(scopes) > 0:
		op.Security = []string{"", "apiKey"}
	}
	note := "API keys: refused."
	if len(scopes) > 0 {
		note = "API keys: scope " + strings.Join(scopes, " or ") + "."
	}
	if op.Description == "" {
		op.Description = note
	} else {
		op.Description += " " + note
	}
	has := func(status int) bool {
		return slices.ContainsFunc(op.Responses, func(r *apispec.Response) bool { return r.Status == status })
	}
	add := []*apispec.Response{}
	if !has(http.StatusUnauthorized) {
		add = append(add, rKeyUnauthorized.At(http.StatusUnauthorized))
	}
	if !rt.keyReaches() && !has(http.StatusForbidden) {
		add = append(add, rKeyRefused.At(http.StatusForbidden))
	}
	if len(add) > 0 {
		op.Responses = append(slices.Clone(op.Responses), add...)
		slices.SortStableFunc(op.Responses, func(a, b *apispec.Response) int { return a.Status - b.Status })
	}
	return op
}
