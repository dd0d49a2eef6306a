package api

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/extract"
	"regpulse/internal/metrics"
)

// The document calls: text from an uploaded file, and a long scan's job.

// documentParams are the parameters only the document calls take.
var documentParams = map[string]*apispec.Param{
	"JobID": {Name: "id", In: "path", Required: true, Schema: apispec.Schema{Type: "string"}},
}

type jobIn struct {
	ID string `param:"JobID"`
}

func documentRoutes() []*route {
	return []*route{
		limited(func(h *Handler) func(http.Handler) http.Handler {
			return h.rateLimit("upload", uploadLimit, time.Minute, fmt.Sprintf("too many uploads: at most %d a minute; try again later", uploadLimit))
		}, handle(opExtractDocumentText, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.extractText(w, r) })),
		handle(opGetExtractJob, func(h *Handler, w http.ResponseWriter, r *http.Request, in jobIn) { h.extractJob(w, r, in.ID) }),
	}
}

var opExtractDocumentText = &apispec.Operation{ID: "extractDocumentText", Method: "POST", Path: "/extract-pdf-text",
	Summary:     "The text of an uploaded PDF, Word (.docx, .doc) or text file.",
	Description: "The type is read from the content, not the name. PDF text comes from the text layer (the method says which reader); scanned pages are read with OCR in page order. A document with more than 2 scanned pages is read in the background: the answer is 202 with the job, whose URL is the Location header. A scan that could not be read answers 200 with isImageBased true, no text and a message.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "multipart/form-data", Raw: map[string]any{"properties": map[string]any{"file": map[string]any{"description": "The document, at most 10 MB.", "format": "binary", "type": "string"}}, "required": []any{"file"}, "type": "object"}}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The text, or isImageBased with a message.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[extract.Result]()}}},
		{Status: 202, Description: "A long scan, read in the background: poll the job at Location.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[extract.Job]()}}, Headers: []*apispec.Header{{Name: "Location", Description: "/api/extract-jobs/{id}", Schema: apispec.Schema{Type: "string"}}}},
		{Status: 400, Description: "Not a multipart body, or no field \"file\".",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		{Status: 413, Description: "The file is over 10 MB, or a Word document expands past the limits (a zip bomb).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		{Status: 415, Description: "Not a PDF, Word or text file (a web page, an image, a program), or plain text sent as a PDF; error says what it is and what to do.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		{Status: 422, Description: "The document is password-protected, damaged, truncated, empty or took too long to read; error says which, for a person.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rTooManyRequests.At(429),
		{Status: 503, Description: "Too many documents are being read; Retry-After says when to try again.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}},
}

var opGetExtractJob = &apispec.Operation{ID: "getExtractJob", Method: "GET", Path: "/extract-jobs/{id}",
	Summary:     "A background extraction's progress, then its result.",
	Description: "Poll every second or two while status is running; done and total count the scanned pages. A finished job is kept for 10 minutes.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The job.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[extract.Job]()}}},
		{Status: 404, Description: "No such job, or it ended more than 10 minutes ago.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}},
}

// syncOCRPages: a document with more scanned pages than this is read as
// a job the client polls, so no request waits minutes for OCR (a page
// takes about three seconds).
const syncOCRPages = 2

// uploadSlack is room for the multipart envelope around a 10 MB file.
const uploadSlack = 64 << 10

// uploadLimit uploads per minute are allowed to one client: a person
// sends a few documents a minute, and extraction (OCR above all) costs
// the server seconds each.
const uploadLimit = 30

// extractText is POST /extract-pdf-text: the text of an uploaded PDF,
// Word or text file (multipart field "file"). The body is read as a
// stream, never more than the limit, and nothing is written to disk
// but the document's own temporary files, which extraction removes.
func (h *Handler) extractText(w http.ResponseWriter, r *http.Request) {
	data, claimed, err := readUpload(w, r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	doc, err := h.extractor.Open(r.Context(), data, claimed)
	if err != nil {
		metrics.ExtractJobs.WithLabelValues("refused").Inc()
		h.writeError(w, r, extractError(err))
		return
	}
	if doc.OCRPending() > syncOCRPages {
		job, err := h.jobs.Start(doc) // counts its own outcome
		if err != nil {
			metrics.ExtractJobs.WithLabelValues("busy").Inc()
			doc.Close()
			w.Header().Set("Retry-After", "60")
			h.writeError(w, r, errorStatus(http.StatusServiceUnavailable, "Too many documents are being processed. Please try again in a minute."))
			return
		}
		w.Header().Set("Location", "/api/extract-jobs/"+job.ID)
		writeJSON(w, http.StatusAccepted, job)
		return
	}
	res, err := doc.Finish(r.Context(), nil)
	if err != nil {
		metrics.ExtractJobs.WithLabelValues("failed").Inc()
		h.writeError(w, r, extractError(err))
		return
	}
	metrics.ExtractJobs.WithLabelValues("done").Inc()
	writeJSON(w, http.StatusOK, res)
}

// extractJob is GET /extract-jobs/{id}: a long extraction's progress,
// then its result.
func (h *Handler) extractJob(w http.ResponseWriter, r *http.Request, id string) {
	job, ok := h.jobs.Get(id)
	if !ok {
		h.writeError(w, r, errorStatus(http.StatusNotFound, "no such extraction job (finished jobs are kept for 10 minutes)"))
		return
	}
	writeJSON(w, http.StatusOK, job)
}

// readUpload reads the multipart part "file", at most extract.MaxUpload
// bytes: a larger body is refused as soon as the limit is passed.
func readUpload(w http.ResponseWriter, r *http.Request) (_ []byte, claimed extract.Kind, _ error) {
	fileErr := func(status int, msg string) error {
		return &Error{Status: status, Message: msg, Fields: map[string]string{"file": msg}}
	}
	tooLarge := fileErr(http.StatusRequestEntityTooLarge, "The file is larger than 10 MB.")
	if r.ContentLength > extract.MaxUpload+uploadSlack {
		return nil, "", tooLarge
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, "", fileErr(http.StatusBadRequest, "send the document as multipart/form-data in the field \"file\"")
	}
	r.Body = http.MaxBytesReader(w, r.Body, extract.MaxUpload+uploadSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, "", fileErr(http.StatusBadRequest, "the multipart body is malformed")
	}
	for {
		part, err := mr.NextPart()
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return nil, "", tooLarge
		case err == io.EOF:
			return nil, "", fileErr(http.StatusBadRequest, "no file was uploaded (multipart field \"file\")")
		case err != nil:
			return nil, "", fileErr(http.StatusBadRequest, "the multipart body is malformed")
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, extract.MaxUpload+1))
		claimed = extract.Claimed(part.FileName(), part.Header.Get("Content-Type"))
		part.Close()
		switch {
		case errors.As(err, &mbe) || len(data) > extract.MaxUpload:
			return nil, "", tooLarge
		case err != nil:
			return nil, "", fileErr(http.StatusBadRequest, "the upload was cut off")
		}
		return data, claimed, nil
	}
}

// extractError gives a refused document its status: 415 for a type
// that is not read, 413 for one too large once expanded, 422 for a
// document that is protected, damaged, empty or too slow to read.
func extractError(err error) error {
	var e *extract.Error
	if !errors.As(err, &e) {
		return err
	}
	status := http.StatusUnprocessableEntity
	switch e.Reason {
	case extract.Unsupported:
		status = http.StatusUnsupportedMediaType
	case extract.TooLarge:
		status = http.StatusRequestEntityTooLarge
	}
	return &Error{Status: status, Message: strings.TrimSpace(e.Message)}
}
