package extract

import (
	"fmt"
	"strings"
	"testing"

	"regpulse/internal/extract/extracttest"
)

// The time per page of each way to text (ms/page; ms/doc for a DOCX).

func benchPages(b *testing.B, ex *Extractor, data []byte, pages int, unit string) {
	b.Helper()
	for b.Loop() {
		if _, err := ex.Extract(b.Context(), data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*pages), unit)
}

func tenTextPages(b *testing.B) []byte {
	var pages []extracttest.Page
	for i := range 10 {
		var lines []string
		for j := range 40 {
			lines = append(lines, fmt.Sprintf("Page %d line %d: payment aggregators shall report fraud within six hours.", i+1, j+1))
		}
		pages = append(pages, extracttest.TextPage(lines...))
	}
	return extracttest.PDF(b, pages...)
}

func BenchmarkExtract_TextPDF(b *testing.B) {
	benchPages(b, New(realTools(b, "pdftotext"), Config{}), tenTextPages(b), 10, "ms/page")
}

func BenchmarkExtract_TextPDFPureGo(b *testing.B) {
	benchPages(b, New(Tools{}, Config{}), tenTextPages(b), 10, "ms/page")
}

func BenchmarkExtract_OCRPage(b *testing.B) {
	ex := New(realTools(b, "pdftotext", "pdftoppm", "tesseract"), Config{})
	benchPages(b, ex, extracttest.PDF(b, extracttest.ScanPage(b, scanLines...)), 1, "ms/page")
}

func BenchmarkExtract_DOCX(b *testing.B) {
	var body strings.Builder
	for i := range 400 {
		body.WriteString(extracttest.Para(fmt.Sprintf("Paragraph %d of a long circular on payment aggregators.", i)))
	}
	benchPages(b, New(Tools{}, Config{}), extracttest.DOCX(b, body.String(), "", ""), 1, "ms/doc")
}
