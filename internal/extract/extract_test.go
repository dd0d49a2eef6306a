package extract

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/extract/extracttest"
)

// The known text of the scanned fixture, for the OCR accuracy figure.
var scanLines = []string{
	"Reserve Bank of India: Master Direction on Payment Aggregators.",
	"All authorised payment aggregators shall maintain a net worth",
	"of Rs 25 crore by 31 March 2026 and report compliance quarterly.",
	"Merchant onboarding must follow the due diligence process.",
}

// tools are the real ones on this machine; a test needing one skips
// without it, and says so.
func realTools(t testing.TB, need ...string) Tools {
	t.Helper()
	tools := FindTools()
	have := map[string]string{"pdftotext": tools.PDFToText, "pdftoppm": tools.PDFToPPM, "tesseract": tools.Tesseract,
		"antiword": tools.Antiword}
	for _, n := range need {
		if have[n] == "" {
			t.Skipf("%s is not installed (make test installs it as root)", n)
		}
	}
	return tools
}

func TestExtract_PDF(t *testing.T) {
	multi := extracttest.PDF(t,
		extracttest.TextPage("Page one: the Reserve Bank of India issues a circular on card tokenisation."),
		extracttest.TextPage("Page two: issuers shall complete the migration by the stated compliance date."),
		extracttest.TextPage("Page three: aggregators report to the Department of Payment and Settlement Systems."))
	twoCol := extracttest.PDF(t, extracttest.Page{Lines: []extracttest.Line{
		{X: 72, Y: 770, Text: "Left column: payment system operators"},
		{X: 320, Y: 770, Text: "भारतीय रिज़र्व बैंक परिपत्र", Unicode: true},
		{X: 72, Y: 754, Text: "must report fraud within six hours."},
		{X: 320, Y: 754, Text: "जुर्माना ₹5,000 प्रति दिन", Unicode: true},
	}})
	scanned := extracttest.PDF(t, extracttest.ScanPage(t, scanLines...))
	mixed := extracttest.PDF(t,
		extracttest.TextPage("First page of the mixed document has a text layer with enough words."),
		extracttest.ScanPage(t, scanLines...),
		extracttest.TextPage("Last page of the mixed document also has a text layer with words."))
	blank := extracttest.PDF(t, extracttest.Page{})

	tools := realTools(t, "pdftotext")
	withOCR := New(tools, Config{})
	noOCR := tools
	noOCR.Tesseract = ""
	pureGo := New(Tools{}, Config{})
	specks := tools
	specks.PDFToPPM, specks.Tesseract = extracttest.FakeOCR(t, "| ~ -- .")
	specksOCR := New(specks, Config{})

	// wantIn: fragments that must appear in this order.
	tests := []struct {
		name     string
		ex       *Extractor
		needOCR  bool
		data     []byte
		wantIn   []string
		method   string
		pages    int
		ocrPages int
		image    bool
	}{
		{name: "MultiPage", ex: withOCR, data: multi, method: MethodPDFToText, pages: 3,
			wantIn: []string{"Page one: the Reserve Bank", "Page two: issuers", "Page three: aggregators"}},
		{name: "TwoColumnHindi", ex: withOCR, data: twoCol, method: MethodPDFToText, pages: 1,
			wantIn: []string{"Left column: payment system operators", "भारतीय रिज़र्व बैंक परिपत्र", "must report fraud within six hours.", "₹5,000"}},
		{name: "OwnerEncrypted", ex: withOCR, data: extracttest.EncryptPDF(t, multi, "", "owner-secret"), method: MethodPDFToText, pages: 3,
			wantIn: []string{"Page one", "Page two", "Page three"}},
		{name: "PureGoFallback", ex: pureGo, data: multi, method: MethodGoPDF, pages: 3,
			wantIn: []string{"Page one", "Page two", "Page three"}},
		{name: "PureGoOwnerEncrypted", ex: pureGo, data: extracttest.EncryptPDF(t, multi, "", "owner-secret"), method: MethodGoPDF, pages: 3,
			wantIn: []string{"Page one", "Page three"}},
		{name: "Scanned", ex: withOCR, needOCR: true, data: scanned, method: MethodOCR, pages: 1, ocrPages: 1,
			wantIn: []string{"Reserve Bank of India", "net worth", "due diligence"}},
		{name: "Mixed", ex: withOCR, needOCR: true, data: mixed, method: MethodPDFToText + "+ocr", pages: 3, ocrPages: 1,
			wantIn: []string{"First page of the mixed", "Payment Aggregators", "due diligence", "Last page of the mixed"}},
		{name: "ScanReadAsSpecks", ex: specksOCR, data: scanned, method: MethodOCR, pages: 1, image: true},
		{name: "ImageBasedWithoutOCR", ex: New(noOCR, Config{}), data: scanned, method: MethodPDFToText, pages: 1, image: true},
		{name: "MixedWithoutOCR", ex: New(noOCR, Config{}), data: mixed, method: MethodPDFToText, pages: 3,
			wantIn: []string{"First page", "Last page"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needOCR {
				realTools(t, "pdftoppm", "tesseract")
			}
			got, err := tc.ex.Extract(t.Context(), tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(
				[]any{PDF, tc.method, tc.pages, tc.ocrPages, tc.image},
				[]any{got.Kind, got.Method, got.Pages, got.OCRPages, got.IsImageBased}); diff != "" {
				t.Errorf("kind, method, pages, ocrPages, isImageBased (-want +got):\n%s\ntext:\n%s", diff, got.Text)
			}
			if tc.image && (got.Text != "" || got.Message == "") {
				t.Errorf("image-based: text %q, message %q; want no text and a message", got.Text, got.Message)
			}
			checkInOrder(t, got.Text, tc.wantIn)
		})
	}

	refusals := []struct {
		name   string
		data   []byte
		reason Reason
	}{
		{"ErrUserPassword", extracttest.EncryptPDF(t, multi, "reader", "owner"), Password},
		{"ErrTruncated", multi[:len(multi)/3], Damaged},
		{"ErrGarbage", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("garbage "), 500)...), Damaged},
		{"ErrBlank", blank, Empty},
	}
	for _, ex := range []struct {
		name string
		ex   *Extractor
	}{{"Poppler", withOCR}, {"PureGo", pureGo}} {
		// Text that merely begins like a program's or a page's magic is text.
		for _, text := range []string{"MZ Bank's circular of 2024 on card tokenisation, for issuers and networks.", "<not a tag> notes"} {
			if got, err := New(Tools{}, Config{}).Extract(t.Context(), []byte(text)); err != nil || got.Kind != TXT {
				t.Errorf("text %q: %+v, %v; want it read as text", text, got, err)
			}
		}
		for _, tc := range refusals {
			t.Run(ex.name+"/"+tc.name, func(t *testing.T) {
				got, err := ex.ex.Extract(t.Context(), tc.data)
				if !IsReason(err, tc.reason) {
					t.Fatalf("got %+v, %v; want reason %d", got, err, tc.reason)
				}
			})
		}
	}
}

// checkInOrder fails unless each fragment appears after the one before.
func checkInOrder(t *testing.T, text string, fragments []string) {
	t.Helper()
	rest := text
	for _, f := range fragments {
		i := strings.Index(rest, f)
		if i < 0 {
			t.Errorf("%q missing (or out of order) in:\n%s", f, text)
			return
		}
		rest = rest[i+len(f):]
	}
}

// TestExtract_OCRAccuracy reports the character accuracy of OCR on the
// scanned fixture against its known text, and fails below 95%.
func TestExtract_OCRAccuracy(t *testing.T) {
	ex := New(realTools(t, "pdftotext", "pdftoppm", "tesseract"), Config{})
	got, err := ex.Extract(t.Context(), extracttest.PDF(t, extracttest.ScanPage(t, scanLines...)))
	if err != nil {
		t.Fatal(err)
	}
	want := normalizeSpace(strings.Join(scanLines, " "))
	acc := 1 - float64(levenshtein([]rune(normalizeSpace(got.Text)), []rune(want)))/float64(len([]rune(want)))
	t.Logf("OCR character accuracy on the scanned fixture: %.4f", acc)
	if acc < 0.95 {
		t.Errorf("character accuracy %.4f < 0.95; got:\n%s", acc, got.Text)
	}
}

func normalizeSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestExtract_DOCX(t *testing.T) {
	table := `<w:tbl><w:tr><w:tc>` + extracttest.Para("Entity") + `</w:tc><w:tc>` + extracttest.Para("Deadline") + `</w:tc></w:tr>` +
		`<w:tr><w:tc>` + extracttest.Para("Card issuers") + `</w:tc><w:tc>` + extracttest.Para("30 June 2026") + `</w:tc></w:tr></w:tbl>`
	body := extracttest.Para("Circular on tokenisation") + table +
		`<w:p><w:r><w:t>Kept</w:t></w:r><w:del><w:r><w:delText>Deleted words</w:delText></w:r></w:del>` +
		`<w:r><w:instrText>PAGE \* MERGEFORMAT</w:instrText></w:r>` +
		`<mc:AlternateContent><mc:Choice><w:r><w:t> once</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t> twice</w:t></w:r></mc:Fallback></mc:AlternateContent></w:p>` +
		`<w:p><w:r><w:t>Tab</w:t><w:tab/><w:t>stop</w:t><w:br/><w:t>next line ₹ हिंदी</w:t></w:r></w:p>`
	doc := extracttest.DOCX(t, body, extracttest.Para("RBI header"), extracttest.Para("Page footer"))
	got, err := New(Tools{}, Config{}).Extract(t.Context(), doc)
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Kind: DOCX, Method: MethodDOCX, Text: "RBI header\n\nCircular on tokenisation\nEntity\tDeadline\nCard issuers\t30 June 2026\nKept once\nTab\tstop\nnext line ₹ हिंदी\n\nPage footer"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	refusals := []struct {
		name   string
		data   []byte
		reason Reason
	}{
		// 40 MB of one letter deflates to about 40 KB.
		{"ErrZipBomb", extracttest.DOCX(t, extracttest.Para(strings.Repeat("A", 40<<20)), "", ""), TooLarge},
		{"ErrTooManyEntries", manyEntries(t), TooLarge},
		{"ErrDamagedXML", extracttest.DOCX(t, "<w:p><w:r><w:t>open", "", ""), Damaged},
		{"ErrDamagedZip", append(extracttest.DOCX(t, extracttest.Para("x"), "", "")[:40], make([]byte, 100)...), Damaged},
		{"ErrEmpty", extracttest.DOCX(t, "", "", ""), Empty},
		{"ErrZipNotWord", extracttest.Zip(t, "a.txt", "hello"), Unsupported},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			got, err := New(Tools{}, Config{}).Extract(t.Context(), tc.data)
			if !IsReason(err, tc.reason) {
				t.Fatalf("got %+v, %v; want reason %d", got, err, tc.reason)
			}
		})
	}
}

func manyEntries(t *testing.T) []byte {
	files := []string{"word/document.xml", "<w:document/>"}
	for i := range maxZipEntries + 1 {
		files = append(files, "x/"+string(rune('a'+i%26))+strings.Repeat("b", i/26), "")
	}
	return extracttest.Zip(t, files...)
}

func TestExtract_DOC(t *testing.T) {
	// No Word 97 file can be made here without Word or LibreOffice: the
	// OLE2 check and the subprocess path are tested with a stand-in tool
	// and with the real antiword on an OLE2 header that holds no document.
	ole := append(append([]byte(nil), ole2Magic...), make([]byte, 2048)...)
	dir := t.TempDir()
	fake := filepath.Join(dir, "antiword")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nprintf 'Circular text ₹ हिंदी\\n'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("Subprocess", func(t *testing.T) {
		got, err := New(Tools{Antiword: fake}, Config{}).Extract(t.Context(), ole)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(Result{Kind: DOC, Method: MethodAntiword, Text: "Circular text ₹ हिंदी\n"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("CatdocWhenNoAntiword", func(t *testing.T) {
		got, err := New(Tools{Catdoc: fake}, Config{}).Extract(t.Context(), ole)
		if err != nil || got.Method != MethodCatdoc {
			t.Fatalf("got %+v, %v; want catdoc's text", got, err)
		}
	})
	t.Run("ErrNoTool", func(t *testing.T) {
		_, err := New(Tools{}, Config{}).Extract(t.Context(), ole)
		if !IsReason(err, Unsupported) {
			t.Fatalf("got %v; want Unsupported", err)
		}
	})
	t.Run("ErrNotADocument", func(t *testing.T) {
		_, err := New(realTools(t, "antiword"), Config{}).Extract(t.Context(), ole)
		if !IsReason(err, Damaged) {
			t.Fatalf("got %v; want Damaged", err)
		}
	})
	t.Run("ErrNotOLE2", func(t *testing.T) {
		// catdoc would print a PDF's bytes as text; the header check stops it.
		_, err := New(Tools{Catdoc: fake}, Config{}).readDOC(t.Context(), []byte("%PDF-1.4 not a doc"))
		if !IsReason(err, Unsupported) {
			t.Fatalf("got %v; want Unsupported", err)
		}
	})
}

func TestExtract_TXT(t *testing.T) {
	utf16le := []byte{0xFF, 0xFE}
	for _, r := range "Circular ₹" {
		utf16le = append(utf16le, byte(r), byte(r>>8))
	}
	utf16be := []byte{0xFE, 0xFF}
	for _, r := range "Circular ₹" {
		utf16be = append(utf16be, byte(r>>8), byte(r))
	}
	tests := []struct {
		name string
		data []byte
		text string
		enc  string
	}{
		{"UTF8", []byte("Circular ₹ हिंदी\r\nline two\n"), "Circular ₹ हिंदी\nline two\n", "utf-8"},
		{"UTF8BOM", []byte("\xEF\xBB\xBFCircular ₹"), "Circular ₹", "utf-8"},
		{"UTF16LE", utf16le, "Circular ₹", "utf-16le"},
		{"UTF16BE", utf16be, "Circular ₹", "utf-16be"},
		// "Café – “quoted” €5" as Windows-1252 writes it.
		{"Windows1252", []byte("Caf\xe9 \x96 \x93quoted\x94 \x805"), "Café – “quoted” €5", "windows-1252"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := New(Tools{}, Config{}).Extract(t.Context(), tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(Result{Kind: TXT, Method: MethodText, Text: tc.text, Encoding: tc.enc}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	refusals := []struct {
		name   string
		data   []byte
		reason Reason
	}{
		{"ErrEmptyFile", nil, Empty},
		{"ErrBlankText", []byte(" \n\t\n"), Empty},
		{"ErrBinary", []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0}, Unsupported},
		{"ErrPNG", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), Unsupported},
		{"ErrTooLarge", bytes.Repeat([]byte("a"), MaxUpload+1), TooLarge},
		{"ErrHTML", []byte("  <!doctype html><html><body>Error 404</body></html>"), Unsupported},
		{"ErrXHTML", []byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>`), Unsupported},
		{"ErrJPEG", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), Unsupported},
		{"ErrTIFF", []byte("II*\x00\x08\x00\x00\x00"), Unsupported},
		{"ErrGzip", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"), Unsupported},
		{"ErrWindowsProgram", peHeader(), Unsupported},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			got, err := New(Tools{}, Config{}).Extract(t.Context(), tc.data)
			if !IsReason(err, tc.reason) {
				t.Fatalf("got %+v, %v; want reason %d", got, err, tc.reason)
			}
		})
	}
}

// peHeader is the start of a Windows program: "MZ", and at the offset
// its header names, "PE\0\0".
func peHeader() []byte {
	b := make([]byte, 0x84)
	copy(b, "MZ")
	binary.LittleEndian.PutUint32(b[0x3C:], 0x80)
	copy(b[0x80:], "PE\x00\x00")
	return b
}

func TestDetect_Claimed(t *testing.T) {
	for _, tc := range []struct {
		name, mediaType string
		want            Kind
	}{
		{"Circular.PDF", "", PDF},
		{"a.docx", "application/octet-stream", DOCX},
		{"a.doc", "", DOC},
		{"notes.txt", "", TXT},
		{"upload.bin", "application/pdf", PDF},
		{"", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", DOCX},
		{"", "text/plain; charset=utf-8", TXT},
		{"page.html", "text/html", ""},
		{"", "", ""},
	} {
		if got := Claimed(tc.name, tc.mediaType); got != tc.want {
			t.Errorf("Claimed(%q, %q) = %q, want %q", tc.name, tc.mediaType, got, tc.want)
		}
	}
	text := []byte("RBI/2026-27/12 circular on card tokenisation, as text.\n")
	for _, tc := range []struct {
		name    string
		data    []byte
		claimed Kind
		want    Kind
		says    string // the refusal's message; "" for none
	}{
		{"ErrTextAsPDF", text, PDF, "", "This file is plain text, not a PDF. Upload it as a .txt file, or paste its text."},
		{"TextAsText", text, TXT, TXT, ""},
		{"TextClaimingNothing", text, "", TXT, ""},
		{"PDFAsPDF", extracttest.PDF(t, extracttest.TextPage("A PDF")), PDF, PDF, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect(tc.data, tc.claimed)
			says := ""
			if err != nil {
				if !IsReason(err, Unsupported) {
					t.Fatalf("error %v, want reason Unsupported", err)
				}
				says = err.Error()
			}
			if got != tc.want || says != tc.says {
				t.Errorf("Detect = %q, %q; want %q, %q", got, says, tc.want, tc.says)
			}
		})
	}
	_, err := Detect([]byte("<html><body>Access denied</body></html>"), "")
	if err == nil || !strings.Contains(err.Error(), "This file is an HTML page, not a PDF, Word or text document.") {
		t.Errorf("HTML claiming nothing: %v", err)
	}
}
