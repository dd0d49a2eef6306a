package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// bomEncoding reads a byte-order mark: the encoding, its name and the
// mark's length.
func bomEncoding(data []byte) (encoding.Encoding, string, bool) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return unicode.UTF8BOM, "utf-8", true
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "utf-16le", true
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM), "utf-16be", true
	}
	return nil, "", false
}

// readText decodes a text file to UTF-8: by its byte-order mark, else as
// UTF-8 when it is valid UTF-8, else as Windows-1252 (what Windows
// editors write when they do not write UTF-8).
func readText(data []byte) (Result, error) {
	var text, name string
	if enc, n, ok := bomEncoding(data); ok {
		b, err := enc.NewDecoder().Bytes(data)
		if err != nil {
			return Result{}, refuse(Damaged, err, "This text file's encoding could not be read.")
		}
		text, name = string(b), n
	} else if utf8.Valid(data) {
		text, name = string(data), "utf-8"
	} else {
		b, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return Result{}, refuse(Damaged, err, "This text file's encoding could not be read.")
		}
		text, name = string(b), "windows-1252"
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	return Result{Text: text, Method: MethodText, Encoding: name}, nil
}
