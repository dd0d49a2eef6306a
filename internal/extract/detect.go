package extract

import (
	"archive/zip"
	"bytes"
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
// as text without control bytes.
func Detect(data []byte) (Kind, error) {
	if len(data) == 0 {
		return "", refuse(Empty, nil, "The file is empty.")
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
		return "", refuse(Unsupported, nil, "This zip file is not a Word document. Upload a PDF, Word (.docx or .doc) or text file.")
	case looksLikeText(data):
		return TXT, nil
	}
	return "", refuse(Unsupported, nil, "This file type is not supported. Upload a PDF, Word (.docx or .doc) or text file.")
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
