package extract

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"
)

var (
	pdfMagic  = []byte("%PDF-")
	ole2Magic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	zipMagic  = []byte("PK\x03\x04")
)

// Detect reads a document's kind from its content, never its name: a
// PDF has "%PDF-" in its first kilobyte, a .doc is an OLE2 compound file,
// a .docx is a zip holding word/document.xml, and text is what decodes
// as text without control bytes. What a browser saves when a download
// fails (an HTML page), images, archives and programs are refused by
// name, against what the upload claimed to be (claimed, "" if nothing):
// "This file is an HTML page, not a PDF."; HTML is never read as text,
// nor is text that claimed to be a PDF.
func Detect(data []byte, claimed Kind) (Kind, error) {
	if len(data) == 0 {
		return "", refuse(Empty, nil, "The file is empty.")
	}
	if found := disguise(data); found != "" {
		advice := ""
		if found == foundHTML {
			advice = "A browser saves a web page like this when a download fails: download the document again from its source."
		}
		return "", misnamed(found, claimed, advice)
	}
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.Contains(head, pdfMagic):
		return PDF, nil
	case bytes.HasPrefix(data, ole2Magic):
		return DOC, nil
	case bytes.HasPrefix(data, zipMagic):
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return "", refuse(Damaged, err, "The file looks like a Word document (.docx) but it is damaged.")
		}
		for _, f := range zr.File {
			if f.Name == "word/document.xml" {
				return DOCX, nil
			}
		}
		return "", refuse(Unsupported, nil, "This file is a ZIP archive, not %s. Upload a PDF, Word (.docx or .doc) or text file.", claimName(cmp.Or(claimed, DOCX)))
	case looksLikeText(data):
		if claimed == PDF {
			// Read as text, it would pass for the PDF's content.
			return "", misnamed("plain text", claimed, "Upload it as a .txt file, or paste its text.")
		}
		return TXT, nil
	}
	return "", refuse(Unsupported, nil, "This file type is not supported. Upload a PDF, Word (.docx or .doc) or text file.")
}

// misnamed refuses a file that is found, not what it claimed to be,
// saying what to do (advice, "" for nothing more).
func misnamed(found string, claimed Kind, advice string) *Error {
	msg := fmt.Sprintf("This file is %s, not %s.", found, claimName(claimed))
	if advice != "" {
		msg += " " + advice
	}
	return refuse(Unsupported, nil, "%s", msg)
}

const foundHTML = "an HTML page"

// disguise names what data is when it is a kind of file that is never a
// document (a web page, an image, a program), or "".
func disguise(data []byte) string {
	head := data[:min(len(data), 1024)]
	if isPE(data) {
		return "a Windows program (executable)"
	}
	for _, m := range []struct {
		magic []byte
		what  string
	}{
		{[]byte("\x7fELF"), "a Linux program (executable)"},
		{[]byte{0xCF, 0xFA, 0xED, 0xFE}, "a macOS program (executable)"},
		{[]byte{0xCE, 0xFA, 0xED, 0xFE}, "a macOS program (executable)"},
		{[]byte{0xCA, 0xFE, 0xBA, 0xBE}, "a program (executable)"},
		{[]byte("II*\x00"), "a TIFF image"},
		{[]byte("MM\x00*"), "a TIFF image"},
		{[]byte("\x00\x00\x00\x0cjP  "), "a JPEG 2000 image"},
	} {
		if bytes.HasPrefix(data, m.magic) {
			return m.what
		}
	}
	switch ct := http.DetectContentType(head); {
	case strings.HasPrefix(ct, "text/html"):
		return foundHTML
	case strings.HasPrefix(ct, "text/xml") && bytes.Contains(bytes.ToLower(head), []byte("<html")):
		return foundHTML // XHTML
	case ct == "image/x-icon":
		return "an icon image"
	case strings.HasPrefix(ct, "image/"):
		return "a " + strings.ToUpper(strings.TrimPrefix(ct, "image/")) + " image"
	case ct == "application/x-gzip" || ct == "application/x-rar-compressed" || ct == "application/x-7z-compressed":
		return "a compressed archive"
	}
	return ""
}

// isPE: "MZ", and where its header points, "PE\0\0" (text may begin
// with "MZ").
func isPE(data []byte) bool {
	if len(data) < 0x40 || !bytes.HasPrefix(data, []byte("MZ")) {
		return false
	}
	at := int(binary.LittleEndian.Uint32(data[0x3C:]))
	return at >= 0x40 && at+4 <= len(data) && bytes.Equal(data[at:at+4], []byte("PE\x00\x00"))
}

// claimName says what an upload claimed to be, for a refusal.
func claimName(k Kind) string {
	switch k {
	case PDF:
		return "a PDF"
	case DOCX:
		return "a Word document (.docx)"
	case DOC:
		return "a Word document (.doc)"
	case TXT:
		return "a text file"
	}
	return "a PDF, Word or text document"
}

// Claimed is the kind an upload says it is: by its file name's
// extension, else by its declared media type; "" when neither says.
// Only refusals use it: the content decides what is read.
func Claimed(name, mediaType string) Kind {
	switch strings.ToLower(path.Ext(name)) {
	case ".pdf":
		return PDF
	case ".docx":
		return DOCX
	case ".doc":
		return DOC
	case ".txt", ".text":
		return TXT
	}
	mt, _, _ := mime.ParseMediaType(mediaType)
	switch mt {
	case "application/pdf":
		return PDF
	case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
		return DOCX
	case "application/msword":
		return DOC
	case "text/plain":
		return TXT
	}
	return ""
}

// looksLikeText: a byte-order mark, or no NUL and few control bytes in
// the first 8 KB (UTF-8 or a single-byte code page).
func looksLikeText(data []byte) bool {
	if _, _, ok := bomEncoding(data); ok {
		return true
	}
	sample := data[:min(len(data), 8192)]
	ctrl := 0
	for _, b := range sample {
		switch {
		case b == 0:
			return false
		case b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f':
			ctrl++
		}
	}
	if ctrl*100 > len(sample) {
		return false
	}
	// A cut-off multi-byte rune at the end of the sample is still text.
	return utf8.Valid(sample) || ctrl == 0
}
