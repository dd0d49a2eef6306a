package extract

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"sort"
	"strings"
)

// Caps against zip bombs: a real .docx has a few dozen parts and its
// XML is rarely over a few MB.
const (
	maxZipEntries = 1000
	maxPartBytes  = 32 << 20 // one part, uncompressed
	maxDocxBytes  = 64 << 20 // all parts read, uncompressed
)

var errBomb = errors.New("zip expands past the caps")

// readDOCX takes the text of a Word document in reading order: headers,
// the body (paragraphs, and tables row by row with cells separated by
// tabs), then footers and footnotes. Deleted text, field codes and the
// fallback copies of drawings are left out.
func readDOCX(data []byte) (Result, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return Result{}, refuse(Damaged, err, "This Word document is damaged and cannot be read.")
	}
	if len(zr.File) > maxZipEntries {
		return Result{}, refuse(TooLarge, errBomb, "This Word document has too many parts (%d) to be a real document.", len(zr.File))
	}
	parts := map[string]*zip.File{}
	var headers, footers []string
	for _, f := range zr.File {
		// The sizes a zip declares can lie; docxPartText also counts
		// what it reads. This refuses an honest bomb at once.
		if f.UncompressedSize64 > maxPartBytes {
			return Result{}, refuse(TooLarge, errBomb, "This Word document expands to more than %d MB and was refused.", maxPartBytes>>20)
		}
		parts[f.Name] = f
		base := path.Base(f.Name)
		if path.Dir(f.Name) != "word" || !strings.HasSuffix(base, ".xml") {
			continue
		}
		switch {
		case strings.HasPrefix(base, "header"):
			headers = append(headers, f.Name)
		case strings.HasPrefix(base, "footer"):
			footers = append(footers, f.Name)
		}
	}
	sort.Strings(headers)
	sort.Strings(footers)
	order := append(append(headers, "word/document.xml"), footers...)
	order = append(order, "word/footnotes.xml", "word/endnotes.xml")
	budget := maxDocxBytes
	var out []string
	seen := map[string]bool{}
	for _, name := range order {
		f := parts[name]
		if f == nil {
			continue
		}
		text, err := docxPartText(f, &budget)
		if err != nil {
			if errors.Is(err, errBomb) {
				return Result{}, refuse(TooLarge, err, "This Word document expands to more than %d MB and was refused.", maxDocxBytes>>20)
			}
			return Result{}, refuse(Damaged, err, "This Word document is damaged and cannot be read.")
		}
		text = strings.TrimSpace(text)
		// The same header on every section is shown once.
		if text == "" || (name != "word/document.xml" && seen[text]) {
			continue
		}
		seen[text] = true
		out = append(out, text)
	}
	return Result{Text: strings.Join(out, "\n\n"), Method: MethodDOCX}, nil
}

// docxPartText reads one WordprocessingML part, at most maxPartBytes and
// what is left of budget, whatever its header claims.
func docxPartText(f *zip.File, budget *int) (string, error) {
	rc, err := f.Open()
	if err != nil {
		return "", err
	}
	defer rc.Close()
	limit := min(maxPartBytes, *budget)
	lr := &io.LimitedReader{R: rc, N: int64(limit) + 1}
	dec := xml.NewDecoder(lr)
	var b strings.Builder
	skip := 0 // depth inside an element whose text is left out
	inText := false
	for {
		tok, err := dec.Token()
		if lr.N <= 0 {
			return "", errBomb
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 {
				skip++
				continue
			}
			switch t.Name.Local {
			case "del", "instrText", "Fallback", "delText":
				skip = 1
			case "t":
				inText = true
			case "tab":
				b.WriteByte('\t')
			case "br", "cr":
				b.WriteByte('\n')
			}
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				b.WriteByte('\n')
			case "tc":
				// A cell's paragraph ended with a newline: cells of a row
				// are separated by a tab instead.
				s := strings.TrimRight(b.String(), "\n")
				b.Reset()
				b.WriteString(s)
				b.WriteByte('\t')
			case "tr":
				s := strings.TrimRight(b.String(), "\t")
				b.Reset()
				b.WriteString(s)
				b.WriteByte('\n')
			}
		case xml.CharData:
			if inText && skip == 0 {
				b.Write(t)
			}
		}
	}
	*budget -= limit - int(lr.N) + 1
	return b.String(), nil
}
