// Package extract takes the text out of an uploaded document (PDF, DOCX,
// DOC or plain text), recognising scanned PDF pages with OCR. Every input
// is a stranger's file: the type is read from the content, sizes and
// counts are capped, parsers run inside recover and external tools run as
// subprocesses with a time and memory limit, so a hostile file gives an
// *Error, never a crash or a hang.
package extract

import (
	"context"
	"errors"
	"fmt"
)

// MaxUpload is the largest document accepted, in bytes (10 MB).
const MaxUpload = 10 << 20

// Kind is a document type, as read from its content.
type Kind string

// The document kinds.
const (
	PDF  Kind = "pdf"
	DOCX Kind = "docx"
	DOC  Kind = "doc"
	TXT  Kind = "txt"
)

// Kinds are the values of Kind.
var Kinds = []string{string(PDF), string(DOCX), string(DOC), string(TXT)}

// Method names what produced a result's text.
const (
	MethodPDFToText = "pdftotext" // poppler's text layer
	MethodGoPDF     = "go-pdf"    // the pure-Go text layer, where poppler is missing
	MethodOCR       = "ocr"       // tesseract only: every page was a scan
	MethodDOCX      = "docx"      // the document XML
	MethodAntiword  = "antiword"  // .doc
	MethodCatdoc    = "catdoc"    // .doc, where antiword is missing
	MethodText      = "text"      // a plain-text file
	methodOCRSuffix = "+ocr"      // a text layer with some scanned pages
)

// Result is a document's text and how it was obtained. When the document
// is a scan that could not be read (no OCR on this server, or OCR found
// nothing), IsImageBased is true, Text is empty and Message says so.
type Result struct {
	Text         string `json:"text"`
	Kind         Kind   `json:"kind" enum:"DocumentKind"`
	Method       string `json:"method"`       // what produced the text, e.g. "pdftotext+ocr"
	Encoding     string `json:"encoding"`     // a text file's encoding (utf-8, utf-16le, utf-16be, windows-1252); "" for other kinds
	Pages        int    `json:"pages"`        // pages in a PDF; 0 for other kinds
	OCRPages     int    `json:"ocrPages"`     // pages whose text came from OCR
	SkippedPages int    `json:"skippedPages"` // scanned pages beyond the OCR page cap, left out
	IsImageBased bool   `json:"isImageBased"`
	Message      string `json:"message"` // for a person: what happened, when it is not plain success
}

// Reason classifies an *Error, so the HTTP layer can pick a status.
type Reason int

// The reasons a document is refused.
const (
	Unsupported Reason = iota + 1 // not a PDF, DOCX, DOC or text file
	TooLarge                      // over MaxUpload, or expands past the caps
	Password                      // needs a password to open
	Damaged                       // corrupt, truncated or unreadable
	Empty                         // no text at all
	TooSlow                       // a tool ran out of time on it
)

// Error is a document refused, with a message a person understands.
type Error struct {
	Reason  Reason
	Message string
	Err     error // the cause, for the log; never shown
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + " (" + e.Err.Error() + ")"
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

func refuse(r Reason, cause error, format string, args ...any) *Error {
	return &Error{Reason: r, Message: fmt.Sprintf(format, args...), Err: cause}
}

// IsReason reports whether err is an *Error of reason r.
func IsReason(err error, r Reason) bool {
	var e *Error
	return errors.As(err, &e) && e.Reason == r
}

// Progress is told how many of the scanned pages are done, of how many.
type Progress func(done, total int)

// Doc is a document read as far as it can be without OCR. Finish does the
// rest; OCRPending says how much of it there is, so a caller can run a
// long scan as a background job.
type Doc struct {
	ex     *Extractor
	result Result
	pdf    *pdfDoc // nil for kinds other than PDF
}

// OCRPending is how many pages Finish will recognise with OCR.
func (d *Doc) OCRPending() int {
	if d.pdf == nil || !d.ex.canOCR() {
		return 0
	}
	return len(d.pdf.ocrPages(d.ex.cfg.MaxOCRPages))
}

// Partial is what is known of the result before Finish: the kind, and
// for a PDF its pages and how its text layer was read.
func (d *Doc) Partial() Result {
	r := Result{Kind: d.result.Kind}
	if d.pdf != nil {
		r.Method, r.Pages = d.pdf.method, len(d.pdf.texts)
	}
	return r
}

// Kind is the document's type.
func (d *Doc) Kind() Kind { return d.result.Kind }

// Finish OCRs the pending pages (telling progress after each) and returns
// the result. It removes the document's temporary files; call it once.
func (d *Doc) Finish(ctx context.Context, progress Progress) (Result, error) {
	if d.pdf == nil {
		return d.result, nil
	}
	defer d.pdf.close()
	return d.ex.finishPDF(ctx, d.pdf, progress)
}

// Close removes the temporary files of a Doc that will not be finished.
func (d *Doc) Close() {
	if d.pdf != nil {
		d.pdf.close()
	}
}

// Extract reads data to the end, OCR included.
func (e *Extractor) Extract(ctx context.Context, data []byte) (Result, error) {
	d, err := e.Open(ctx, data, "")
	if err != nil {
		return Result{}, err
	}
	return d.Finish(ctx, nil)
}

// Open detects data's type and extracts everything but the OCR; claimed
// is what the upload said it is (Claimed), for the refusals' words.
func (e *Extractor) Open(ctx context.Context, data []byte, claimed Kind) (*Doc, error) {
	if len(data) > MaxUpload {
		return nil, refuse(TooLarge, nil, "The file is larger than 10 MB.")
	}
	kind, err := Detect(data, claimed)
	if err != nil {
		return nil, err
	}
	var res Result
	switch kind {
	case PDF:
		p, err := e.openPDF(ctx, data)
		if err != nil {
			return nil, err
		}
		return &Doc{ex: e, pdf: p, result: Result{Kind: PDF}}, nil
	case DOCX:
		res, err = readDOCX(data)
	case DOC:
		res, err = e.readDOC(ctx, data)
	case TXT:
		res, err = readText(data)
	}
	if err != nil {
		return nil, err
	}
	res.Kind = kind
	if isBlank(res.Text) {
		return nil, refuse(Empty, nil, "The document has no text in it.")
	}
	return &Doc{ex: e, result: res}, nil
}
