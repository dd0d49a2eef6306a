package api

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/i18n"
	"regpulse/internal/teams"
)

// Organisations (issue 44, first slice): a signed-in user creates one
// and is its admin, lists those of which they are a member, and an admin
// manages the members and invites others by e-mail; the invited user
// accepts with the link's token. Another organisation's items are a 404,
// never a 403: only a member learns that an organisation exists (a
// member whose role may not do something gets a 403).

// Organisations is what the organisation calls need of the store. Each
// call that changes an organisation takes the teams.Actor, for the
// audit trail.
type Organisations interface {
	CreateOrganisation(ctx context.Context, by teams.Actor, name string, entityTypes []string) (teams.Organisation, error)
	UserOrganisations(ctx context.Context, userID string) ([]teams.Organisation, error)
	// Organisation answers teams.ErrNoOrganisation for one the user is
	// not (or no longer) a member of.
	Organisation(ctx context.Context, userID, id string) (teams.Organisation, error)
	// Membership answers teams.ErrNoMember for none.
	Membership(ctx context.Context, orgID, userID string) (teams.Member, error)
	Members(ctx context.Context, orgID string) ([]teams.Member, error)
	SetMemberRole(ctx context.Context, by teams.Actor, userID, role string, expiresAt *time.Time) (teams.Member, error)
	RemoveMember(ctx context.Context, by teams.Actor, userID string) error
	CreateInvite(ctx context.Context, by teams.Actor, inv teams.Invite, tokenHash string) (teams.Invite, error)
	InviteByTokenHash(ctx context.Context, hash string) (teams.Invite, error)
	AcceptInvite(ctx context.Context, by teams.Actor, inviteID string) (teams.Member, error)
	ExpireInvites(ctx context.Context) (int, error)
}

// InviteMailer sends an invitation's e-mail (teams.Mailer).
type InviteMailer interface {
	SendInvite(ctx context.Context, e teams.InviteEmail) error
}

// TeamsConfig configures the organisation calls; zero fields take
// defaults.
type TeamsConfig struct {
	// Tokens signs the invitations' links; nil: a random key for this
	// process.
	Tokens *teams.Tokens
	// Mailer sends the invitations; nil: an invitation is refused (503),
	// since no one could accept it.
	Mailer InviteMailer
	// Mentions sends the e-mails of the comments' @mentions; nil: none
	// is sent (the comments are kept).
	Mentions MentionMailer
	// Site is the site's absolute URL the invitations link under; ""
	// takes the request's own origin.
	Site string
	// InviteLimit is the invitations a client address may send per
	// LimitWindow.
	InviteLimit int
	LimitWindow time.Duration
}

// WithTeams configures the organisation calls.
func WithTeams(c TeamsConfig) Option { return func(h *Handler) { h.tmCfg = c } }

func (h *Handler) initTeams() {
	c := &h.tmCfg
	if c.Tokens == nil {
		c.Tokens, _ = teams.NewTokens(processSecret())
	}
	subscribeDefaults(&c.InviteLimit, &c.LimitWindow)
}

var organisationParams = map[string]*apispec.Param{
	"MemberUserID": {Name: "userId", In: "path", Required: true, Description: "The member's user id.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
}

type (
	organisationIn struct {
		ID string `param:"OrganisationID"`
	}
	memberIn struct {
		organisationIn
		UserID string `param:"MemberUserID"`
	}
)

// Request bodies of the organisation calls.
type (
	// OrganisationRequest is POST /organisations' body.
	OrganisationRequest struct {
		Name        string   `json:"name" check:"organisationName"`
		EntityTypes []string `json:"entityTypes,omitempty"`
	}
	// MemberRequest is PUT /organisations/{id}/members/{userId}'s body.
	MemberRequest struct {
		Role      string     `json:"role" enum:"MemberRole"`
		ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	}
	// InviteRequest is POST /organisations/{id}/invites' body.
	InviteRequest struct {
		Email        string     `json:"email" check:"inviteEmail"`
		Role         string     `json:"role" enum:"MemberRole"`
		AccessEndsAt *time.Time `json:"accessEndsAt,omitempty"`
	}
	// InviteAcceptRequest is POST /invites/accept's body.
	InviteAcceptRequest struct {
		Token string `json:"token" check:"inviteToken"`
	}
)

func organisationRoutes() []*route {
	return []*route{
		signedIn(handle(opCreateOrganisation, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.createOrganisation(w, r) })),
		signedIn(handle(opListOrganisations, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) {
			list, err := h.store.UserOrganisations(r.Context(), userOf(r).ID)
			if err != nil {
				h.writeError(w, r, err)
				return
			}
			for i := range list {
				list[i] = list[i].WithPermissions()
			}
			writeJSON(w, http.StatusOK, list)
		})),
		signedIn(handle(opGetOrganisation, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) {
			o, err := h.organisation(r, in.ID)
			if err != nil {
				h.writeError(w, r, teamsError(err))
				return
			}
			writeJSON(w, http.StatusOK, o.WithPermissions())
		})),
		signedIn(handle(opListMembers, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) {
			list, err := h.store.Members(r.Context(), in.ID)
			if err != nil {
				h.writeError(w, r, err)
				return
			}
			writeJSON(w, http.StatusOK, list)
		})),
		signedIn(handle(opSetMember, func(h *Handler, w http.ResponseWriter, r *http.Request, in memberIn) { h.setMember(w, r, in) })),
		orLeaving(signedIn(handle(opRemoveMember, func(h *Handler, w http.ResponseWriter, r *http.Request, in memberIn) { h.removeMember(w, r, in) }))),
		limited(func(h *Handler) func(http.Handler) http.Handler {
			return h.rateLimit("team-invite", h.tmCfg.InviteLimit, h.tmCfg.LimitWindow, "Too many invitations; try again later")
		}, signedIn(handle(opCreateInvite, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) {
			h.createInvite(w, r, in.ID)
		}))),
		signedIn(handle(opAcceptInvite, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.acceptInvite(w, r) })),
	}
}

func jsonError() []apispec.Content {
	return []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}
}

var (
	rOrganisationNotFound = &apispec.Response{Component: "OrganisationNotFound",
		Description: "No organisation of which the signed-in user is a member has that id: another organisation's is not found either, nor one whose auditor's access ended.",
		Content:     jsonError()}
	rNotOrganisationAdmin = &apispec.Response{Component: "NotOrganisationAdmin",
		Description: "A member of the organisation whose role may not do this (only an admin manages members and invites).",
		Content:     jsonError()}
	rLastAdmin = &apispec.Response{Component: "LastAdmin",
		Description: "The change would leave the organisation without an admin: make another member admin first.",
		Content:     jsonError()}
)

const roleNote = "Roles: admin (manages members and roles, decides), member (decides, acts, comments), viewer (reads), auditor (reads everything, accepts or rejects evidence, until its access ends by itself)."

var opCreateOrganisation = &apispec.Operation{ID: "createOrganisation", Method: "POST", Path: "/organisations",
	Summary:     "Create an organisation; the signed-in user is its first admin.",
	Description: "The body: name 1 to 100 characters; entityTypes, optional, from PSP, Issuer, Aggregator, each at most once. A user may belong to several organisations.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[OrganisationRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Created.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[teams.Organisation]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opListOrganisations = &apispec.Operation{ID: "listOrganisations", Method: "GET", Path: "/organisations",
	Summary: "The organisations the signed-in user is a member of, by name, each with the user's role.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The organisations.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]teams.Organisation]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opGetOrganisation = &apispec.Operation{ID: "getOrganisation", Method: "GET", Path: "/organisations/{id}",
	Permission: "read",
	Summary:    "One of the signed-in user's organisations, with the user's role.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The organisation.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[teams.Organisation]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

var opListMembers = &apispec.Operation{ID: "listMembers", Method: "GET", Path: "/organisations/{id}/members",
	Permission:  "read",
	Summary:     "The organisation's members, by name; any member may read them.",
	Description: "An auditor whose access ended is no longer listed. " + roleNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The members.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]teams.Member]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

var opSetMember = &apispec.Operation{ID: "setMember", Method: "PUT", Path: "/organisations/{id}/members/{userId}",
	Permission:  "manage",
	Summary:     "Change a member's role (admins only).",
	Description: "The body: role; for an auditor, expiresAt, a time in the future when its access ends by itself (other roles take none). " + roleNote,
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[MemberRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The member as changed.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[teams.Member]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		{Status: 404, Description: "No organisation of the signed-in user's has that id, or no member of it that user id.", Content: jsonError()},
		rLastAdmin.At(409),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opRemoveMember = &apispec.Operation{ID: "removeMember", Method: "DELETE", Path: "/organisations/{id}/members/{userId}",
	Permission:  "manage",
	Summary:     "Remove a member (admins only; any member may remove themselves, leaving).",
	Description: "The last admin cannot be removed.",
	Responses: []*apispec.Response{
		{Status: 204, Description: "Removed; no body."},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		{Status: 404, Description: "No organisation of the signed-in user's has that id, or no member of it that user id.", Content: jsonError()},
		rLastAdmin.At(409),
		rInternalError.At(500)},
}

var opCreateInvite = &apispec.Operation{ID: "createInvite", Method: "POST", Path: "/organisations/{id}/invites",
	Permission: "manage",
	Summary:    "Invite someone by e-mail to join the organisation (admins only).",
	Description: "The body: email, role and, for an auditor, accessEndsAt, a time in the future when its access ends by itself. " +
		"The address gets a link valid 7 days, usable once by the RegPulse account of that address; a new invitation of the same address replaces one still waiting. Rate-limited per client address. " + roleNote,
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[InviteRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Invited: the e-mail is sent.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[teams.Invite]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		{Status: 409, Description: "The address's user is already a member.", Content: jsonError()},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500),
		{Status: 502, Description: "The e-mail could not be sent; invite again (the new invitation replaces this one).", Content: jsonError()},
		{Status: 503, Description: "This server sends no e-mail.", Content: jsonError()}},
}

var opAcceptInvite = &apispec.Operation{ID: "acceptInvite", Method: "POST", Path: "/invites/accept",
	Summary:     "Accept an invitation: the signed-in user joins the organisation with the invited role.",
	Description: "The body: token, from the invitation e-mail's link. The signed-in user's e-mail address must be the invited one.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[InviteAcceptRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Joined: the organisation, with the user's role.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[teams.Organisation]()}}},
		{Status: 400, Description: "The body is malformed, or the token was not made by this server.", Content: jsonError()},
		rUnauthorized.At(401),
		{Status: 403, Description: "The invitation was sent to another e-mail address than the signed-in user's.", Content: jsonError()},
		{Status: 404, Description: "The invitation no longer exists: a newer one replaced it, or it expired and was removed.", Content: jsonError()},
		{Status: 409, Description: "The invitation was already accepted, or the user already is a member.", Content: jsonError()},
		{Status: 410, Description: "The invitation has expired.", Content: jsonError()},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

// teamsError gives the teams' errors their status.
func teamsError(err error) error {
	status := 0
	switch {
	case errors.Is(err, teams.ErrNoOrganisation):
		status = http.StatusNotFound
	case errors.Is(err, teams.ErrNoMember), errors.Is(err, teams.ErrNoInvite):
		status = http.StatusNotFound
	case errors.Is(err, teams.ErrLastAdmin), errors.Is(err, teams.ErrAlreadyMember), errors.Is(err, teams.ErrInviteUsed):
		status = http.StatusConflict
	case errors.Is(err, teams.ErrInviteExpired):
		status = http.StatusGone
	case errors.Is(err, teams.ErrInviteEmail):
		status = http.StatusForbidden
	case errors.Is(err, teams.ErrBadToken):
		status = http.StatusBadRequest
	default:
		return err
	}
	// The sentinel's own words, without the store's prefix.
	for _, e := range []error{teams.ErrNoOrganisation, teams.ErrNoMember, teams.ErrNoInvite, teams.ErrLastAdmin, teams.ErrAlreadyMember,
		teams.ErrInviteUsed, teams.ErrInviteExpired, teams.ErrInviteEmail, teams.ErrBadToken} {
		if errors.Is(err, e) {
			return errorStatus(status, capitalise(e.Error()))
		}
	}
	return err
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// orgMember is the signed-in user's membership of organisation id when
// may allows its role: a 404 when the user is not (or no longer) a
// member, a 403 when the role may not.
func (h *Handler) orgMember(r *http.Request, id string, may func(role string) bool) (teams.Member, error) {
	m, err := h.store.Membership(r.Context(), id, userOf(r).ID)
	if errors.Is(err, teams.ErrNoMember) || err == nil && !m.Active(h.now()) {
		return m, teamsError(teams.ErrNoOrganisation)
	}
	if err != nil {
		return m, err
	}
	if !may(m.Role) {
		return m, errorStatus(http.StatusForbidden, "Your role in this organisation ("+m.Role+") may not do this: ask one of its admins")
	}
	return m, nil
}

func (h *Handler) createOrganisation(w http.ResponseWriter, r *http.Request) {
	var req OrganisationRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if req.EntityTypes == nil {
		req.EntityTypes = []string{}
	}
	checkChoices(f, "entityTypes", req.EntityTypes, catalog.EntityTypes)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	o, err := h.store.CreateOrganisation(r.Context(), actor(r, ""), req.Name, req.EntityTypes)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, o.WithPermissions())
}

// checkRole checks a role and its end of access (an auditor's, in the
// future; none for another role) as field endField.
func (h *Handler) checkRole(f fieldErrors, role string, end *time.Time, endField string) {
	if !slices.Contains(teams.Roles, role) {
		f.add("role", "use one of: "+strings.Join(teams.Roles, ", "))
		return
	}
	switch {
	case role == teams.RoleAuditor && end == nil:
		f.add(endField, "an auditor's access needs an end: a time in the future")
	case role == teams.RoleAuditor && !end.After(h.now()):
		f.add(endField, "must be in the future")
	case role != teams.RoleAuditor && end != nil:
		f.add(endField, "only an auditor's access ends; leave it out for "+role)
	}
}

func (h *Handler) setMember(w http.ResponseWriter, r *http.Request, in memberIn) {
	var req MemberRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	h.checkRole(f, req.Role, req.ExpiresAt, "expiresAt")
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	m, err := h.store.SetMemberRole(r.Context(), actor(r, in.ID), in.UserID, req.Role, req.ExpiresAt)
	if err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// removeMember: an admin removes a member; any member leaves (orLeaving).
func (h *Handler) removeMember(w http.ResponseWriter, r *http.Request, in memberIn) {
	if err := h.store.RemoveMember(r.Context(), actor(r, in.ID), in.UserID); err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) createInvite(w http.ResponseWriter, r *http.Request, orgID string) {
	var req InviteRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	h.checkRole(f, req.Role, req.AccessEndsAt, "accessEndsAt")
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	if h.tmCfg.Mailer == nil {
		h.writeError(w, r, errorStatus(http.StatusServiceUnavailable, "This server sends no e-mail, so it cannot invite"))
		return
	}
	ctx := r.Context()
	// Waiting invitations past their expiry go as new ones are made.
	if _, err := h.store.ExpireInvites(ctx); err != nil {
		h.writeError(w, r, err)
		return
	}
	user := userOf(r)
	org, err := h.store.Organisation(ctx, user.ID, orgID)
	if err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	by := actor(r, orgID)
	inv := teams.NewInvite(by, req.Email, req.Role, req.AccessEndsAt, h.now())
	token := h.tmCfg.Tokens.Invite(inv)
	if inv, err = h.store.CreateInvite(ctx, by, inv, teams.TokenHash(token)); err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	site := h.tmCfg.Site
	if site == "" {
		site = siteOrigin(r) + "/"
	}
	// The invitation's language. The invitee may have no account yet, so
	// no language of their own, and an organisation has none stored: the
	// one language known is the inviter's. Of theirs, the page they
	// invite from (the islands' Accept-Language) says best what they read
	// and expect their message to be written in, and a colleague they
	// invite by name is likely to share it; a request naming no language
	// (a script, an API key) falls back to the inviter's stored language
	// (their own e-mails'). The link opens the accept page in the same
	// language.
	lang := i18n.Of(user.Language)
	if r.Header.Get("Accept-Language") != "" {
		lang = requestLanguage(r)
	}
	accept := teams.AcceptLink(site, lang.Code, token)
	name := strings.TrimSpace(user.FirstName + " " + user.LastName)
	if name == "" {
		name = user.Username
	}
	if err := h.tmCfg.Mailer.SendInvite(ctx, teams.InviteEmail{Invite: inv, Organisation: org.Name, InvitedBy: name, AcceptURL: accept,
		Language: lang.Code}); err != nil {
		h.log.Error("api: invitation e-mail failed", "invite", inv.ID, "err", err, "request_id", requestID(ctx))
		h.writeError(w, r, errorStatus(http.StatusBadGateway, "The invitation e-mail could not be sent; invite again"))
		return
	}
	writeJSON(w, http.StatusCreated, inv)
}

func (h *Handler) acceptInvite(w http.ResponseWriter, r *http.Request) {
	var req InviteAcceptRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	ctx, user, now := r.Context(), userOf(r), h.now()
	id, err := h.tmCfg.Tokens.ParseInvite(req.Token, now)
	if err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	inv, err := h.store.InviteByTokenHash(ctx, teams.TokenHash(req.Token))
	if err == nil && inv.ID != id {
		err = teams.ErrBadToken
	}
	if err == nil {
		err = inv.CheckAccept(user.Email, now)
	}
	if err == nil {
		_, err = h.store.AcceptInvite(ctx, actor(r, inv.OrganisationID), inv.ID)
	}
	if err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	o, err := h.store.Organisation(ctx, user.ID, inv.OrganisationID)
	if err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	writeJSON(w, http.StatusOK, o.WithPermissions())
}

// actor is the signed-in user (or the API key) acting on organisation orgID in r, with
// what the audit trail keeps of the request: its id and the client's
// address (as the rate limits see it).
func actor(r *http.Request, orgID string) teams.Actor {
	addr, _ := clientKey(r)
	if k, ok := keyOf(r); ok {
		return teams.Actor{KeyID: k.ID, OrganisationID: orgID, RequestID: requestID(r.Context()), ClientAddr: addr}
	}
	return teams.Actor{UserID: userOf(r).ID, OrganisationID: orgID, RequestID: requestID(r.Context()), ClientAddr: addr}
}
