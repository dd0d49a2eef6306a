package api

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
)

// exportRoutes: the bulk downloads stream the whole list, so they are not
// kept in the read cache.
func exportRoutes() []*route {
	return []*route{
		handle(opExportCircularsCSV, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularFilters) {
			h.export(w, r, in.query(catalog.Page{}), "csv", "text/csv; charset=utf-8; header=present", newCSVExport)
		}),
		handle(opExportCircularsJSON, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularFilters) {
			h.export(w, r, in.query(catalog.Page{}), "json", "application/json; charset=utf-8", newJSONExport)
		}),
	}
}

var opExportCircularsCSV = &apispec.Operation{ID: "exportCircularsCSV", Method: "GET", Path: "/circulars.csv",
	Summary:     "Bulk download of circulars as CSV.",
	Description: "Every circular the filters of GET /circulars select, in its order, as CSV (RFC 4180: CRLF line ends, fields quoted where needed), UTF-8, with a header row: id, circularNumber, title, source, category, documentType, impactLevel, publishedDate, officialUrl, summary, content, verification. A cell starting with =, +, -, @, a tab or a carriage return gets a leading ' so spreadsheets do not run it as a formula. The download is whole: limit and offset are refused (400).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The whole list, as a file.",
			Content: []apispec.Content{{MediaType: "text/csv", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hContentDisposition}},
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opExportCircularsJSON = &apispec.Operation{ID: "exportCircularsJSON", Method: "GET", Path: "/circulars.json",
	Summary:     "Bulk download of circulars as JSON.",
	Description: "Every circular the filters of GET /circulars select, in its order, as one JSON array of the circulars GET /circulars answers. The download is whole: limit and offset are refused (400).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The whole list, as a file.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Circular]()}}, Headers: []*apispec.Header{hCacheControl, hContentDisposition}},
		rBadRequest.At(400),
		rInternalError.At(500)},
}

// The bulk download (the dashboard's Quick Access): every circular the
// list's filters select, as CSV or JSON, as a file to save. It takes the
// filters of GET /circulars but no page (limit or offset is a 400: the
// download is whole), and streams, so its size is not bounded by memory.

// exportColumns are the CSV's columns, in order, with each cell's value.
var exportColumns = []struct {
	name string
	cell func(catalog.Circular) string
}{
	{"id", func(c catalog.Circular) string { return c.ID }},
	{"circularNumber", func(c catalog.Circular) string { return string(c.CircularNumber) }},
	{"title", func(c catalog.Circular) string { return c.Title }},
	{"source", func(c catalog.Circular) string { return c.Source }},
	{"category", func(c catalog.Circular) string { return c.Category }},
	{"documentType", func(c catalog.Circular) string { return c.DocumentType }},
	{"impactLevel", func(c catalog.Circular) string { return c.ImpactLevel }},
	{"publishedDate", func(c catalog.Circular) string { return c.PublishedDate.String() }},
	{"officialUrl", func(c catalog.Circular) string { return string(c.OfficialURL) }},
	{"summary", func(c catalog.Circular) string { return string(c.Summary) }},
	{"content", func(c catalog.Circular) string { return c.Content }},
	// Last, so that readers of the earlier columns by position still work.
	{"verification", func(c catalog.Circular) string { return string(c.Verification) }},
	{"officialUrlConfidence", func(c catalog.Circular) string { return string(c.OfficialURLConfidence) }},
	// Every link with what it is, as pages label them: "View on
	// rbi.org.in <https://...>; Reported by taxmann.com <https://...>".
	{"links", func(c catalog.Circular) string { return linksCell(c.Links) }},
}

// linksCell is a circular's links in one cell, each its label and its
// address in angle brackets, separated by "; ".
func linksCell(links []catalog.SourceLink) string {
	parts := make([]string, len(links))
	for i, l := range links {
		parts[i] = l.Label + " <" + l.URL + ">"
	}
	return strings.Join(parts, "; ")
}

// spreadsheetSafe defuses a cell a spreadsheet would run as a formula
// (OWASP's CSV injection advice): a cell starting with = + - @, a tab or a
// carriage return gets a leading apostrophe, which spreadsheets show as
// text and do not display.
func spreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// exportFilename names the download after its source filter:
// regpulse-circulars.csv, regpulse-circulars-rbi.json.
func exportFilename(q catalog.CircularQuery, ext string) string {
	name := "regpulse-circulars"
	if q.Source != "" {
		name += "-" + strings.ToLower(q.Source)
	}
	return name + "." + ext
}

// exportWriter writes one format: its constructor the start, row each
// circular, end what follows the last.
type exportWriter interface {
	row(c catalog.Circular) error
	end() error
}

// export serves one format of the bulk download. Headers go out only with
// the first row (or at the end): a store failure before that is a JSON
// error; one after it can only be logged and the body cut short.
func (h *Handler) export(w http.ResponseWriter, r *http.Request, q catalog.CircularQuery, ext, contentType string, start func(http.ResponseWriter) exportWriter) {
	{
		var out exportWriter
		begin := func() {
			hdr := w.Header()
			hdr.Set("Content-Type", contentType)
			hdr.Set("Content-Disposition", `attachment; filename="`+exportFilename(q, ext)+`"`)
			hdr.Set("X-Content-Type-Options", "nosniff")
			hdr.Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusOK)
			out = start(w)
		}
		err := h.store.ExportCirculars(r.Context(), q, func(c catalog.Circular) error {
			if out == nil {
				begin()
			}
			return out.row(c)
		})
		if err != nil && out == nil {
			h.writeError(w, r, err)
			return
		}
		if err != nil {
			if r.Context().Err() == nil {
				h.log.Error("api: export cut short", "path", r.URL.Path, "err", err)
			}
			return
		}
		if out == nil {
			begin()
		}
		if err := out.end(); err != nil && r.Context().Err() == nil {
			h.log.Warn("api: export", "path", r.URL.Path, "err", err)
		}
	}
}

// csvExport writes RFC 4180 CSV (CRLF line ends, quoted where needed),
// UTF-8 with a header row.
type csvExport struct{ w *csv.Writer }

func newCSVExport(w http.ResponseWriter) exportWriter {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	header := make([]string, len(exportColumns))
	for i, col := range exportColumns {
		header[i] = col.name
	}
	cw.Write(header) // errors are sticky: end reports them
	return &csvExport{w: cw}
}

func (e *csvExport) row(c catalog.Circular) error {
	rec := make([]string, len(exportColumns))
	for i, col := range exportColumns {
		rec[i] = spreadsheetSafe(col.cell(c))
	}
	return e.w.Write(rec)
}

func (e *csvExport) end() error {
	e.w.Flush()
	return e.w.Error()
}

// jsonExport writes a JSON array of circulars, as GET /circulars does,
// one element at a time.
type jsonExport struct {
	w     http.ResponseWriter
	count int
	err   error
}

func newJSONExport(w http.ResponseWriter) exportWriter {
	_, err := w.Write([]byte("["))
	return &jsonExport{w: w, err: err}
}

func (e *jsonExport) row(c catalog.Circular) error {
	if e.err != nil {
		return e.err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if e.count > 0 {
		b = append([]byte(",\n"), b...)
	}
	e.count++
	_, e.err = e.w.Write(b)
	return e.err
}

func (e *jsonExport) end() error {
	if e.err != nil {
		return e.err
	}
	_, err := e.w.Write([]byte("]\n"))
	return err
}

// exporter is what the bulk download needs from the store.
type exporter interface {
	// ExportCirculars calls fn with every circular q selects (q.Page
	// ignored), in order, and stops at fn's first error.
	ExportCirculars(ctx context.Context, q catalog.CircularQuery, fn func(catalog.Circular) error) error
}
