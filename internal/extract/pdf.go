package extract

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	lpdf "github.com/ledongthuc/pdf"
	pdfcpuapi "github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

func init() {
	// pdfcpu otherwise writes its configuration under ~/.config.
	pdfcpuapi.DisableConfigDir()
}

// pageKind is a page's classification after the text layer is read.
type pageKind int

const (
	pageBlank pageKind = iota
	pageText           // 20 or more letters or digits in the text layer
	pageImage          // little text, but an image big enough to be a scan
)

// minTextRunes: a page with fewer letters and digits than this in its
// text layer is not a text page (page numbers and stray marks are).
const minTextRunes = 20

// minScanPixels: an image of at least this many pixels on a page with no
// text layer is taken for a scan (a logo or a stamp is smaller).
const minScanPixels = 200 * 200

// pdfDoc is a PDF after pdfcpu's pass and the text layer.
type pdfDoc struct {
	dir    string   // temporary folder; removed by close
	path   string   // the PDF as given to the tools (decrypted, repaired)
	method string   // MethodPDFToText or MethodGoPDF
	texts  []string // the text layer, one per page
	kinds  []pageKind
}

func (p *pdfDoc) close() { os.RemoveAll(p.dir) }

// ocrPages are the page numbers (1-based) that OCR will read, at most max.
func (p *pdfDoc) ocrPages(max int) []int {
	var pages []int
	for i, k := range p.kinds {
		if k == pageImage && len(pages) < max {
			pages = append(pages, i+1)
		}
	}
	return pages
}

func (p *pdfDoc) imagePages() int {
	n := 0
	for _, k := range p.kinds {
		if k == pageImage {
			n++
		}
	}
	return n
}

// inspection is what pdfcpu tells of a PDF.
type inspection struct {
	clean     []byte // rewritten: decrypted and repaired
	pages     int
	hasScan   []bool // per page: an image of minScanPixels or more
	encrypted bool
}

// inspectPDF validates, decrypts (owner password only) and rewrites the
// PDF with pdfcpu, which repairs cut-off ends and wrong offsets, and
// notes each page's images. pdfcpu panics on some malformed files, so it
// runs inside recover.
func inspectPDF(data []byte) (ins inspection, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("pdfcpu panic: %v", v)
		}
	}()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := pdfcpuapi.ReadContext(bytes.NewReader(data), conf)
	if err != nil {
		return ins, err
	}
	if err := pdfcpuapi.ValidateContext(ctx); err != nil {
		return ins, err
	}
	ins.encrypted = ctx.Encrypt != nil
	ins.pages = ctx.PageCount
	if err := pdfcpuapi.OptimizeContext(ctx); err == nil {
		ins.hasScan = make([]bool, ins.pages)
		for i := range ins.pages {
			imgs, err := pdfcpu.ExtractPageImages(ctx, i+1, true)
			if err != nil {
				continue
			}
			for _, img := range imgs {
				if img.Width*img.Height >= minScanPixels {
					ins.hasScan[i] = true
				}
			}
		}
	}
	// Written without its encryption, so every reader can open it.
	ctx.Encrypt = nil
	ctx.EncKey = nil
	ctx.E = nil
	var buf bytes.Buffer
	if err := pdfcpuapi.WriteContext(ctx, &buf); err == nil {
		ins.clean = buf.Bytes()
	}
	return ins, nil
}

func (e *Extractor) openPDF(ctx context.Context, data []byte) (*pdfDoc, error) {
	ins, err := inspectPDF(data)
	if err != nil {
		if isPasswordErr(err) {
			return nil, refuse(Password, err, "This PDF is protected by a password. Remove the password (or print it to a new PDF) and upload it again.")
		}
		// pdfcpu could not read it; poppler repairs more, so it still gets a try.
		ins = inspection{}
	}
	clean := ins.clean
	if clean == nil {
		clean = data
	}
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	p := &pdfDoc{dir: dir, path: filepath.Join(dir, "in.pdf")}
	if err := os.WriteFile(p.path, clean, 0o600); err != nil {
		p.close()
		return nil, err
	}
	if e.tools.PDFToText != "" {
		p.method = MethodPDFToText
		p.texts, err = e.pdftotext(ctx, p)
	} else {
		p.method = MethodGoPDF
		p.texts, err = goPDFText(clean)
	}
	if err != nil {
		p.close()
		if _, ok := err.(*Error); ok {
			return nil, err
		}
		if isPasswordErr(err) {
			return nil, refuse(Password, err, "This PDF is protected by a password. Remove the password (or print it to a new PDF) and upload it again.")
		}
		return nil, refuse(Damaged, err, "This PDF is damaged or incomplete and cannot be read.")
	}
	if ins.pages > len(p.texts) {
		p.texts = append(p.texts, make([]string, ins.pages-len(p.texts))...)
	}
	p.kinds = make([]pageKind, len(p.texts))
	for i, t := range p.texts {
		switch {
		case countAlnum(t) >= minTextRunes:
			p.kinds[i] = pageText
		case ins.hasScan == nil || (i < len(ins.hasScan) && ins.hasScan[i]):
			// Without pdfcpu's view of the images, a page without text
			// may be a scan: OCR finds out.
			p.kinds[i] = pageImage
		}
	}
	return p, nil
}

func isPasswordErr(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "password") || strings.Contains(s, "encrypt")
}

// pdftotext reads the text layer in layout mode (columns stay apart);
// pages are separated by form feeds.
func (e *Extractor) pdftotext(ctx context.Context, p *pdfDoc) ([]string, error) {
	out, err := e.tools.run(ctx, limits{timeout: e.cfg.TextTimeout, memoryMB: 512, maxOut: 64 << 20, dir: p.dir},
		e.tools.PDFToText, "-layout", "-enc", "UTF-8", "-q", p.path, "-")
	if err != nil {
		return nil, err
	}
	pages := strings.Split(string(out), "\f")
	if n := len(pages); n > 1 && strings.TrimSpace(pages[n-1]) == "" {
		pages = pages[:n-1] // the form feed after the last page
	}
	return pages, nil
}

// goPDFText is the pure-Go text layer, page by page. The reader panics
// on many malformed files, hence recover (a page that panics is empty).
func goPDFText(data []byte) (pages []string, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("pdf reader panic: %v", v)
		}
	}()
	r, err := lpdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	n := r.NumPage()
	if n > 5000 {
		return nil, fmt.Errorf("%d pages", n)
	}
	for i := 1; i <= n; i++ {
		pages = append(pages, goPDFPage(r, i))
	}
	return pages, nil
}

func goPDFPage(r *lpdf.Reader, i int) (text string) {
	defer func() {
		if recover() != nil {
			text = ""
		}
	}()
	p := r.Page(i)
	if p.V.IsNull() {
		return ""
	}
	rows, err := p.GetTextByRow()
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, row := range rows {
		for j, w := range row.Content {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w.S)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// finishPDF OCRs the scanned pages (up to the cap) and joins all pages
// in order.
func (e *Extractor) finishPDF(ctx context.Context, p *pdfDoc, progress Progress) (Result, error) {
	res := Result{Kind: PDF, Method: p.method, Pages: len(p.texts)}
	texts := append([]string(nil), p.texts...)
	todo := p.ocrPages(e.cfg.MaxOCRPages)
	canOCR := e.canOCR()
	textPages := 0
	for _, k := range p.kinds {
		if k == pageText {
			textPages++
		}
	}
	if canOCR && len(todo) > 0 {
		if progress != nil {
			progress(0, len(todo))
		}
		for i, page := range todo {
			t, err := e.ocrPage(ctx, p, page)
			if err != nil {
				return Result{}, err
			}
			// Marks without a letter or digit are a scan's specks and
			// rules, not its text: kept, they made an image-only PDF
			// answer as read, with nothing readable.
			if countAlnum(t) > 0 {
				texts[page-1] = t
				res.OCRPages++
			}
			if progress != nil {
				progress(i+1, len(todo))
			}
		}
		res.SkippedPages = p.imagePages() - len(todo)
		if textPages == 0 {
			res.Method = MethodOCR
		} else if res.OCRPages > 0 {
			res.Method += methodOCRSuffix
		}
	}
	var b strings.Builder
	for _, t := range texts {
		t = strings.TrimRight(t, " \t\r\n")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
	}
	res.Text = b.String()
	switch {
	case isBlank(res.Text) && p.imagePages() > 0 && !canOCR:
		res.IsImageBased = true
		res.Message = "This PDF appears to be image-based (scanned) and text recognition is not available on this server. Please copy and paste the text content below instead."
	case isBlank(res.Text) && p.imagePages() > 0:
		res.IsImageBased = true
		res.Message = "This PDF appears to be image-based (scanned) and no readable text was recognised in it. Please copy and paste the text content below instead."
	case isBlank(res.Text):
		return Result{}, refuse(Empty, nil, "This PDF has no text in it.")
	case !canOCR && p.imagePages() > 0:
		res.SkippedPages = p.imagePages()
		res.Message = fmt.Sprintf("%d scanned page(s) could not be read: text recognition is not available on this server.", p.imagePages())
	case res.SkippedPages > 0:
		res.Message = fmt.Sprintf("Text recognition read the first %d scanned pages; %d more were left out.", len(todo), res.SkippedPages)
	}
	return res, nil
}

// ocrPage renders one page at 300 dpi in grey and reads it with
// tesseract (English and Hindi). OMP_THREAD_LIMIT=1: tesseract's threads
// only slow it down on a small shared machine.
func (e *Extractor) ocrPage(ctx context.Context, p *pdfDoc, page int) (string, error) {
	n := strconv.Itoa(page)
	base := filepath.Join(p.dir, "page"+n)
	lim := limits{timeout: e.cfg.OCRPageTimeout, memoryMB: 1024, maxOut: 1 << 20, dir: p.dir}
	if _, err := e.tools.run(ctx, lim, e.tools.PDFToPPM, "-r", "300", "-gray", "-tiff", "-singlefile",
		"-f", n, "-l", n, p.path, base); err != nil {
		return "", wrapToolErr(err, "This PDF could not be rendered for text recognition.")
	}
	img := base + ".tif"
	defer os.Remove(img)
	lim.env = []string{"OMP_THREAD_LIMIT=1"}
	langs := e.tools.OCRLangs
	if langs == "" {
		langs = "eng"
	}
	out, err := e.tools.run(ctx, lim, e.tools.Tesseract, img, "stdout", "-l", langs, "--psm", "3")
	if err != nil {
		return "", wrapToolErr(err, "Text recognition failed on this PDF.")
	}
	return string(out), nil
}

func wrapToolErr(err error, msg string) error {
	if _, ok := err.(*Error); ok {
		return err
	}
	if err == context.Canceled {
		return err
	}
	return refuse(Damaged, err, "%s", msg)
}

func countAlnum(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// Config holds the extractor's limits.
type Config struct {
	MaxOCRPages    int           // scanned pages read by OCR per document
	TextTimeout    time.Duration // pdftotext, antiword, catdoc: one run
	OCRPageTimeout time.Duration // rendering or recognising one page
}

// DefaultConfig: a 50-page scan takes about three minutes of OCR here.
var DefaultConfig = Config{MaxOCRPages: 50, TextTimeout: 30 * time.Second, OCRPageTimeout: 60 * time.Second}

// Extractor extracts text with the tools it was given.
type Extractor struct {
	tools Tools
	cfg   Config
}

// New returns an Extractor using tools (FindTools(), or Tools{} for the
// pure-Go readers only) with DefaultConfig's limits where cfg's are zero.
func New(tools Tools, cfg Config) *Extractor {
	if cfg.MaxOCRPages <= 0 {
		cfg.MaxOCRPages = DefaultConfig.MaxOCRPages
	}
	if cfg.TextTimeout <= 0 {
		cfg.TextTimeout = DefaultConfig.TextTimeout
	}
	if cfg.OCRPageTimeout <= 0 {
		cfg.OCRPageTimeout = DefaultConfig.OCRPageTimeout
	}
	return &Extractor{tools: tools, cfg: cfg}
}

func (e *Extractor) canOCR() bool { return e.tools.PDFToPPM != "" && e.tools.Tesseract != "" }

// Tools are the external programs the Extractor uses.
func (e *Extractor) Tools() Tools { return e.tools }
