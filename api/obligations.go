package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
	"regpulse/internal/register"
)

// The obligation calls: a circular's obligations and the list of all
// (public reads, cached), their bulk download, how far the extraction of
// obligations is, the signed-in user's register (statuses, notes,
// history, its CSV and the compliance score), and an organisation's
// register (orgregister.go).

// obligationParams are the parameters only the obligation calls take.
var obligationParams = map[string]*apispec.Param{
	"ObligationID": {Name: "id", In: "path", Required: true, Description: "The obligation's id (stable: from its circular and source sentence).",
		Schema: apispec.Schema{Type: "string", Format: "uuid"}},
	"EntityType": filter("EntityType", "entityType", catalog.EntityTypes,
		"Only obligations applying to this entity type (those of all regulated entities included)."+filterNote),
	"DueBefore": {Component: "DueBefore", Name: "due_before", In: "query",
		Description: "Only obligations due on or before this date (YYYY-MM-DD); undated ones are left out.",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"DueAfter": {Component: "DueAfter", Name: "due_after", In: "query",
		Description: "Only obligations due on or after this date (YYYY-MM-DD); undated ones are left out.",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"ObligationOrigin": filter("ObligationOrigin", "origin", catalog.ObligationOrigins,
		"Only obligations written by editors (editor) or proposed by the AI layer (extracted)."+filterNote),
	"Binding": filter("Binding", "binding", []string{"true", "false"},
		"Only binding obligations (true) or those of drafts and consultations, which bind no one yet (false)."+filterNote),
	"RegisterStatus": filter("RegisterStatus", "status", register.Statuses, "Only obligations with this status (todo until set)."+filterNote),
	"DueGroup": filter("DueGroup", "group", register.Groups,
		"Only obligations of this due-date group as of today (UTC): overdue (a date passed while your register tracked it), in-force (a date passed before it began tracking: to confirm), this-month, later, no-date."+filterNote),
	"ScoreOrganisation": {Name: "organisation", In: "query",
		Description: "Whose score: an organisation's id (one of which the user is a member), or " + scoreOwnNone + " for the user's own register. Without it, a member of an organisation has their first organisation's (by name), the others their own.",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
	"RegisterSearch": {Component: "RegisterSearch", Name: "search", In: "query",
		Description: fmt.Sprintf("Case-insensitive substring of what, the source sentence or the circular's title (at most %d characters). %% and _ match themselves.", maxSearchLength),
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(maxSearchLength)}},
}

func obligationRoutes() []*route {
	return []*route{
		cachedBy(always, handle(opCircularObligations, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularIn) {
			h.circularObligations(w, r, in.ID)
		})),
		cachedBy(always, handle(opListObligations, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			listPage(h, w, r, page, in.query(page), h.store.ListObligations)
		})),
		handle(opExportObligationsCSV, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationFilters) {
			h.exportObligations(w, r, in.query(catalog.Page{}))
		}),
		// changes as it runs: never from the read cache
		handle(opObligationExtraction, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) {
			var st obligations.ExtractionStatus
			if h.extraction != nil {
				st = h.extraction.Status()
			}
			h.writeOK(w, r, st)
		}),
		signedIn(handle(opListRegister, func(h *Handler, w http.ResponseWriter, r *http.Request, in registerIn) { h.listRegister(w, r, in) })),
		signedIn(handle(opExportRegisterCSV, func(h *Handler, w http.ResponseWriter, r *http.Request, in registerFilters) {
			h.exportRegister(w, r, in)
		})),
		signedIn(handle(opSetObligationStatus, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationIn) {
			h.putObligationStatus(w, r, in.ID)
		})),
		signedIn(handle(opObligationHistory, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationIn) {
			h.obligationHistory(w, r, in.ID)
		})),
		signedIn(handle(opComplianceScore, func(h *Handler, w http.ResponseWriter, r *http.Request, in scoreIn) { h.complianceScore(w, r, in) })),
		signedIn(handle(opConfirmInForce, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.confirmInForce(w, r) })),
		signedIn(handle(opOrganisationRegister, func(h *Handler, w http.ResponseWriter, r *http.Request, in orgRegisterIn) {
			h.organisationRegister(w, r, in)
		})),
	}
}

var rObligationNotFound = &apispec.Response{Component: "ObligationNotFound", Description: "Your register holds no obligation with that id: none has it, it binds no one, or it applies to none of your entity types.",
	Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}

var opCircularObligations = &apispec.Operation{ID: "circularObligations", Method: "GET", Path: "/circulars/{id}/obligations",
	Summary:     "A circular's obligations.",
	Description: "What the circular requires, of whom, by when, in its order: the ones its editors wrote (origin editor) or, when it has none, the ones the AI layer proposed and stored (origin extracted, labelled until an editor accepts them). sourceStart and sourceEnd are the UTF-16 offsets of the source sentence in the circular's content. A draft's obligations have binding false: they oblige no one yet.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The obligations (possibly none).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Obligation]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rNotFound.At(404),
		rInternalError.At(500)},
}

var opListObligations = &apispec.Operation{ID: "listObligations", Method: "GET", Path: "/obligations",
	Summary:     "Obligations of every circular.",
	Description: "Every obligation shown on the circulars' pages, by due date (undated last), then circular and position.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Obligation]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opExportObligationsCSV = &apispec.Operation{ID: "exportObligationsCSV", Method: "GET", Path: "/obligations.csv",
	Summary:     "Bulk download of obligations as CSV.",
	Description: "Every obligation the filters of GET /obligations select, in its order, as CSV with the circulars' download's rules (CRLF, a header row, spreadsheet-safe cells): id, circularId, circularSlug, circularTitle, source, appliesTo (space-separated), what, kind, dueDate, deadline, binding, origin, accepted, sourceText. The download is whole: limit and offset are refused (400).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The whole list, as a file.",
			Content: []apispec.Content{{MediaType: "text/csv", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hContentDisposition}},
		rBadRequest.At(400),
		rInternalError.At(500)},
}

// Extracting is the background extraction of obligations
// (*obligations.Extraction).
type Extracting interface {
	Status() obligations.ExtractionStatus
}

// WithExtraction says how far the server's extraction of obligations is
// (GET /obligations/extraction); without it, none runs.
func WithExtraction(e Extracting) Option { return func(h *Handler) { h.extraction = e } }

var opObligationExtraction = &apispec.Operation{ID: "obligationExtraction", Method: "GET", Path: "/obligations/extraction",
	Summary:     "How far the extraction of obligations is.",
	Description: "After each sync of the catalog the server proposes, in the background, the obligations of the circulars that changed and have none written by their editors (a first start at 20,000 circulars reads them for over a minute): while running is true, done of total circulars have been read, and the lists of obligations and the registers fill in as it goes. finishedAt and last are those of the last extraction that ended; error says why it stopped, when it failed. A server that extracts nothing (the API as a function) answers running false and nulls. With several servers sharing a store, each answers for its own.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The extraction's status.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[obligations.ExtractionStatus]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListRegister = &apispec.Operation{ID: "listRegister", Method: "GET", Path: "/user/obligations",
	Summary:     "The signed-in user's register: My obligations.",
	Description: "Every binding obligation applying to one of the user's entity types (their preference) or to all regulated entities, with the status and note the user set (todo and empty until set) and its due-date group as of today, by due date (undated last).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The page of the register.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]register.Item]()}}, Headers: []*apispec.Header{hLink, hXTotalCount}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opExportRegisterCSV = &apispec.Operation{ID: "exportRegisterCSV", Method: "GET", Path: "/user/obligations.csv",
	Summary:     "The signed-in user's register as CSV.",
	Description: "The register the filters of GET /user/obligations select, whole, as GET /obligations.csv writes obligations, with dueGroup, status, note and statusUpdatedAt after them.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The register, as a file.",
			Content: []apispec.Content{{MediaType: "text/csv", Raw: map[string]any{"type": "string"}}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opSetObligationStatus = &apispec.Operation{ID: "setObligationStatus", Method: "PUT", Path: "/user/obligations/{id}",
	Summary:     "Set the status and note of an obligation of your register.",
	Description: "status is one of todo, in-progress, done, not-applicable; note at most 2,000 characters (trimmed). The change is recorded, with its time, in the obligation's history. No one else reads or changes a user's statuses.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ObligationStatusRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved; the obligation as your register now holds it.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[register.Item]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rObligationNotFound.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opObligationHistory = &apispec.Operation{ID: "obligationHistory", Method: "GET", Path: "/user/obligations/{id}/history",
	Summary: "Your status changes of an obligation, oldest first.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The changes (possibly none).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]register.Change]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rObligationNotFound.At(404),
		rInternalError.At(500)},
}

var opComplianceScore = &apispec.Operation{ID: "complianceScore", Method: "GET", Path: "/user/compliance-score",
	Summary: "The signed-in user's compliance score: their organisation's when they belong to one.",
	Description: "The share of the obligations of a register, weighted by their circular's impact (high 3, medium 2, low 1), marked done or not applicable, from 0 to 100; null when none applies. " +
		"For a member of an organisation it is the organisation's register (its decisions on obligations, GET /organisations/{id}/register), the first of theirs by name unless organisation names another, and organisation says which; " +
		"otherwise, or with organisation=none, the user's own register (the statuses they set), organisation null.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The score.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[register.Score]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

var opConfirmInForce = &apispec.Operation{ID: "confirmInForce", Method: "POST", Path: "/user/obligations/confirm",
	Summary: "Confirm that you comply with the obligations in force before your register began tracking.",
	Description: "An obligation whose date passed before your register began tracking (the day your account was made) is not overdue: it is in force (dueGroup in-force) and asks a one-time confirmation. " +
		"This marks every such obligation of your register done, with the note (at most 2,000 characters, trimmed; \"" + register.ConfirmNote + "\" when empty), recording each change in its history, " +
		"and leaves those already done or not applicable as they are. A second call confirms nothing more.",
	Body: &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ConfirmInForceRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Confirmed; how many obligations this call marked done.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ConfirmInForceResponse]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

// ConfirmInForceRequest is POST /user/obligations/confirm's body.
type ConfirmInForceRequest struct {
	Note string `json:"note" check:"obligationNote"`
}

// ConfirmInForceResponse says how many obligations a confirmation marked
// done.
type ConfirmInForceResponse struct {
	Confirmed int `json:"confirmed"`
}

// Obligations is what the obligation calls need of a store.
type Obligations interface {
	// CircularObligations is catalog.ErrNotFound for an unknown circular.
	CircularObligations(ctx context.Context, circularID string) ([]catalog.Obligation, error)
	ListObligations(ctx context.Context, q catalog.ObligationQuery) ([]catalog.Obligation, int, error)
	ExportObligations(ctx context.Context, q catalog.ObligationQuery, fn func(catalog.Obligation) error) error
	Register(ctx context.Context, userID string, q register.Query) ([]register.Item, int, error)
	// SetObligationStatus and ObligationHistory are catalog.ErrNotFound
	// for an obligation outside the user's register.
	SetObligationStatus(ctx context.Context, userID, id string, types []string, status, note string) (register.Item, error)
	ObligationHistory(ctx context.Context, userID, id string, types []string) ([]register.Change, error)
	RegisterTally(ctx context.Context, userID string, types []string) (register.Tally, error)
	ConfirmInForce(ctx context.Context, userID string, types []string, note string) (int, error)
}

// ObligationStatusRequest is PUT /user/obligations/{id}'s body.
type ObligationStatusRequest struct {
	Status string `json:"status"`
	Note   string `json:"note" check:"obligationNote"`
}

type (
	obligationsIn struct {
		Limit  int `param:"Limit50"`
		Offset int `param:"Offset"`
		obligationFilters
	}
	// obligationFilters are GET /obligations' filters, which its bulk
	// download takes too.
	obligationFilters struct {
		EntityType string `param:"EntityType"`
		DueBefore  string `param:"DueBefore"`
		DueAfter   string `param:"DueAfter"`
		Source     string `param:"Source"`
		Origin     string `param:"ObligationOrigin"`
		Binding    string `param:"Binding"`
	}
	registerIn struct {
		Limit  int `param:"Limit50"`
		Offset int `param:"Offset"`
		registerFilters
	}
	registerFilters struct {
		Status string `param:"RegisterStatus"`
		Group  string `param:"DueGroup"`
		Search string `param:"RegisterSearch"`
	}
	obligationIn struct {
		ID string `param:"ObligationID"`
	}
)

func (f obligationFilters) query(page catalog.Page) catalog.ObligationQuery {
	q := catalog.ObligationQuery{EntityType: f.EntityType, Source: f.Source, Origin: f.Origin, Binding: f.Binding, Page: page}
	q.DueBefore, q.DueAfter = paramDate(f.DueBefore), paramDate(f.DueAfter)
	return q
}

// paramDate is a checked date parameter's value (nil when absent).
func paramDate(s string) *catalog.Date {
	if s == "" {
		return nil
	}
	var d catalog.Date
	if d.UnmarshalText([]byte(s)) != nil {
		return nil // the parameter's check refused it already
	}
	return &d
}

// circularObligations is GET /circulars/{id}/obligations.
func (h *Handler) circularObligations(w http.ResponseWriter, r *http.Request, id string) {
	if fromCache(r, id) {
		return
	}
	obs, err := h.store.CircularObligations(r.Context(), id)
	if errors.Is(err, catalog.ErrNotFound) {
		err = errorStatus(http.StatusNotFound, "no circular with id "+id)
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if obs == nil {
		obs = []catalog.Obligation{} // a list is [], never null
	}
	h.writeOK(w, r, obs)
}

// userTypes are the signed-in user's entity types (their preference).
func (h *Handler) userTypes(r *http.Request) ([]string, error) {
	p, err := h.acc.users.Preferences(r.Context(), userOf(r).ID)
	if err != nil {
		return nil, err
	}
	return p.EntityTypes, nil
}

// registerQuery is the register query of the request's filters.
func (h *Handler) registerQuery(r *http.Request, f registerFilters, page catalog.Page) (register.Query, error) {
	types, err := h.userTypes(r)
	if err != nil {
		return register.Query{}, err
	}
	return register.Query{EntityTypes: types, Status: f.Status, Group: f.Group, Search: f.Search, Now: h.now(), Page: page}, nil
}

// listRegister is GET /user/obligations: a page of the user's register.
func (h *Handler) listRegister(w http.ResponseWriter, r *http.Request, in registerIn) {
	page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
	q, err := h.registerQuery(r, in.registerFilters, page)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	items, total, err := h.store.Register(r.Context(), userOf(r).ID, q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	if next := page.Offset + len(items); len(items) > 0 && next < total {
		w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next"`, pageURL(r.URL, page.Limit, next)))
	}
	writeJSON(w, http.StatusOK, items)
}

// putObligationStatus is PUT /user/obligations/{id}.
func (h *Handler) putObligationStatus(w http.ResponseWriter, r *http.Request, id string) {
	var req ObligationStatusRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if !slices.Contains(register.Statuses, req.Status) {
		f.add("status", "must be one of: "+strings.Join(register.Statuses, ", "))
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	types, err := h.userTypes(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	it, err := h.store.SetObligationStatus(r.Context(), userOf(r).ID, id, types, req.Status, req.Note)
	if errors.Is(err, catalog.ErrNotFound) {
		err = errorStatus(http.StatusNotFound, "no obligation with id "+id+" in your register")
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, it)
}

// obligationHistory is GET /user/obligations/{id}/history.
func (h *Handler) obligationHistory(w http.ResponseWriter, r *http.Request, id string) {
	types, err := h.userTypes(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	hist, err := h.store.ObligationHistory(r.Context(), userOf(r).ID, id, types)
	if errors.Is(err, catalog.ErrNotFound) {
		err = errorStatus(http.StatusNotFound, "no obligation with id "+id+" in your register")
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, hist)
}

// confirmInForce is POST /user/obligations/confirm.
func (h *Handler) confirmInForce(w http.ResponseWriter, r *http.Request) {
	var req ConfirmInForceRequest
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
	types, err := h.userTypes(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	note := req.Note
	if note == "" {
		note = register.ConfirmNote
	}
	n, err := h.store.ConfirmInForce(r.Context(), userOf(r).ID, types, note)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ConfirmInForceResponse{Confirmed: n})
}

// obligationCSVColumns are the obligations CSV's columns; the
// register's adds what the user set after them.
var obligationCSVColumns = []column[catalog.Obligation]{
	{"id", func(o catalog.Obligation) string { return o.ID }},
	{"circularId", func(o catalog.Obligation) string { return o.CircularID }},
	{"circularSlug", func(o catalog.Obligation) string { return o.CircularSlug }},
	{"circularTitle", func(o catalog.Obligation) string { return o.CircularTitle }},
	{"source", func(o catalog.Obligation) string { return o.Source }},
	{"appliesTo", func(o catalog.Obligation) string { return strings.Join(o.AppliesTo, " ") }},
	{"what", func(o catalog.Obligation) string { return o.What }},
	{"kind", func(o catalog.Obligation) string { return o.Kind }},
	{"dueDate", func(o catalog.Obligation) string {
		if o.DueDate == nil {
			return ""
		}
		return o.DueDate.String()
	}},
	{"deadline", func(o catalog.Obligation) string { return string(o.Deadline) }},
	{"binding", func(o catalog.Obligation) string { return strconv.FormatBool(o.Binding) }},
	{"origin", func(o catalog.Obligation) string { return o.Origin }},
	{"accepted", func(o catalog.Obligation) string { return strconv.FormatBool(o.Accepted) }},
	{"sourceText", func(o catalog.Obligation) string { return o.SourceText }},
}

// registerCSVColumns are the register CSV's: the obligation's, then
// what the user set.
var registerCSVColumns = append(itemColumns(obligationCSVColumns),
	column[register.Item]{"dueGroup", func(it register.Item) string { return it.DueGroup }},
	column[register.Item]{"status", func(it register.Item) string { return it.Status }},
	column[register.Item]{"note", func(it register.Item) string { return it.Note }},
	column[register.Item]{"statusUpdatedAt", func(it register.Item) string {
		if it.StatusUpdatedAt == nil {
			return ""
		}
		return it.StatusUpdatedAt.UTC().Format("2006-01-02T15:04:05Z")
	}})

// itemColumns are obligation columns read from a register item.
func itemColumns(cols []column[catalog.Obligation]) []column[register.Item] {
	out := make([]column[register.Item], len(cols))
	for i, c := range cols {
		out[i] = column[register.Item]{c.name, func(it register.Item) string { return c.cell(it.Obligation) }}
	}
	return out
}

// exportObligations is GET /obligations.csv.
func (h *Handler) exportObligations(w http.ResponseWriter, r *http.Request, q catalog.ObligationQuery) {
	name := "regpulse-obligations.csv"
	if q.EntityType != "" {
		name = "regpulse-obligations-" + strings.ToLower(q.EntityType) + ".csv"
	}
	streamDownload(h, w, r, download[catalog.Obligation]{name: name, contentType: csvType, start: csvRows(obligationCSVColumns)},
		func(fn func(catalog.Obligation) error) error { return h.store.ExportObligations(r.Context(), q, fn) })
}

// exportRegister is GET /user/obligations.csv: the user's whole
// register with the filters of the list, with status, note and the time
// of the last change, read a page at a time.
func (h *Handler) exportRegister(w http.ResponseWriter, r *http.Request, f registerFilters) {
	q, err := h.registerQuery(r, f, catalog.Page{Limit: catalog.MaxLimit})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	d := download[register.Item]{name: "regpulse-my-obligations.csv", contentType: csvType, private: true, start: csvRows(registerCSVColumns)}
	streamDownload(h, w, r, d, func(fn func(register.Item) error) error {
		for {
			items, _, err := h.store.Register(r.Context(), userOf(r).ID, q)
			if err != nil {
				return err
			}
			for _, it := range items {
				if err := fn(it); err != nil {
					return err
				}
			}
			if len(items) < q.Limit {
				return nil
			}
			q.Offset += len(items)
		}
	})
}
