package api

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/mail"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
)

// Decisions (issue 44, second slice): what an organisation decides on a
// circular, an obligation or a Master Direction provision, who owns it,
// by when and how far it is, its board, a member's work across their
// organisations, an admin's reassignment of a member's open items, and
// the comments. The roles' rules are teams': a member or an admin
// decides and comments, a viewer or an auditor reads; a non-member gets
// a 404 for anything of the organisation. The subject is named in the
// query (type, subject, provision): a provision's number has
// parentheses and spaces ("15(a)(i)") that a path segment would not keep
// plainly.

// Decisions is what the decision calls need of the store. Each call
// that changes one takes the teams.Actor, for the audit trail.
type Decisions interface {
	// PutDecision answers decisions.ErrStale for a write of a version
	// not stored, decisions.ErrNotOwner for an owner who may not decide.
	PutDecision(ctx context.Context, by teams.Actor, d decisions.Decision) (decisions.Decision, error)
	// Decision and Comments answer decisions.ErrNoDecision for none.
	Decision(ctx context.Context, orgID string, subject decisions.Subject) (decisions.Decision, error)
	Board(ctx context.Context, orgID string, q decisions.BoardQuery) ([]decisions.Decision, int, error)
	MyWork(ctx context.Context, userID string, page catalog.Page) (items []decisions.WorkItem, total, overdue int, err error)
	Reassign(ctx context.Context, by teams.Actor, from, to string) (int, error)
	// AddComment also answers the members it mentions: the ones to tell
	// by e-mail (mailMentions).
	AddComment(ctx context.Context, by teams.Actor, subject decisions.Subject, body string) (decisions.Comment, []teams.Member, error)
	Comments(ctx context.Context, orgID string, subject decisions.Subject) ([]decisions.Comment, error)
	// ObligationByID answers catalog.ErrNotFound for none.
	ObligationByID(ctx context.Context, id string) (catalog.Obligation, error)
	// ObligationsByID and DirectionTitles name the obligations of ids and
	// the directions of slugs, by key (none for a key the catalog lacks).
	ObligationsByID(ctx context.Context, ids []string) (map[string]catalog.Obligation, error)
	DirectionTitles(ctx context.Context, slugs []string) (map[string]string, error)
	// CircularRefsByID names the circulars of ids, by id (none for an id
	// it lacks).
	CircularRefsByID(ctx context.Context, ids []string) (map[string]catalog.CircularRef, error)
}

var decisionParams = map[string]*apispec.Param{
	"SubjectType": {Name: "type", In: "query", Required: true, RequiredMessage: "circular, obligation or provision",
		Description: "What the decision is about: circular, obligation or provision (of a Master Direction).",
		Schema:      apispec.Schema{Type: "string", Enum: decisions.SubjectTypes}},
	"SubjectID": {Name: "subject", In: "query", Required: true, RequiredMessage: "the circular's or obligation's id, or the direction's slug",
		Description: "The circular's or the obligation's id; for a provision, its Master Direction's slug.",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(100)}},
	"SubjectProvision": {Name: "provision", In: "query",
		Description: "For a provision: its number as the direction numbers it, e.g. 15(a)(i); nothing for the other subjects.",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(40)}},
	"DecisionStatus": filter("", "status", decisions.Statuses, "Only decisions of this status."+filterNote),
	"DecisionOwner": {Name: "owner", In: "query", Description: "Only decisions this member (a user id) owns.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
	// EvidenceID is evidence.go's.
	"EvidenceID": {Name: "evidence", In: "path", Required: true, Description: "The evidence's id.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
	"DecisionDueBefore": {Name: "due_before", In: "query", Description: "Only decisions due before this day (YYYY-MM-DD); those without a due date are left out.",
		Schema: apispec.Schema{Type: "string", Format: "date"}},
}

type (
	subjectIn struct {
		organisationIn
		Type      string `param:"SubjectType"`
		Subject   string `param:"SubjectID"`
		Provision string `param:"SubjectProvision"`
	}
	boardIn struct {
		organisationIn
		Status    string `param:"DecisionStatus"`
		Owner     string `param:"DecisionOwner"`
		DueBefore string `param:"DecisionDueBefore"`
		pageIn
	}
)

// Request bodies of the decision calls.
type (
	// DecisionRequest is PUT /organisations/{id}/decision's body.
	DecisionRequest struct {
		Applicability string        `json:"applicability" enum:"Applicability"`
		Reason        string        `json:"reason,omitempty"`
		Note          string        `json:"note,omitempty" check:"decisionNote"`
		DeferredUntil *catalog.Date `json:"deferredUntil,omitempty"`
		OwnerID       string        `json:"ownerId,omitempty"`
		Due           string        `json:"due,omitempty" check:"decisionDue"`
		Status        string        `json:"status,omitempty"`
		// Version is the decision's version the writer read: 0 for a
		// new one.
		Version int `json:"version"`
	}
	// CommentRequest is POST /organisations/{id}/decision/comments' body.
	CommentRequest struct {
		Body string `json:"body" check:"commentBody"`
	}
	// ReassignRequest is POST /organisations/{id}/reassign's body.
	ReassignRequest struct {
		From string `json:"from" check:"memberFrom"`
		To   string `json:"to" check:"memberTo"`
	}
	// ReassignResponse is POST /organisations/{id}/reassign's answer.
	ReassignResponse struct {
		Reassigned int `json:"reassigned"`
	}
)

func decisionRoutes() []*route {
	return []*route{
		signedIn(handle(opBoard, func(h *Handler, w http.ResponseWriter, r *http.Request, in boardIn) { h.board(w, r, in) })),
		signedIn(handle(opGetDecision, func(h *Handler, w http.ResponseWriter, r *http.Request, in subjectIn) {
			s, ok := h.subjectOf(w, r, in)
			if !ok {
				return
			}
			d, err := h.store.Decision(r.Context(), in.ID, s)
			if err == nil {
				d, err = h.presented(r.Context(), d)
			}
			if err != nil {
				h.writeError(w, r, decisionsError(err))
				return
			}
			writeJSON(w, http.StatusOK, d)
		})),
		signedIn(handle(opPutDecision, func(h *Handler, w http.ResponseWriter, r *http.Request, in subjectIn) { h.putDecision(w, r, in) })),
		signedIn(handle(opListComments, func(h *Handler, w http.ResponseWriter, r *http.Request, in subjectIn) {
			s, ok := h.subjectOf(w, r, in)
			if !ok {
				return
			}
			list, err := h.store.Comments(r.Context(), in.ID, s)
			if err != nil {
				h.writeError(w, r, decisionsError(err))
				return
			}
			writeJSON(w, http.StatusOK, list)
		})),
		signedIn(handle(opAddComment, func(h *Handler, w http.ResponseWriter, r *http.Request, in subjectIn) { h.addComment(w, r, in) })),
		signedIn(handle(opMyWork, func(h *Handler, w http.ResponseWriter, r *http.Request, in pageIn) { h.myWork(w, r, in) })),
		signedIn(handle(opReassign, func(h *Handler, w http.ResponseWriter, r *http.Request, in organisationIn) { h.reassign(w, r, in) })),
	}
}

var (
	rNotDecider = &apispec.Response{Component: "NotDecider",
		Description: "A member of the organisation whose role may not do this: a viewer or an auditor reads; an admin or a member decides and comments.",
		Content:     jsonError()}
	rStaleDecision = &apispec.Response{Component: "StaleDecision",
		Description: "The decision was changed since the version the body names (or one exists where version 0 said none did): read it again and decide again.",
		Content:     jsonError()}
	rNoDecision = &apispec.Response{Component: "NoDecision",
		Description: "No organisation of the signed-in user's has that id, or it has no decision on that subject yet.",
		Content:     jsonError()}
)

const subjectNote = " The subject: type (circular, obligation or provision), subject (the circular's or obligation's id, or the direction's slug) and, for a provision, provision (its number, e.g. 15(a)(i))."

var opBoard = &apispec.Operation{ID: "listDecisions", Method: "GET", Path: "/organisations/{id}/decisions",
	Permission:  "read",
	Summary:     "The organisation's board: a page of its decisions, by due date (those without one last); any member may read it.",
	Description: "Filters: status, owner (a user id), due_before (YYYY-MM-DD).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The decisions.", Headers: []*apispec.Header{hXTotalCount, hLink},
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]decisions.Decision]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

var opGetDecision = &apispec.Operation{ID: "getDecision", Method: "GET", Path: "/organisations/{id}/decision",
	Permission:  "read",
	Summary:     "The organisation's decision on one subject; any member may read it." + subjectNote,
	Description: "version is what a change sends back (PUT). reopened is set when the catalog's sync reopened the decision because its text changed (its circular replaced or withdrawn, its provision changed by a newer version of the direction): the status went back to assessing, with what changed.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The decision.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[decisions.Decision]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNoDecision.At(404),
		rInternalError.At(500)},
}

var opPutDecision = &apispec.Operation{ID: "putDecision", Method: "PUT", Path: "/organisations/{id}/decision",
	Permission: "decide",
	Summary:    "Decide on a subject, or change the decision (admins and members)." + subjectNote,
	Description: "The body: applicability (applicable; not-applicable with a reason: no-action-needed, duplicate, superseded, or other with a note; deferred with deferredUntil), " +
		"ownerId (an admin or a member of the organisation), due (a date YYYY-MM-DD, or effective+30d: days from the circular's effective date, or deadline-14d: days from the obligation's deadline), " +
		"status (new, assessing, action-planned, done; not-applicable follows applicability), and version: the decision's version read, 0 for a new one. " +
		"The answer records who decided and when, the due date resolved, and the text's version decided on (a circular's withdrawnOn, a provision's direction version in force).",
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[DecisionRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The decision as stored, its version one more.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[decisions.Decision]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotDecider.At(403),
		{Status: 404, Description: "No organisation of the signed-in user's has that id, or the catalog has no such subject (a provision: none of that number in force today).", Content: jsonError()},
		rStaleDecision.At(409),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opListComments = &apispec.Operation{ID: "listDecisionComments", Method: "GET", Path: "/organisations/{id}/decision/comments",
	Permission: "read",
	Summary:    "The comments on the organisation's decision on a subject, oldest first; any member may read them." + subjectNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The comments.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]decisions.Comment]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNoDecision.At(404),
		rInternalError.At(500)},
}

var opAddComment = &apispec.Operation{ID: "addDecisionComment", Method: "POST", Path: "/organisations/{id}/decision/comments",
	Permission:  "decide",
	Summary:     "Comment on the organisation's decision on a subject (admins and members)." + subjectNote,
	Description: "The body: body, 1 to 2000 characters. Each @username of a member is a mention (its user id in mentions), e-mailed the comment with the subject's title and a link to its page, once, unless it is the author or turned mention e-mails off (mentionEmails in the preferences); an @name that is no member's stays text. The comment is kept whatever happens to its e-mails.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[CommentRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Commented.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[decisions.Comment]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotDecider.At(403),
		rNoDecision.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opMyWork = &apispec.Operation{ID: "myWork", Method: "GET", Path: "/user/work",
	Summary: "The signed-in user's work: a page of the open decisions (status new, assessing or action-planned) it owns across its organisations, by due date (undated last), each with its organisation's name.",
	Description: "Each decision, here as in every answer, has overdue (open and its due date before today), and subjectTitle and subjectPath: the subject's title and page on the site (empty when the catalog no longer has it). " +
		"X-Total-Count is how many items the work holds on all pages, X-Overdue-Count how many of them are overdue.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "A page of the work.", Headers: []*apispec.Header{hXTotalCount, hXOverdueCount, hLink},
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]decisions.WorkItem]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var hXOverdueCount = &apispec.Header{Component: "X-Overdue-Count", Name: "X-Overdue-Count",
	Description: "How many of the items on all pages are overdue (open, due before today).", Schema: apispec.Schema{Type: "integer", Minimum: apispec.Int(0)}}

func (h *Handler) myWork(w http.ResponseWriter, r *http.Request, in pageIn) {
	page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
	list, total, overdue, err := h.store.MyWork(r.Context(), userOf(r).ID, page)
	if err == nil {
		ds := make([]*decisions.Decision, len(list))
		for i := range list {
			ds[i] = &list[i].Decision
		}
		err = h.present(r.Context(), ds)
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	w.Header().Set("X-Overdue-Count", strconv.Itoa(overdue))
	if next := page.Offset + len(list); len(list) > 0 && next < total {
		w.Header().Set("Link", `<`+pageURL(r.URL, page.Limit, next)+`>; rel="next"`)
	}
	writeJSON(w, http.StatusOK, list)
}

var opReassign = &apispec.Operation{ID: "reassignDecisions", Method: "POST", Path: "/organisations/{id}/reassign",
	Permission:  "manage",
	Summary:     "Give all of a member's open decisions to another member, in one call (admins only).",
	Description: "The body: from and to, user ids; to must be an admin or a member of the organisation. The answer counts the decisions moved; each one's version goes up.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ReassignRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Reassigned.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ReassignResponse]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotOrganisationAdmin.At(403),
		rOrganisationNotFound.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

// decisionsError gives the decisions' errors their status.
func decisionsError(err error) error {
	switch {
	case errors.Is(err, decisions.ErrNoDecision):
		return errorStatus(http.StatusNotFound, capitalise(decisions.ErrNoDecision.Error()))
	case errors.Is(err, decisions.ErrStale):
		return errorStatus(http.StatusConflict, capitalise(decisions.ErrStale.Error()))
	}
	return teamsError(err)
}

// subjectOf is the request's subject (the signed-in user's role in the
// organisation is checked before, by the call's Permission); false when
// the answer (an error) is written.
func (h *Handler) subjectOf(w http.ResponseWriter, r *http.Request, in subjectIn) (decisions.Subject, bool) {
	s := decisions.Subject{Type: in.Type, ID: in.Subject, Provision: catalog.OptString(in.Provision)}
	switch {
	case s.Type == decisions.SubjectProvision && s.Provision == "":
		h.writeError(w, r, fieldErrors{"provision": "is required for a provision: its number, e.g. 15(a)(i)"}.err())
		return s, false
	case s.Type != decisions.SubjectProvision && s.Provision != "":
		h.writeError(w, r, fieldErrors{"provision": "only a provision takes one"}.err())
		return s, false
	}
	return s, true
}

// subjectFacts are the catalog's dates of s that a due date counts from,
// and the version of its text today: errNotFound when the catalog has
// no such subject.
func (h *Handler) subjectFacts(ctx context.Context, s decisions.Subject) (decisions.Facts, string, error) {
	today := catalog.Date{Time: catalog.Day(h.now())}
	notFound := func(err error, msg string) error {
		if errors.Is(err, catalog.ErrNotFound) {
			return errorStatus(http.StatusNotFound, msg)
		}
		return err
	}
	withdrawn := func(d *catalog.Date) string {
		if d == nil {
			return ""
		}
		return d.String()
	}
	switch s.Type {
	case decisions.SubjectCircular:
		c, err := h.store.Circular(ctx, s.ID)
		if err != nil {
			return decisions.Facts{}, "", notFound(err, "No circular has that id")
		}
		return decisions.Facts{Effective: c.EffectiveDate}, withdrawn(c.WithdrawnOn), nil
	case decisions.SubjectObligation:
		o, err := h.store.ObligationByID(ctx, s.ID)
		if err != nil {
			return decisions.Facts{}, "", notFound(err, "No obligation has that id")
		}
		c, err := h.store.Circular(ctx, o.CircularID)
		if err != nil {
			return decisions.Facts{}, "", err
		}
		return decisions.Facts{Effective: c.EffectiveDate, Deadline: o.DueDate}, withdrawn(o.CircularWithdrawnOn), nil
	}
	d, err := h.store.DirectionBetween(ctx, s.ID, today, today)
	if err != nil {
		return decisions.Facts{}, "", notFound(err, "No Master Direction has that slug")
	}
	found := false
	for _, span := range d.History {
		if span.ID == string(s.Provision) && span.InForceOn(today) {
			found = true
			break
		}
	}
	if !found {
		return decisions.Facts{}, "", errorStatus(http.StatusNotFound, "The direction has no provision "+strconv.Quote(string(s.Provision))+" in force today")
	}
	version := d.IssuedDate
	if v := d.Current(today); v != nil {
		version = v.Date
	}
	return decisions.Facts{}, version.String(), nil
}

func (h *Handler) putDecision(w http.ResponseWriter, r *http.Request, in subjectIn) {
	s, ok := h.subjectOf(w, r, in)
	if !ok {
		return
	}
	var req DecisionRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	d := decisions.Decision{Subject: s, Applicability: req.Applicability, Reason: catalog.OptString(req.Reason), Note: catalog.OptString(req.Note),
		DeferredUntil: req.DeferredUntil, OwnerID: catalog.OptString(req.OwnerID), Due: catalog.OptString(req.Due), Status: req.Status, Version: req.Version}
	d.Normalise()
	for field, msg := range d.Check() {
		f.add(field, msg)
	}
	if req.Version < 0 {
		f.add("version", "the version read: 0 or more")
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	facts, text, err := h.subjectFacts(ctx, s)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if d.DueDate, err = decisions.ResolveDue(string(d.Due), s.Type, facts); err != nil {
		h.writeError(w, r, fieldErrors{"due": err.Error()}.err())
		return
	}
	d.TextVersion = catalog.OptString(text)
	d, err = h.store.PutDecision(ctx, actor(r, in.ID), d)
	if errors.Is(err, decisions.ErrNotOwner) {
		err = fieldErrors{"ownerId": capitalise(decisions.ErrNotOwner.Error())}.err()
	}
	if err == nil {
		d, err = h.presented(ctx, d)
	}
	if err != nil {
		h.writeError(w, r, decisionsError(err))
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (h *Handler) addComment(w http.ResponseWriter, r *http.Request, in subjectIn) {
	s, ok := h.subjectOf(w, r, in)
	if !ok {
		return
	}
	var req CommentRequest
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
	c, mentioned, err := h.store.AddComment(r.Context(), actor(r, in.ID), s, req.Body)
	if err != nil {
		h.writeError(w, r, decisionsError(err))
		return
	}
	h.mailMentions(r, in.ID, c, mentioned)
	writeJSON(w, http.StatusCreated, c)
}

// MentionMailer sends the e-mails of a comment's mentions
// (teammail.Mailer): each once, answering the addresses that failed.
type MentionMailer interface {
	SendMentions(ctx context.Context, es []teammail.MentionEmail) (map[string]error, error)
}

// mailMentions e-mails each member comment c mentions, once, but its
// author and those who turned mention e-mails off, with the comment,
// the subject's title and a link to its page. The comment is kept
// whatever happens to its e-mails: a failure is logged, not answered.
func (h *Handler) mailMentions(r *http.Request, orgID string, c decisions.Comment, mentioned []teams.Member) {
	if h.tmCfg.Mentions == nil || len(mentioned) == 0 {
		return
	}
	ctx, authorID := r.Context(), principalUserID(r)
	fail := func(err error) {
		h.log.Error("api: mention e-mails failed", "comment", c.ID, "err", err, "request_id", requestID(ctx))
	}
	var to []teams.Member
	for _, m := range mentioned {
		if m.UserID == authorID {
			continue
		}
		p, err := h.acc.users.Preferences(ctx, m.UserID)
		if err != nil {
			fail(err)
			continue
		}
		if p.MentionEmails {
			to = append(to, m)
		}
	}
	if len(to) == 0 {
		return
	}
	org, err := h.organisation(r, orgID)
	if err != nil {
		fail(err)
		return
	}
	page, err := teammail.SubjectPage(ctx, h.store, c.Subject)
	if err != nil {
		fail(err)
		return
	}
	base := h.tmCfg.Site
	if base == "" {
		base = siteOrigin(r) + "/"
	}
	site, err := mail.ParseSite(base)
	if err != nil {
		fail(err)
		return
	}
	author := commentAuthor(r)
	es := make([]teammail.MentionEmail, 0, len(to))
	for _, m := range to {
		e := teammail.NewMention(m, author, org.Name, c, page, site)
		// in the member's language: the one they chose, English if unknown
		if u, err := h.acc.users.UserByID(ctx, m.UserID); err == nil {
			e.Language = u.Language
		}
		es = append(es, e)
	}
	failed, err := h.tmCfg.Mentions.SendMentions(ctx, es)
	if err != nil {
		fail(err)
	}
	for addr, err := range failed {
		h.log.Warn("api: a mention e-mail was not delivered", "comment", c.ID, "to", addr, "err", err, "request_id", requestID(ctx))
	}
}

func (h *Handler) board(w http.ResponseWriter, r *http.Request, in boardIn) {
	q := decisions.BoardQuery{Status: in.Status, OwnerID: in.Owner, Limit: in.Limit, Offset: in.Offset}
	if in.DueBefore != "" {
		t, _ := time.Parse(time.DateOnly, in.DueBefore) // checked as its parameter
		q.DueBefore = &catalog.Date{Time: t}
	}
	page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
	items, total, err := h.store.Board(r.Context(), in.ID, q)
	if err == nil {
		ds := make([]*decisions.Decision, len(items))
		for i := range items {
			ds[i] = &items[i]
		}
		err = h.present(r.Context(), ds)
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	if next := page.Offset + len(items); len(items) > 0 && next < total {
		w.Header().Set("Link", `<`+pageURL(r.URL, page.Limit, next)+`>; rel="next"`)
	}
	writeJSON(w, http.StatusOK, items)
}

func (h *Handler) reassign(w http.ResponseWriter, r *http.Request, in organisationIn) {
	var req ReassignRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if req.From != "" && req.From == req.To {
		f.add("to", "another member than from")
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	n, err := h.store.Reassign(r.Context(), actor(r, in.ID), req.From, req.To)
	if errors.Is(err, decisions.ErrNotOwner) {
		err = fieldErrors{"to": capitalise(decisions.ErrNotOwner.Error())}.err()
	}
	if err != nil {
		h.writeError(w, r, decisionsError(err))
		return
	}
	writeJSON(w, http.StatusOK, ReassignResponse{Reassigned: n})
}

// present sets what the answer shows of each decision beyond what is
// stored: whether it is overdue today (decisions.OverdueOn) and its
// subject's title and page in the catalog. Each kind of subject is named
// in one read whatever the page holds (ObligationsByID, DirectionTitles,
// then CircularRefsByID for the circulars and the obligations'
// circulars; no texts). A subject the catalog no longer has keeps no
// title nor page: its decision still shows.
func (h *Handler) present(ctx context.Context, ds []*decisions.Decision) error {
	today := h.now()
	var circularIDs, obligationIDs, slugs []string
	for _, d := range ds {
		d.Overdue = d.OverdueOn(today)
		switch d.Type {
		case decisions.SubjectCircular:
			circularIDs = append(circularIDs, d.ID)
		case decisions.SubjectObligation:
			obligationIDs = append(obligationIDs, d.ID)
		case decisions.SubjectProvision:
			slugs = append(slugs, d.ID)
		}
	}
	obligations, err := h.store.ObligationsByID(ctx, obligationIDs)
	if err != nil {
		return err
	}
	for _, o := range obligations {
		circularIDs = append(circularIDs, o.CircularID)
	}
	directions, err := h.store.DirectionTitles(ctx, slugs)
	if err != nil {
		return err
	}
	refs, err := h.store.CircularRefsByID(ctx, circularIDs)
	if err != nil {
		return err
	}
	for _, d := range ds {
		switch d.Type {
		case decisions.SubjectCircular:
			if c, ok := refs[d.ID]; ok {
				d.SubjectTitle, d.SubjectPath = c.Title, "/circulars/"+c.Slug
			}
		case decisions.SubjectObligation:
			o := obligations[d.ID]
			if c, ok := refs[o.CircularID]; ok {
				d.SubjectTitle, d.SubjectPath = o.What, "/circulars/"+c.Slug
			}
		case decisions.SubjectProvision:
			if title := directions[d.ID]; title != "" {
				d.SubjectTitle, d.SubjectPath = title+", paragraph "+string(d.Provision), catalog.DirectionPath(d.ID)
			}
		}
	}
	return nil
}

// presented is present of one decision.
func (h *Handler) presented(ctx context.Context, d decisions.Decision) (decisions.Decision, error) {
	err := h.present(ctx, []*decisions.Decision{&d})
	return d, err
}

// commentAuthor is who a mention e-mail names as the comment's author:
// the signed-in user, or an API key by its name.
func commentAuthor(r *http.Request) teams.Member {
	if k, ok := keyOf(r); ok {
		return teams.Member{Username: "API key " + k.Name}
	}
	u := userOf(r)
	return teams.Member{UserID: u.ID, Username: u.Username, FirstName: u.FirstName, LastName: u.LastName}
}
