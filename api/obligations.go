package api

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/register"
)

// The obligation calls: a circular's obligations and the list of all
// (public reads, cached), their bulk download, and the signed-in user's
// register (statuses, notes, history, its CSV and the compliance score).

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

// complianceScore is GET /user/compliance-score.
func (h *Handler) complianceScore(w http.ResponseWriter, r *http.Request) {
	types, err := h.userTypes(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	t, err := h.store.RegisterTally(r.Context(), userOf(r).ID, types)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, register.ScoreOf(t, types))
}

// obligationCSVColumns are the obligations CSV's columns; the
// register's adds what the user set after them.
var obligationCSVColumns = []struct {
	name string
	cell func(catalog.Obligation) string
}{
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

// obligationsCSV writes obligations as CSV (the bulk download's rules:
// CRLF, a header row, spreadsheet-safe cells), with extra columns after
// the obligation's.
type obligationsCSV struct {
	w     *csv.Writer
	extra []string
}

// newObligationsCSV starts the file; a private one (a user's register)
// is not to be stored by caches.
func newObligationsCSV(w http.ResponseWriter, filename string, private bool, extra ...string) *obligationsCSV {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/csv; charset=utf-8; header=present")
	hdr.Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "no-cache")
	if private {
		hdr.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	header := make([]string, 0, len(obligationCSVColumns)+len(extra))
	for _, c := range obligationCSVColumns {
		header = append(header, c.name)
	}
	cw.Write(append(header, extra...)) // errors are sticky: end reports them
	return &obligationsCSV{w: cw, extra: extra}
}

func (e *obligationsCSV) row(o catalog.Obligation, extra ...string) error {
	rec := make([]string, 0, len(obligationCSVColumns)+len(extra))
	for _, c := range obligationCSVColumns {
		rec = append(rec, spreadsheetSafe(c.cell(o)))
	}
	for _, x := range extra {
		rec = append(rec, spreadsheetSafe(x))
	}
	return e.w.Write(rec)
}

func (e *obligationsCSV) end() error {
	e.w.Flush()
	return e.w.Error()
}

// exportObligations is GET /obligations.csv: streamed; headers go out
// with the first row, so a store failure before it is a JSON error.
func (h *Handler) exportObligations(w http.ResponseWriter, r *http.Request, q catalog.ObligationQuery) {
	var out *obligationsCSV
	name := "regpulse-obligations.csv"
	if q.EntityType != "" {
		name = "regpulse-obligations-" + strings.ToLower(q.EntityType) + ".csv"
	}
	err := h.store.ExportObligations(r.Context(), q, func(o catalog.Obligation) error {
		if out == nil {
			out = newObligationsCSV(w, name, false)
		}
		return out.row(o)
	})
	h.endCSV(w, r, out, err, func() *obligationsCSV { return newObligationsCSV(w, name, false) })
}

// endCSV finishes a streamed CSV: a failure before any row is a JSON
// error; one after it can only be logged.
func (h *Handler) endCSV(w http.ResponseWriter, r *http.Request, out *obligationsCSV, err error, start func() *obligationsCSV) {
	switch {
	case err != nil && out == nil:
		h.writeError(w, r, err)
		return
	case err != nil:
		if r.Context().Err() == nil {
			h.log.Error("api: export cut short", "path", r.URL.Path, "err", err)
		}
		return
	case out == nil:
		out = start()
	}
	if err := out.end(); err != nil && r.Context().Err() == nil {
		h.log.Warn("api: export", "path", r.URL.Path, "err", err)
	}
}

// exportRegister is GET /user/obligations.csv: the user's whole
// register with the filters of the list, with status, note and the time
// of the last change.
func (h *Handler) exportRegister(w http.ResponseWriter, r *http.Request, f registerFilters) {
	q, err := h.registerQuery(r, f, catalog.Page{Limit: catalog.MaxLimit})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var out *obligationsCSV
	start := func() *obligationsCSV {
		return newObligationsCSV(w, "regpulse-my-obligations.csv", true, "dueGroup", "status", "note", "statusUpdatedAt")
	}
	for {
		items, _, err := h.store.Register(r.Context(), userOf(r).ID, q)
		if err == nil {
			for _, it := range items {
				if out == nil {
					out = start()
				}
				updated := ""
				if it.StatusUpdatedAt != nil {
					updated = it.StatusUpdatedAt.UTC().Format("2006-01-02T15:04:05Z")
				}
				if err = out.row(it.Obligation, it.DueGroup, it.Status, it.Note, updated); err != nil {
					break
				}
			}
		}
		if err != nil || len(items) < q.Limit {
			h.endCSV(w, r, out, err, start)
			return
		}
		q.Offset += len(items)
	}
}
