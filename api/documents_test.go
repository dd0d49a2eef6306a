package api

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/extract"
	"regpulse/internal/extract/extracttest"
)

// fakeOCR is an extractor whose OCR tools are stand-ins: every scanned
// page reads "Scanned page text.", at once. What the real tools read is
// tested in internal/extract; here the HTTP flow is (202, polling).
func fakeOCR(t *testing.T) *extract.Extractor {
	ppm, tess := extracttest.FakeOCR(t, "Scanned page text.")
	return extract.New(extract.Tools{PDFToPPM: ppm, Tesseract: tess}, extract.Config{})
}

// upload posts data as the multipart field name.
func upload(t *testing.T, h http.Handler, field, filename string, data []byte) (response, *http.Request) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	mw.Close()
	req := httptest.NewRequest("POST", "/extract-pdf-text", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	vreq := httptest.NewRequest("POST", "/api/extract-pdf-text", nil)
	vreq.Header.Set("Content-Type", mw.FormDataContentType())
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}, vreq
}

// checkDocuments is TestOpenAPI's part for the document calls: each
// answer's status and body, validated against openapi.json.
func checkDocuments(t *testing.T, c *openAPIChecker) {
	multi := extracttest.PDF(t, extracttest.TextPage("Page one of the circular on card tokenisation for issuers."),
		extracttest.TextPage("Page two says when the migration must be complete."))
	scan := extracttest.ScanPage(t, "A scanned page")
	pureGo := New(newFakeStore(nil), discardLog)
	ocr := New(newFakeStore(nil), discardLog, WithExtractor(fakeOCR(t)))

	docx := extracttest.DOCX(t, extracttest.Para("Circular body"), "", "")
	tests := []struct {
		name     string
		h        http.Handler
		field    string
		data     []byte
		status   int
		want     extract.Result // compared without Text
		wantText string
	}{
		{name: "TextPDF", h: pureGo, field: "file", data: multi, status: 200,
			want: extract.Result{Kind: extract.PDF, Method: extract.MethodGoPDF, Pages: 2}, wantText: "Page two says"},
		{name: "DOCX", h: pureGo, field: "file", data: docx, status: 200,
			want: extract.Result{Kind: extract.DOCX, Method: extract.MethodDOCX}, wantText: "Circular body"},
		{name: "Windows1252", h: pureGo, field: "file", data: []byte("Caf\xe9 circular"), status: 200,
			want: extract.Result{Kind: extract.TXT, Method: extract.MethodText, Encoding: "windows-1252"}, wantText: "Café circular"},
		{name: "ImageBased", h: pureGo, field: "file", data: extracttest.PDF(t, scan), status: 200,
			want: extract.Result{Kind: extract.PDF, Method: extract.MethodGoPDF, Pages: 1, IsImageBased: true}},
		{name: "ScanReadAtOnce", h: ocr, field: "file", data: extracttest.PDF(t, scan), status: 200,
			want: extract.Result{Kind: extract.PDF, Method: extract.MethodOCR, Pages: 1, OCRPages: 1}, wantText: "Scanned page text."},
		{name: "ErrTooLarge", h: pureGo, field: "file", data: bytes.Repeat([]byte("a"), extract.MaxUpload+1), status: 413},
		{name: "ErrZipBomb", h: pureGo, field: "file", data: extracttest.DOCX(t, extracttest.Para(strings.Repeat("A", 40<<20)), "", ""), status: 413},
		{name: "ErrUnsupported", h: pureGo, field: "file", data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), status: 415},
		{name: "ErrUserPassword", h: pureGo, field: "file", data: extracttest.EncryptPDF(t, multi, "reader", "owner"), status: 422},
		{name: "ErrTruncated", h: pureGo, field: "file", data: multi[:len(multi)/3], status: 422},
		{name: "ErrNoFileField", h: pureGo, field: "document", data: multi, status: 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, req := upload(t, tc.h, tc.field, "upload.bin", tc.data)
			if res.status != tc.status {
				t.Fatalf("status %d %s; want %d", res.status, res.body, tc.status)
			}
			c.validate(t, "POST", "/extract-pdf-text", req, res)
			if tc.status != 200 {
				var e Error
				if err := json.Unmarshal(res.body, &e); err != nil || e.Message == "" {
					t.Errorf("body %s is not a JSON error with a message", res.body)
				}
				return
			}
			var got extract.Result
			if err := json.Unmarshal(res.body, &got); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.Text, tc.wantText) {
				t.Errorf("text %q does not contain %q", got.Text, tc.wantText)
			}
			tc.want.Text, tc.want.Message = got.Text, got.Message
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tc.want.IsImageBased && got.Message == "" {
				t.Error("image-based without a message")
			}
		})
	}

	// Files that are not what they are named: refused with what they are.
	page := []byte("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>The page was not found.</body></html>")
	for _, tc := range []struct {
		name, filename string
		data           []byte
		says           string
	}{
		{"ErrHTMLAsPDF", "circular.pdf", page, "This file is an HTML page, not a PDF."},
		{"ErrHTMLAsDOCX", "circular.docx", page, "This file is an HTML page, not a Word document (.docx)."},
		{"ErrHTMLAsText", "notes.txt", page, "This file is an HTML page, not a text file."},
		{"ErrTextAsPDF", "circular.pdf", []byte("RBI circular on card tokenisation, saved as text.\n"), "This file is plain text, not a PDF. Upload it as a .txt file, or paste its text."},
		{"ErrPNGAsPDF", "scan.pdf", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "This file is a PNG image, not a PDF."},
		{"ErrZipAsDOCX", "report.docx", extracttest.Zip(t, "a.txt", "hello"), "This file is a ZIP archive, not a Word document (.docx)."},
		{"ErrExecutableAsDOC", "letter.doc", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00"), "This file is a Linux program (executable), not a Word document (.doc)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := upload(t, pureGo, "file", tc.filename, tc.data)
			e := wantError(t, res, http.StatusUnsupportedMediaType, nil)
			if !strings.HasPrefix(e.Message, tc.says) {
				t.Errorf("message %q, want it to start %q", e.Message, tc.says)
			}
		})
	}
	t.Run("PlainTextNamedTXT", func(t *testing.T) {
		res, _ := upload(t, pureGo, "file", "notes.txt", []byte("RBI circular notes <not HTML>: ₹ 2,000 limit."))
		if res.status != 200 {
			t.Errorf("a plain .txt = %d %s, want 200", res.status, res.body)
		}
	})

	t.Run("ErrNotMultipart", func(t *testing.T) {
		req := httptest.NewRequest("POST", "/extract-pdf-text", strings.NewReader(`{"file":"x"}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		pureGo.ServeHTTP(rec, req)
		res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
		if res.status != 400 {
			t.Fatalf("status %d %s; want 400", res.status, res.body)
		}
		vreq := httptest.NewRequest("POST", "/api/extract-pdf-text", nil)
		c.validate(t, "POST", "/extract-pdf-text", vreq, res)
	})

	t.Run("LongScanAsJob", func(t *testing.T) {
		res, req := upload(t, ocr, "file", "scan.pdf", extracttest.PDF(t, scan, scan, scan))
		if res.status != http.StatusAccepted {
			t.Fatalf("status %d %s; want 202", res.status, res.body)
		}
		c.validate(t, "POST", "/extract-pdf-text", req, res)
		var job extract.Job
		if err := json.Unmarshal(res.body, &job); err != nil {
			t.Fatal(err)
		}
		loc := res.header.Get("Location")
		if loc != "/api/extract-jobs/"+job.ID || job.Total != 3 {
			t.Fatalf("Location %q, job %+v", loc, job)
		}
		for {
			rec := httptest.NewRecorder()
			greq := httptest.NewRequest("GET", strings.TrimPrefix(loc, "/api"), nil)
			ocr.ServeHTTP(rec, greq)
			res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
			c.validate(t, "GET", "/extract-jobs/{id}", httptest.NewRequest("GET", loc, nil), res)
			if err := json.Unmarshal(res.body, &job); err != nil || res.status != 200 {
				t.Fatalf("%d %s", res.status, res.body)
			}
			if job.Status != extract.JobRunning {
				break
			}
			select {
			case <-t.Context().Done():
				t.Fatal("the job never finished")
			case <-time.After(20 * time.Millisecond):
			}
		}
		want := extract.Job{ID: job.ID, Status: extract.JobDone, Done: 3, Total: 3, Result: extract.Result{
			Kind: extract.PDF, Method: extract.MethodOCR, Pages: 3, OCRPages: 3,
			Text: "Scanned page text.\n\nScanned page text.\n\nScanned page text."}}
		if diff := cmp.Diff(want, job); diff != "" {
			t.Errorf("finished job (-want +got):\n%s", diff)
		}
	})

	t.Run("ErrUnknownJob", func(t *testing.T) {
		rec := httptest.NewRecorder()
		pureGo.ServeHTTP(rec, httptest.NewRequest("GET", "/extract-jobs/nope", nil))
		res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
		if res.status != 404 {
			t.Fatalf("status %d; want 404", res.status)
		}
		c.validate(t, "GET", "/extract-jobs/{id}", httptest.NewRequest("GET", "/api/extract-jobs/nope", nil), res)
	})

	t.Run("ErrBusy", func(t *testing.T) {
		h := &Handler{store: newFakeStore(nil), log: discardLog, extractor: fakeOCR(t), jobs: extract.NewJobs(0, time.Minute, time.Minute)}
		res, req := upload(t, http.HandlerFunc(h.extractText), "file", "scan.pdf", extracttest.PDF(t, scan, scan, scan))
		if res.status != http.StatusServiceUnavailable || res.header.Get("Retry-After") == "" {
			t.Fatalf("status %d %s, Retry-After %q; want 503 with Retry-After", res.status, res.body, res.header.Get("Retry-After"))
		}
		c.validate(t, "POST", "/extract-pdf-text", req, res)
	})

	t.Run("ErrTooManyUploads", func(t *testing.T) {
		h := New(newFakeStore(nil), discardLog)
		for i := range uploadLimit {
			if res, _ := upload(t, h, "file", "notes.txt", []byte("A short note.")); res.status != http.StatusOK {
				t.Fatalf("upload %d: status %d, want 200", i+1, res.status)
			}
		}
		res, req := upload(t, h, "file", "notes.txt", []byte("A short note."))
		if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") == "" || !strings.Contains(string(res.body), "too many uploads") {
			t.Fatalf("upload %d: status %d %s, Retry-After %q; want 429 with Retry-After", uploadLimit+1, res.status, res.body, res.header.Get("Retry-After"))
		}
		c.validate(t, "POST", "/extract-pdf-text", req, res)
	})
}
