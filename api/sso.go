package api

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/auth"
	"regpulse/internal/sso"
	"regpulse/internal/teams"
)

// Single sign-on (issue 44): an organisation's admin sets its OpenID
// Connect provider and the e-mail domains it covers; someone of such a
// domain signs in through the provider (authorization code flow with
// PKCE; state, nonce and verifier in a short-lived signed cookie) and
// comes back signed in, a new account joining the organisation as a
// member. Passwords stay: single sign-on is one more way in.
// A browser (Accept: text/html) gets redirects and, on a failure, a page
// saying what went wrong; an API caller gets JSON.

// SSO is what the single sign-on calls need of the store.
type SSO interface {
	// SSOSettings answers sso.ErrNotConfigured for none.
	SSOSettings(ctx context.Context, orgID string) (sso.Settings, error)
	SaveSSOSettings(ctx context.Context, by teams.Actor, st sso.Settings) (sso.Settings, error)
	// VerifySSODomains answers sso.ErrDomainTaken for a domain another
	// organisation has verified.
	VerifySSODomains(ctx context.Context, by teams.Actor, domains []string) (sso.Settings, error)
	// SSOByDomain answers sso.ErrNoOrganisation for a domain no
	// organisation has verified.
	SSOByDomain(ctx context.Context, domain string) (sso.Settings, error)
	// UseSSOState answers sso.ErrBadFlow for a state used before.
	UseSSOState(ctx context.Context, stateHash string, expires time.Time) error
	// SSOSignIn answers sso.ErrNotMember for an account outside the
	// organisation.
	SSOSignIn(ctx context.Context, orgID string, id sso.Identity, nu auth.NewUser) (auth.User, error)
}

// SSOConfig configures single sign-on; zero fields take defaults.
type SSOConfig struct {
	// Flows seals the sign-ins under way; nil: a random key for this
	// process (a sign-in started before a restart must start again).
	Flows *sso.Flows
	// Client talks to the providers; nil: sso.NewClient's default.
	Client *sso.Client
	// Site is the site's absolute URL, under which the providers send
	// people back (/api/auth/sso/callback); "" takes the request's own
	// origin.
	Site string
	// LookupTXT reads the domains' DNS records; nil:
	// net.DefaultResolver's.
	LookupTXT sso.Lookup
	// TrustDomains takes every domain an admin names as verified, with
	// no DNS record: for tests and a deployment whose organisations are
	// all the operator's own.
	TrustDomains bool
}

// WithSSO configures single sign-on.
func WithSSO(c SSOConfig) Option { return func(h *Handler) { h.ssoCfg = c } }

func (h *Handler) initSSO() {
	c := &h.ssoCfg
	if c.Flows == nil {
		c.Flows, _ = sso.NewFlows(processSecret(), h.now) // 32 bytes: no error
	}
	if c.Client == nil {
		c.Client = sso.NewClient(nil, h.now)
	}
	if c.LookupTXT == nil {
		c.LookupTXT = net.DefaultResolver.LookupTXT
	}
}

// ssoCallbackPath is the callback's path on the site.
const ssoCallbackPath = "/api/auth/sso/callback"

// redirectURI is the callback's absolute address.
func (h *Handler) redirectURI(r *http.Request) string {
	site := h.ssoCfg.Site
	if site == "" {
		site = siteOrigin(r)
	}
	return strings.TrimSuffix(site, "/") + ssoCallbackPath
}

var ssoParams = map[string]*apispec.Param{
	"SSOEmail": {Name: "email", In: "query", Raw: true, Description: "The work e-mail address whose domain names the organisation (this or org).",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(254)}},
	"SSOOrganisation": {Name: "org", In: "query", Raw: true, Description: "The organisation's id (this or email).",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
	"SSONext": {Name: "next", In: "query", Raw: true, Description: "The site's path to come back to once signed in; anything but a same-site path is /.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(2000)}},
	"SSOCode":  {Name: "code", In: "query", Raw: true, Description: "The provider's authorization code.", Schema: apispec.Schema{Type: "string"}},
	"SSOState": {Name: "state", In: "query", Raw: true, Description: "The state the sign-in started with.", Schema: apispec.Schema{Type: "string"}},
	"SSOError": {Name: "error", In: "query", Raw: true, Description: "The provider's error code, when it refused.", Schema: apispec.Schema{Type: "string"}},
}

type (
	ssoStartIn struct {
		Email string `param:"SSOEmail"`
		Org   string `param:"SSOOrganisation"`
		Next  string `param:"SSONext"`
	}
	ssoCallbackIn struct {
		Code  string `param:"SSOCode"`
		State string `param:"SSOState"`
		Error string `param:"SSOError"`
	}
)

// Request and response bodies of the single sign-on calls.
type (
	// SSORequest is PUT /organisations/{id}/sso's body.
	SSORequest struct {
		Issuer   string `json:"issuer"`
		ClientID string `json:"clientId"`
		// ClientSecret left out or "" keeps the stored one.
		ClientSecret string   `json:"clientSecret,omitempty"`
		Domains      []string `json:"domains"`
		Enabled      bool     `json:"enabled"`
	}
	// SSOSettings is an organisation's settings as the API shows them:
	// the secret only by its last characters.
	SSOSettings struct {
		sso.Settings
		// Configured is false until an admin saves settings.
		Configured bool `json:"configured"`
		// Unverified names why each domain not verified is not, after
		// POST .../sso/verify (empty otherwise).
		Unverified map[string]string `json:"unverified"`
	}
	// SSOStartResponse is GET /auth/sso/start's answer to an API caller.
	SSOStartResponse struct {
		// RedirectURL is the provider's sign-in page to send the browser
		// to (the flow's cookie came with this answer).
		RedirectURL string `json:"redirectUrl"`
	}
	// SSOSignInResponse is GET /auth/sso/callback's answer to an API
	// caller.
	SSOSignInResponse struct {
		Token string `json:"token"`
		// Next is the same-site path to go to.
		Next string `json:"next"`
	}
)

func ssoRoutes() []*route {
	limit := accountsLimit("sso", func(c AuthConfig) int { return c.LoginLimit })
	return []*route{
		signedIn(handle(opGetSSO, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) { h.getSSO(w, r, in.ID) })),
		signedIn(handle(opPutSSO, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) { h.putSSO(w, r, in.ID) })),
		signedIn(handle(opVerifySSO, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) { h.verifySSO(w, r, in.ID) })),
		limited(limit, handle(opSSOStart, func(h *Handler, w http.ResponseWriter, r *http.Request, in ssoStartIn) { h.ssoStart(w, r, in) })),
		limited(limit, onlyQuery(handle(opSSOCallback, func(h *Handler, w http.ResponseWriter, r *http.Request, in ssoCallbackIn) { h.ssoCallback(w, r, in) }),
			"code", "state", "error")),
	}
}

// onlyQuery makes rt read only the query parameters names: a provider
// adds its own to the callback (iss, session_state, scope, authuser,
// error_description...), which would otherwise be refused as unknown.
func onlyQuery(rt *route, names ...string) *route {
	serve := rt.serve
	rt.serve = func(h *Handler) http.HandlerFunc {
		next := serve(h)
		return func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			for name := range q {
				if !slices.Contains(names, name) {
					q.Del(name)
				}
			}
			r2 := r.Clone(r.Context())
			r2.URL.RawQuery = q.Encode()
			next(w, r2)
		}
	}
	return rt
}

var hSetCookie = &apispec.Header{Name: "Set-Cookie", Schema: apispec.Schema{Type: "string"}}

func jsonOrPage() []apispec.Content { return append(jsonError(), htmlPage...) }

const ssoNote = "A domain (e.g. example.co.in) covers addresses of exactly that domain, not its subdomains, once verified: a TXT record at _regpulse-sso.<domain> holding recordValue proves the organisation holds it (POST .../sso/verify looks). A domain is verified for one organisation at most; naming one blocks no one."

var opGetSSO = &apispec.Operation{ID: "getSSO", Method: "GET", Path: "/organisations/{id}/sso", Permission: "manage",
	Summary:     "The organisation's single sign-on settings (admins only).",
	Description: "The client secret is never shown, only its last characters (clientSecretHint). redirectUri is the callback address to register with the provider. " + ssoNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The settings (configured false, and empty, before any were saved).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SSOSettings]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

var opPutSSO = &apispec.Operation{ID: "putSSO", Method: "PUT", Path: "/organisations/{id}/sso", Permission: "manage",
	Summary: "Set the organisation's single sign-on (admins only).",
	Description: "The body: issuer (the provider's issuer URL, https), clientId, clientSecret (left out: the stored one is kept), domains (1 to 20 e-mail domains), enabled. " +
		"The audit trail records sso.update, without the secret. " + ssoNote,
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SSORequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SSOSettings]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		{Status: 409, Description: "Only where the operator trusts what admins name (--sso-trust-domains): another organisation has verified one of the domains; fields names it (the settings are saved, that domain unverified).", Content: jsonError()},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opVerifySSO = &apispec.Operation{ID: "verifySSO", Method: "POST", Path: "/organisations/{id}/sso/verify", Permission: "manage",
	Summary:     "Look up the DNS records of the organisation's domains not verified yet (admins only).",
	Description: "Each domain whose TXT record at _regpulse-sso.<domain> holds the settings' recordValue is verified from now on (sso.verify in the audit trail), unless another organisation verified it first; the answer's unverified names why each other one is not. " + ssoNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The settings, verifiedDomains as now.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SSOSettings]()}}},
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		{Status: 404, Description: "No organisation of the signed-in user's has that id, or it has no single sign-on settings.", Content: jsonError()},
		rInternalError.At(500)},
}

var opSSOStart = &apispec.Operation{ID: "ssoStart", Method: "GET", Path: "/auth/sso/start",
	Summary: "Start signing in through an organisation's single sign-on.",
	Description: "email (its domain names the organisation) or org. A browser (Accept: text/html) is redirected to the provider, or shown a page saying why not; " +
		"an API caller gets the provider's address to send the browser to. Either way a cookie carries the sign-in's state for ten minutes. Rate-limited per client address like sign-in.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "An API caller: the provider's address.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SSOStartResponse]()}}, Headers: []*apispec.Header{hSetCookie}},
		{Status: 303, Description: "A browser: to the provider.", Headers: []*apispec.Header{hLocation, hSetCookie}},
		{Status: 400, Description: "Neither a valid e-mail address nor an organisation.", Content: jsonOrPage()},
		{Status: 403, Description: "The organisation's single sign-on is turned off.", Content: jsonOrPage()},
		{Status: 404, Description: "No organisation covers the address's domain (or has that id and single sign-on).", Content: jsonOrPage()},
		rTooManyRequests.At(429),
		rInternalError.At(500),
		{Status: 502, Description: "The provider could not be reached.", Content: jsonOrPage()}},
}

var opSSOCallback = &apispec.Operation{ID: "ssoCallback", Method: "GET", Path: "/auth/sso/callback",
	Summary: "Where the provider sends the browser back: finish signing in.",
	Description: "Needs the cookie of the start, in the same browser, once. The provider's ID token is verified (signature, issuer, audience, expiry, nonce) and its e-mail must be verified and of one of the organisation's domains. " +
		"Someone new gets an account and joins the organisation as a member (member.sso_join in its audit trail); a member keeps their role; an account outside the organisation is refused. " +
		"A browser is redirected to /login/ with the token in the address's fragment and the path to go to (next), or shown a page saying what went wrong; an API caller gets JSON. Other parameters a provider adds (iss, session_state, scope...) are ignored.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "An API caller: signed in.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SSOSignInResponse]()}}, Headers: []*apispec.Header{hSetCookie}},
		{Status: 303, Description: "A browser: signed in, to /login/#sso_token=…&next=….", Headers: []*apispec.Header{hLocation, hSetCookie}},
		{Status: 400, Description: "No sign-in under way in this browser, or it expired or was used already.", Content: jsonOrPage()},
		{Status: 401, Description: "The provider's answer failed a check: the ID token (audience, nonce, expiry, signature), an e-mail not verified or outside the organisation's domains.", Content: jsonOrPage()},
		{Status: 403, Description: "An account of the address exists outside the organisation, or single sign-on was turned off meanwhile.", Content: jsonOrPage()},
		rTooManyRequests.At(429),
		rInternalError.At(500),
		{Status: 502, Description: "The provider refused or could not be reached.", Content: jsonOrPage()}},
}

// ssoStatus is the status of a single sign-on error (0: not one).
func ssoStatus(err error) int {
	switch {
	case errors.Is(err, sso.ErrBadFlow):
		return http.StatusBadRequest
	case errors.Is(err, sso.ErrBadIDToken), errors.Is(err, sso.ErrUnverified), errors.Is(err, sso.ErrOtherDomain):
		return http.StatusUnauthorized
	case errors.Is(err, sso.ErrDisabled), errors.Is(err, sso.ErrNotMember):
		return http.StatusForbidden
	case errors.Is(err, sso.ErrNoOrganisation), errors.Is(err, sso.ErrNotConfigured):
		return http.StatusNotFound
	case errors.Is(err, sso.ErrDomainTaken):
		return http.StatusConflict
	case errors.Is(err, sso.ErrProvider):
		return http.StatusBadGateway
	}
	return 0
}

func (h *Handler) ssoView(r *http.Request, st sso.Settings, configured bool) SSOSettings {
	st = st.Shown()
	st.RedirectURI = h.redirectURI(r)
	return SSOSettings{Settings: st, Configured: configured, Unverified: map[string]string{}}
}

func (h *Handler) getSSO(w http.ResponseWriter, r *http.Request, orgID string) {
	st, err := h.store.SSOSettings(r.Context(), orgID)
	if errors.Is(err, sso.ErrNotConfigured) {
		writeJSON(w, http.StatusOK, h.ssoView(r, st, false))
		return
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h.ssoView(r, st, true))
}

func (h *Handler) putSSO(w http.ResponseWriter, r *http.Request, orgID string) {
	var req SSORequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	old, err := h.store.SSOSettings(r.Context(), orgID)
	if err != nil && !errors.Is(err, sso.ErrNotConfigured) {
		h.writeError(w, r, err)
		return
	}
	st, bad := sso.Check(old, sso.Input{Issuer: req.Issuer, ClientID: req.ClientID, ClientSecret: req.ClientSecret, Domains: req.Domains, Enabled: req.Enabled})
	if len(bad) > 0 {
		f := fieldErrors{}
		for k, v := range bad {
			f.add(k, v)
		}
		h.writeError(w, r, f.err())
		return
	}
	by := actor(r, orgID)
	st, err = h.store.SaveSSOSettings(r.Context(), by, st)
	if err == nil && h.ssoCfg.TrustDomains {
		st, err = h.store.VerifySSODomains(r.Context(), by, st.Domains)
	}
	if err != nil {
		h.writeError(w, r, ssoSettingsError(err))
		return
	}
	writeJSON(w, http.StatusOK, h.ssoView(r, st, true))
}

// ssoSettingsError gives the settings calls' errors their status: a
// domain verified by another organisation named in the message and
// the domains field.
func ssoSettingsError(err error) error {
	switch {
	case errors.Is(err, sso.ErrDomainTaken):
		// The store names the domain after the sentinel's words.
		_, domain, _ := strings.Cut(err.Error(), sso.ErrDomainTaken.Error())
		msg := capitalise(sso.ErrDomainTaken.Error()) + domain
		return &Error{Status: http.StatusConflict, Message: msg, Fields: map[string]string{"domains": msg}}
	case errors.Is(err, sso.ErrNotConfigured):
		return errorStatus(http.StatusNotFound, capitalise(sso.ErrNotConfigured.Error()))
	}
	return teamsError(err)
}

func (h *Handler) verifySSO(w http.ResponseWriter, r *http.Request, orgID string) {
	ctx := r.Context()
	st, err := h.store.SSOSettings(ctx, orgID)
	if err != nil {
		h.writeError(w, r, ssoSettingsError(err))
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	proven, why := sso.Verify(lookupCtx, st, h.ssoCfg.LookupTXT)
	// One at a time: a domain another organisation verified first stays
	// unverified here, and the others pass.
	for _, d := range proven {
		next, err := h.store.VerifySSODomains(ctx, actor(r, orgID), []string{d})
		switch {
		case errors.Is(err, sso.ErrDomainTaken):
			why[d] = sso.ErrDomainTaken.Error()
		case err != nil:
			h.writeError(w, r, err)
			return
		default:
			st = next
		}
	}
	v := h.ssoView(r, st, true)
	v.Unverified = why
	writeJSON(w, http.StatusOK, v)
}

// wantsPage reports whether r is a browser's navigation, which gets
// redirects and pages rather than JSON.
func wantsPage(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// ssoFail answers a failed sign-in with its message (the operator's log
// keeps the details).
func (h *Handler) ssoFail(w http.ResponseWriter, r *http.Request, err error, next string) {
	status := ssoStatus(err)
	msg, ok := sso.Public(err)
	if status == 0 || !ok {
		h.log.Error("api: single sign-on", "err", err, "request_id", requestID(r.Context()))
		status, msg = http.StatusInternalServerError, "internal server error"
	} else {
		h.log.Info("api: single sign-on refused", "err", err, "request_id", requestID(r.Context()))
	}
	h.ssoFailStatus(w, r, status, capitalise(msg), next)
}

// ssoFailStatus answers status with msg: JSON for an API caller, a page
// for a browser with a way back to the sign-in page (and on to next).
func (h *Handler) ssoFailStatus(w http.ResponseWriter, r *http.Request, status int, msg, next string) {
	if !wantsPage(r) {
		writeJSON(w, status, errorStatus(status, msg))
		return
	}
	back := "/login/"
	if next = sso.SafeNext(next); next != "/" {
		back += "?" + url.Values{"next": {next}}.Encode()
	}
	writeMailPage(w, r, status, pageData{Title: "Single sign-on failed", Message: msg + ".", Back: back})
}

func (h *Handler) flowCookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: sso.CookieName, Value: value, Path: "/api/auth/sso/", MaxAge: maxAge, HttpOnly: true,
		Secure: strings.HasPrefix(h.redirectURI(r), "https://"), SameSite: http.SameSiteLaxMode}
}

func (h *Handler) ssoStart(w http.ResponseWriter, r *http.Request, in ssoStartIn) {
	ctx := r.Context()
	var st sso.Settings
	var err error
	email := strings.TrimSpace(in.Email)
	switch {
	case email != "":
		d, ok := sso.DomainOf(email)
		if !ok || len(email) > 254 {
			h.ssoFailStatus(w, r, http.StatusBadRequest, "Enter a valid work e-mail address", in.Next)
			return
		}
		st, err = h.store.SSOByDomain(ctx, d)
	case in.Org != "":
		st, err = h.store.SSOSettings(ctx, in.Org)
		if errors.Is(err, sso.ErrNotConfigured) {
			err = sso.ErrNoOrganisation
		}
	default:
		h.ssoFailStatus(w, r, http.StatusBadRequest, "Enter your work e-mail address (email) or the organisation (org)", in.Next)
		return
	}
	if err == nil && !st.Enabled {
		err = sso.ErrDisabled
	}
	if err != nil {
		h.ssoFail(w, r, err, in.Next)
		return
	}
	flow := h.ssoCfg.Flows.Begin(st.OrganisationID, in.Next)
	to, err := h.ssoCfg.Client.AuthURL(ctx, st, h.redirectURI(r), flow, email)
	if err != nil {
		h.ssoFail(w, r, err, in.Next)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.SetCookie(w, h.flowCookie(r, h.ssoCfg.Flows.Seal(flow), int(sso.FlowFor/time.Second)))
	if wantsPage(r) {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	writeJSON(w, http.StatusOK, SSOStartResponse{RedirectURL: to})
}

func (h *Handler) ssoCallback(w http.ResponseWriter, r *http.Request, in ssoCallbackIn) {
	ctx := r.Context()
	w.Header().Set("Cache-Control", "no-store")
	// The cookie goes whatever happens: a flow is tried once.
	http.SetCookie(w, h.flowCookie(r, "", -1))
	var flow sso.Flow
	c, err := r.Cookie(sso.CookieName)
	if err == nil {
		flow, err = h.ssoCfg.Flows.Open(c.Value, in.State)
	}
	if err != nil {
		h.ssoFail(w, r, sso.ErrBadFlow, "")
		return
	}
	if in.Error != "" {
		h.ssoFail(w, r, errors.Join(sso.ErrProvider, errors.New("provider error: "+in.Error)), flow.Next)
		return
	}
	if in.Code == "" {
		h.ssoFail(w, r, sso.ErrBadFlow, flow.Next)
		return
	}
	if err := h.store.UseSSOState(ctx, flow.StateHash(), flow.Expires); err != nil {
		h.ssoFail(w, r, err, flow.Next)
		return
	}
	st, err := h.store.SSOSettings(ctx, flow.OrganisationID)
	if errors.Is(err, sso.ErrNotConfigured) || err == nil && !st.Enabled {
		err = sso.ErrDisabled
	}
	if err != nil {
		h.ssoFail(w, r, err, flow.Next)
		return
	}
	id, err := h.ssoCfg.Client.Finish(ctx, st, h.redirectURI(r), flow, in.Code)
	if err != nil {
		h.ssoFail(w, r, err, flow.Next)
		return
	}
	u, err := h.ssoSignIn(ctx, st.OrganisationID, id)
	if err != nil {
		h.ssoFail(w, r, err, flow.Next)
		return
	}
	if err := h.acc.users.RecordLogin(ctx, u.ID, h.now()); err != nil {
		h.ssoFail(w, r, err, flow.Next)
		return
	}
	token, err := h.acc.tokens.Issue(u)
	if err != nil {
		h.ssoFail(w, r, err, flow.Next)
		return
	}
	if !wantsPage(r) {
		writeJSON(w, http.StatusOK, SSOSignInResponse{Token: token, Next: flow.Next})
		return
	}
	// The token travels in the fragment, which no server or log sees;
	// the sign-in page keeps it and goes on to next.
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, "/login/#"+url.Values{"sso_token": {token}, "next": {flow.Next}}.Encode(), http.StatusSeeOther)
}

// ssoSignIn is the account of id, made (with a password no one knows,
// so only single sign-on opens it until one is set) when new.
func (h *Handler) ssoSignIn(ctx context.Context, orgID string, id sso.Identity) (auth.User, error) {
	local, _, _ := strings.Cut(id.Email, "@")
	username := local
	if len(username) < 3 {
		username += "-sso"
	}
	if len(username) > 40 {
		username = username[:40]
	}
	hash, err := h.acc.hasher.Hash(base64.RawURLEncoding.EncodeToString(processSecret()))
	if err != nil {
		return auth.User{}, err
	}
	first, last := strings.TrimSpace(id.GivenName), strings.TrimSpace(id.FamilyName)
	if first == "" {
		first = local
	}
	return h.store.SSOSignIn(ctx, orgID, id, auth.NewUser{Username: username, Email: id.Email, PasswordHash: hash, FirstName: first, LastName: last})
}
