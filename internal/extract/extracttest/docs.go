// Package extracttest makes the documents the extraction tests read, so
// every fixture's text is known.
package extracttest

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"image/draw"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pdfcpuapi "github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Line is a line of text at a position on a page (points from the
// bottom left). Unicode lines use a composite font whose ToUnicode map
// gives the text (the glyphs themselves are not embedded: text
// extraction reads only the map).
type Line struct {
	X, Y    int
	Text    string
	Unicode bool
}

// Page is one page: text lines and/or a full-page grey image.
type Page struct {
	Lines []Line
	Scan  *image.Gray
}

// PDF writes a PDF of A4 pages by hand: a catalog, a page tree,
// Helvetica for Latin text, a Type0 font with a ToUnicode map for other
// scripts, and image XObjects for scans.
func PDF(t testing.TB, pages ...Page) []byte {
	t.Helper()
	// Every rune used in Unicode lines gets a glyph id.
	cid := map[rune]int{}
	var runes []rune
	for _, p := range pages {
		for _, l := range p.Lines {
			if !l.Unicode {
				continue
			}
			for _, r := range l.Text {
				if _, ok := cid[r]; !ok {
					cid[r] = len(runes) + 1
					runes = append(runes, r)
				}
			}
		}
	}
	var objs []string // object i+1
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	stream := func(dict string, data []byte) int {
		return add(fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data))
	}
	deflate := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := zlib.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	catalog := add("") // filled in at the end
	tree := add("")
	helv := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	var cmap strings.Builder
	cmap.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def 1 begincodespacerange <0000> <FFFF> endcodespacerange\n")
	for i := 0; i < len(runes); i += 100 {
		chunk := runes[i:min(i+100, len(runes))]
		fmt.Fprintf(&cmap, "%d beginbfchar\n", len(chunk))
		for j, r := range chunk {
			u := utf16Hex(r)
			fmt.Fprintf(&cmap, "<%04X> <%s>\n", i+j+1, u)
		}
		cmap.WriteString("endbfchar\n")
	}
	cmap.WriteString("endcmap CMapName currentdict /CMap defineresource pop end end")
	toUni := stream("", []byte(cmap.String()))
	desc := add("<< /Type /FontDescriptor /FontName /Uni /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>")
	cidFont := add(fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Uni /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /DW 600 >>", desc))
	uni := add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /Uni /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", cidFont, toUni))
	var kids []string
	for _, p := range pages {
		var content strings.Builder
		xobj := ""
		if p.Scan != nil {
			b := p.Scan.Bounds()
			img := stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", b.Dx(), b.Dy()), deflate(p.Scan.Pix))
			xobj = fmt.Sprintf("/XObject << /Im1 %d 0 R >>", img)
			content.WriteString("q 595 0 0 842 0 0 cm /Im1 Do Q\n")
		}
		for _, l := range p.Lines {
			if l.Unicode {
				var hex strings.Builder
				for _, r := range l.Text {
					fmt.Fprintf(&hex, "%04X", cid[r])
				}
				fmt.Fprintf(&content, "BT /F2 11 Tf %d %d Td <%s> Tj ET\n", l.X, l.Y, hex.String())
				continue
			}
			fmt.Fprintf(&content, "BT /F1 11 Tf %d %d Td (%s) Tj ET\n", l.X, l.Y, pdfEscape(l.Text))
		}
		cs := stream("/Filter /FlateDecode", deflate([]byte(content.String())))
		page := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> %s >> >>", tree, cs, helv, uni, xobj))
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", tree)
	objs[tree-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, catalog, xref)
	return out.Bytes()
}

func utf16Hex(r rune) string {
	if r < 0x10000 {
		return fmt.Sprintf("%04X", r)
	}
	r -= 0x10000
	return fmt.Sprintf("%04X%04X", 0xD800+(r>>10), 0xDC00+(r&0x3FF))
}

func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s)
}

// TextPage lays lines out down a page in Helvetica.
func TextPage(lines ...string) Page {
	var p Page
	for i, l := range lines {
		p.Lines = append(p.Lines, Line{X: 72, Y: 770 - 16*i, Text: l})
	}
	return p
}

// ScanPage renders lines with the Go font into a 150 dpi A4 grey image,
// as a scanner would give it: the page has no text layer.
func ScanPage(t testing.TB, lines ...string) Page {
	t.Helper()
	const w, h = 1240, 1754 // A4 at 150 dpi
	img := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 12, DPI: 150, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	d := font.Drawer{Dst: img, Src: image.Black, Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(150, 200+i*45)
		d.DrawString(l)
	}
	return Page{Scan: img}
}

// EncryptPDF encrypts with pdfcpu (AES-256): userPW "" opens for
// anyone and restricts only what the owner password guards.
func EncryptPDF(t testing.TB, data []byte, userPW, ownerPW string) []byte {
	t.Helper()
	conf := model.NewAESConfiguration(userPW, ownerPW, 256)
	var out bytes.Buffer
	if err := pdfcpuapi.Encrypt(bytes.NewReader(data), &out, conf); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Zip writes a zip of name/content pairs.
func Zip(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, files[i+1])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const WordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

// DOCX is a minimal Word document: body XML plus optional header
// and footer parts.
func DOCX(t testing.TB, body, header, footer string) []byte {
	t.Helper()
	files := []string{
		"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
		"word/document.xml", `<?xml version="1.0"?><w:document ` + WordNS + `><w:body>` + body + `</w:body></w:document>`,
	}
	if header != "" {
		files = append(files, "word/header1.xml", `<w:hdr `+WordNS+`>`+header+`</w:hdr>`)
	}
	if footer != "" {
		files = append(files, "word/footer1.xml", `<w:ftr `+WordNS+`>`+footer+`</w:ftr>`)
	}
	return Zip(t, files...)
}

func Para(text string) string {
	return `<w:p><w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

// FakeOCR writes stand-ins for pdftoppm and tesseract into a test's
// temporary folder and returns their paths: every page "reads" as text,
// at once, so tests of the flow around OCR need neither tool nor time.
func FakeOCR(t testing.TB, text string) (pdftoppm, tesseract string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, script string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// pdftoppm ... in.pdf BASE writes BASE.tif
	return write("pdftoppm", `for a; do last=$a; done; : > "$last.tif"`),
		write("tesseract", "echo '"+text+"'")
}
