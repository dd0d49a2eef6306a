package inspection

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// The PDF's fonts are the Go fonts (golang.org/x/image/font/gofont),
// embedded as subsets: they come with a Go module, so nothing is
// downloaded or looked for on the machine, and they cover Latin, Greek
// and Cyrillic. A character they lack (Devanagari, say) is shown as
// U+FFFD, the rupee sign as "Rs."; the title page says so, and the XLSX
// keeps every character.
const (
	fontText = "go"
	fontMono = "gomono"
)

// PDF layout, in millimetres and points.
const (
	pdfMargin = 15.0
	pdfLine   = 4.2 // a line of 8.5 pt text
	pdfSize   = 8.5
)

// glyphs reports whether the text font has a glyph for a rune, read
// once from the font.
var glyphs = sync.OnceValue(func() func(rune) bool {
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		panic(err) // the module's own font: cannot fail
	}
	var b sfnt.Buffer
	var mu sync.Mutex
	known := map[rune]bool{}
	return func(r rune) bool {
		mu.Lock()
		defer mu.Unlock()
		has, ok := known[r]
		if !ok {
			g, err := f.GlyphIndex(&b, r)
			has = err == nil && g != 0
			known[r] = has
		}
		return has
	}
})

// pdfText is s as the PDF's fonts can show it: the rupee sign as "Rs.",
// another character they lack as U+FFFD, control characters but the
// line feed as spaces.
func pdfText(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c < ' ' && c != '\n' {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	has := glyphs()
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r == '₹':
			b.WriteString("Rs.")
		case r < ' ' || r == 0x7f:
			b.WriteByte(' ')
		case r < utf8.RuneSelf || has(r):
			b.WriteRune(r)
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
	return b.String()
}

// WritePDF writes r as a PDF: a title page (the organisation, when and
// by whom, the counts and the trail's head), then each item with its
// decision, comments, evidence and audit rows, then the trail's rows
// about no item.
func WritePDF(w io.Writer, r Register, m Meta) error {
	at := m.GeneratedAt.UTC()
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCatalogSort(true)
	pdf.SetCreationDate(at)
	pdf.SetModificationDate(at)
	pdf.SetProducer("RegPulse", true)
	pdf.SetCreator("RegPulse", true)
	pdf.SetTitle(pdfText("Register of "+r.Organisation.Name), true)
	pdf.SetAuthor(pdfText(m.GeneratedBy), true)
	// Copies: fpdf writes into the bytes it is given, and the fonts'
	// are the modules' own variables, which the next export would read
	// changed (and its bytes differ).
	pdf.AddUTF8FontFromBytes(fontText, "", bytes.Clone(goregular.TTF))
	pdf.AddUTF8FontFromBytes(fontText, "B", bytes.Clone(gobold.TTF))
	pdf.AddUTF8FontFromBytes(fontMono, "", bytes.Clone(gomono.TTF))
	pdf.SetMargins(pdfMargin, pdfMargin, pdfMargin)
	pdf.SetAutoPageBreak(true, pdfMargin+5)
	pdf.AliasNbPages("{nb}")
	footer := pdfText(fmt.Sprintf("Register of %s · generated %s UTC", r.Organisation.Name, at.Format("2006-01-02 15:04:05")))
	pdf.SetFooterFunc(func() {
		pdf.SetY(-pdfMargin)
		pdf.SetFont(fontText, "", 7)
		pdf.SetTextColor(90, 90, 90)
		pdf.CellFormat(0, 4, footer, "", 0, "L", false, 0, "")
		pdf.CellFormat(0, 4, "Page "+strconv.Itoa(pdf.PageNo())+" of {nb}", "", 0, "R", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
	})
	p := &pdfWriter{pdf: pdf, r: r}
	p.titlePage(m)
	p.items()
	p.otherRows()
	if err := pdf.Error(); err != nil {
		return err
	}
	return pdf.Output(w)
}

type pdfWriter struct {
	pdf *fpdf.Fpdf
	r   Register
}

// para writes text as a paragraph in the text font, style "" or "B".
func (p *pdfWriter) para(style string, size float64, text string) {
	p.pdf.SetFont(fontText, style, size)
	p.pdf.MultiCell(0, size*0.5, pdfText(text), "", "L", false)
}

// field writes "label: value" lines, the label bold, indented by indent.
func (p *pdfWriter) field(indent float64, label, value string) {
	pdf := p.pdf
	pdf.SetX(pdfMargin + indent)
	pdf.SetFont(fontText, "B", pdfSize)
	lw := pdf.GetStringWidth(label+": ") + 0.5
	pdf.CellFormat(lw, pdfLine, label+": ", "", 0, "L", false, 0, "")
	pdf.SetFont(fontText, "", pdfSize)
	pdf.MultiCell(0, pdfLine, pdfText(value), "", "L", false)
}

// mono writes a line of fixed-width text (hashes), indented.
func (p *pdfWriter) mono(indent float64, text string) {
	p.pdf.SetX(pdfMargin + indent)
	p.pdf.SetFont(fontMono, "", 7)
	p.pdf.MultiCell(0, 3.6, text, "", "L", false)
}

func (p *pdfWriter) titlePage(m Meta) {
	pdf, r := p.pdf, p.r
	pdf.AddPage()
	pdf.Ln(20)
	p.para("B", 22, "Register of decisions")
	pdf.Ln(2)
	p.para("B", 16, r.Organisation.Name)
	pdf.Ln(8)
	c := r.Counts()
	head := r.Head()
	for _, kv := range [][2]string{
		{"Organisation id", r.Organisation.ID},
		{"Kinds of business", strings.Join(r.Organisation.EntityTypes, ", ")},
		{"Generated at", m.GeneratedAt.UTC().Format("2006-01-02 15:04:05") + " UTC"},
		{"Generated by", m.GeneratedBy},
		{"Items", strconv.Itoa(c.Items)},
		{"Comments", strconv.Itoa(c.Comments)},
		{"Evidence", strconv.Itoa(c.Evidence)},
		{"Audit trail rows", strconv.Itoa(c.TrailRows)},
		{"Trail head", "row " + strconv.FormatInt(head.Seq, 10)},
	} {
		p.field(0, kv[0], kv[1])
		pdf.Ln(0.8)
	}
	p.mono(0, "Trail head hash: "+head.Hash)
	pdf.Ln(8)
	p.para("", pdfSize, "Each item is the organisation's decision on a circular, an obligation or a Master Direction provision, "+
		"with its owner, dates, comments, evidence (a file with its SHA-256) and the rows of the audit trail about it; "+
		"the trail's rows about no item (members, invitations, exports) follow the items. "+
		"Times are UTC. This file's own SHA-256 was shown when it was exported and is kept in the organisation's audit trail "+
		"(action export.create); `regpulse audit verify` checks the trail's hash chain. "+
		"Characters this PDF's font lacks are shown as \uFFFD (the rupee sign as Rs.); the XLSX export keeps every character.")
}

func dateText(t interface{ String() string }, isNil bool) string {
	if isNil {
		return ""
	}
	return t.String()
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

func (p *pdfWriter) items() {
	pdf, r := p.pdf, p.r
	pdf.AddPage()
	p.para("B", 14, "Register")
	pdf.Ln(2)
	if len(r.Items) == 0 {
		p.para("", pdfSize, "The organisation has decided on nothing yet.")
	}
	itemOf := r.ItemOf()
	rowsOf := make([][]int, len(r.Items)) // indexes into r.Trail
	for k, row := range r.Trail {
		if i, ok := itemOf[row.Seq]; ok {
			rowsOf[i] = append(rowsOf[i], k)
		}
	}
	for i, it := range r.Items {
		d := it.Decision
		if pdf.GetY() > 250 { // a heading is not left alone at a page's foot
			pdf.AddPage()
		}
		pdf.Ln(2)
		pdf.SetFillColor(232, 237, 244)
		pdf.SetFont(fontText, "B", 9.5)
		pdf.MultiCell(0, 5, pdfText(fmt.Sprintf("%d. %s", i+1, d.Subject.String())), "", "L", true)
		if it.Title != "" {
			p.para("", pdfSize, it.Title)
		}
		appl := d.Applicability
		if d.Reason != "" {
			appl += " (" + string(d.Reason) + ")"
		}
		if d.DeferredUntil != nil {
			appl += ", until " + d.DeferredUntil.String()
		}
		due := dateText(d.DueDate, d.DueDate == nil)
		if d.Due != "" && string(d.Due) != due {
			due += " (" + string(d.Due) + ")"
		}
		p.field(3, "Decision", appl+" · status "+d.Status+" · owner "+orNone(r.Name(string(d.OwnerID)))+" · due "+orNone(due))
		if d.Note != "" {
			p.field(3, "Note", string(d.Note))
		}
		decided := fmt.Sprintf("%s at %s UTC · version %d", orNone(r.Name(string(d.DecidedBy))), timeText(d.DecidedAt), d.Version)
		if d.TextVersion != "" {
			decided += " · text version " + string(d.TextVersion)
		}
		p.field(3, "Decided by", decided)
		if d.Reopened != nil {
			p.field(3, "Reopened", timeText(d.Reopened.At)+" UTC: "+reopenedBecause(d.Reopened))
		}
		for _, c := range it.Comments {
			p.field(3, "Comment", fmt.Sprintf("%s, %s UTC: %s", orNone(r.Name(string(c.AuthorID))), timeText(c.CreatedAt), c.Body))
		}
		for _, e := range it.Evidence {
			what := string(e.Link)
			if e.Kind == "file" {
				what = fmt.Sprintf("%s (%d bytes, %s)", e.Name, e.Size, e.MediaType)
			}
			review := e.State
			if e.ReviewedAt != nil {
				review += " by " + r.Name(string(e.ReviewedBy)) + " at " + timeText(*e.ReviewedAt) + " UTC"
			}
			if e.ReviewNote != "" {
				review += ": " + string(e.ReviewNote)
			}
			text := fmt.Sprintf("%s, added by %s at %s UTC; %s", what, orNone(r.Name(string(e.AddedBy))), timeText(e.AddedAt), review)
			if e.Note != "" {
				text += " · note: " + string(e.Note)
			}
			p.field(3, "Evidence "+e.Kind, text)
			if e.SHA256 != "" {
				p.mono(6, "SHA-256 "+string(e.SHA256))
			}
		}
		for _, k := range rowsOf[i] {
			p.trailRow(3, k)
		}
	}
}

// trailRow writes the trail's row k: its number, time, actor and
// action, then its hash.
func (p *pdfWriter) trailRow(indent float64, k int) {
	row := p.r.Trail[k]
	subject := ""
	if row.SubjectType != subjectDecision {
		subject = " " + row.SubjectType + " " + row.SubjectID
	}
	p.field(indent, "Audit row "+strconv.FormatInt(row.Seq, 10),
		fmt.Sprintf("%s UTC · %s · %s%s", row.At.UTC().Format("2006-01-02 15:04:05.000000"), orNone(p.r.Name(row.ActorID)), row.Action, subject))
	p.mono(indent+3, "hash "+row.Hash)
}

// otherRows writes the trail's rows about no item.
func (p *pdfWriter) otherRows() {
	pdf, r := p.pdf, p.r
	itemOf := r.ItemOf()
	var others []int
	for k, row := range r.Trail {
		if _, ok := itemOf[row.Seq]; !ok {
			others = append(others, k)
		}
	}
	pdf.AddPage()
	p.para("B", 14, "Other rows of the audit trail")
	pdf.Ln(1)
	p.para("", pdfSize, "The rows about the organisation itself: its creation, members, invitations, reassignments and exports.")
	pdf.Ln(2)
	if len(others) == 0 {
		p.para("", pdfSize, "None.")
	}
	for _, k := range others {
		p.trailRow(0, k)
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
