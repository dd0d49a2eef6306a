package api

import (
	"context"
	"io"
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
			h.export(w, r, in.query(catalog.Page{}), "csv", csvType, csvRows(exportColumns))
		}),
		handle(opExportCircularsJSON, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularFilters) {
			h.export(w, r, in.query(catalog.Page{}), "json", "application/json; charset=utf-8", jsonRows[catalog.Circular])
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
var exportColumns = []column[catalog.Circular]{
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

// exportFilename names the download after its source filter:
// regpulse-circulars.csv, regpulse-circulars-rbi.json.
func exportFilename(q catalog.CircularQuery, ext string) string {
	name := "regpulse-circulars"
	if q.Source != "" {
		name += "-" + strings.ToLower(q.Source)
	}
	return name + "." + ext
}

// export serves one format of the bulk download.
func (h *Handler) export(w http.ResponseWriter, r *http.Request, q catalog.CircularQuery, ext, contentType string, start func(io.Writer) rows[catalog.Circular]) {
	streamDownload(h, w, r, download[catalog.Circular]{name: exportFilename(q, ext), contentType: contentType, start: start},
		func(fn func(catalog.Circular) error) error {
			return h.store.ExportCirculars(r.Context(), q, func(c catalog.Circular) error {
				c.Lang = c.TextLang() // not stored: as the lists say it
				return fn(c)
			})
		})
}

// exporter is what the bulk download needs from the store.
type exporter interface {
	// ExportCirculars calls fn with every circular q selects (q.Page
	// ignored), in order, and stops at fn's first error.
	ExportCirculars(ctx context.Context, q catalog.CircularQuery, fn func(catalog.Circular) error) error
}
