package api

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// The downloads (the circulars' CSV and JSON, the obligations' CSV, a
// user's register): a whole list as a file, streamed row by row, so its
// size is not bounded by memory.

// download is one file: its name, its type, whether it is a user's own
// (Cache-Control: no-store; else no-cache), and how its rows of T are
// written.
type download[T any] struct {
	name, contentType string
	private           bool
	start             func(io.Writer) rows[T]
}

// rows writes a file's rows: its constructor the start, row each one,
// end what follows the last.
type rows[T any] interface {
	row(v T) error
	end() error
}

// streamDownload serves d with the rows each calls its function with, in
// order (each stops at that function's first error). The headers go out
// with the first row (or at the end): a failure before it is a JSON
// error; one after it can only be logged and the body cut short.
func streamDownload[T any](h *Handler, w http.ResponseWriter, r *http.Request, d download[T], each func(func(T) error) error) {
	var out rows[T]
	begin := func() {
		hdr := w.Header()
		hdr.Set("Content-Type", d.contentType)
		hdr.Set("Content-Disposition", `attachment; filename="`+d.name+`"`)
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Cache-Control", "no-cache")
		if d.private {
			hdr.Set("Cache-Control", "no-store")
		}
		w.WriteHeader(http.StatusOK)
		out = d.start(w)
	}
	err := each(func(v T) error {
		if out == nil {
			begin()
		}
		return out.row(v)
	})
	switch {
	case err != nil && out == nil:
		h.writeError(w, r, err)
		return
	case err != nil:
		if r.Context().Err() == nil {
			h.log.Error("api: export cut short", "path", r.URL.Path, "err", err)
		}
		return
	case out == nil:
		begin()
	}
	if err := out.end(); err != nil && r.Context().Err() == nil {
		h.log.Warn("api: export", "path", r.URL.Path, "err", err)
	}
}

// csvType is the downloads' CSV media type.
const csvType = "text/csv; charset=utf-8; header=present"

// column is a CSV column: its name and each row's cell.
type column[T any] struct {
	name string
	cell func(T) string
}

// csvRows writes RFC 4180 CSV (CRLF line ends, quoted where needed),
// UTF-8, a header row then a row per value, every cell spreadsheet-safe.
func csvRows[T any](cols []column[T]) func(io.Writer) rows[T] {
	return func(w io.Writer) rows[T] {
		cw := csv.NewWriter(w)
		cw.UseCRLF = true
		header := make([]string, len(cols))
		for i, c := range cols {
			header[i] = c.name
		}
		cw.Write(header) // errors are sticky: end reports them
		return &csvFile[T]{w: cw, cols: cols}
	}
}

type csvFile[T any] struct {
	w    *csv.Writer
	cols []column[T]
}

func (f *csvFile[T]) row(v T) error {
	rec := make([]string, len(f.cols))
	for i, c := range f.cols {
		rec[i] = spreadsheetSafe(c.cell(v))
	}
	return f.w.Write(rec)
}

func (f *csvFile[T]) end() error {
	f.w.Flush()
	return f.w.Error()
}

// spreadsheetSafe defuses a cell a spreadsheet would run as a formula
// (OWASP's CSV injection advice): a cell starting with = + - @, a tab or a
// carriage return gets a leading apostrophe, which spreadsheets show as
// text and do not display.
func spreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// jsonRows writes a JSON array of the values, one element at a time.
func jsonRows[T any](w io.Writer) rows[T] {
	_, err := w.Write([]byte("["))
	return &jsonFile[T]{w: w, err: err}
}

type jsonFile[T any] struct {
	w     io.Writer
	count int
	err   error
}

func (f *jsonFile[T]) row(v T) error {
	if f.err != nil {
		return f.err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if f.count > 0 {
		b = append([]byte(",\n"), b...)
	}
	f.count++
	_, f.err = f.w.Write(b)
	return f.err
}

func (f *jsonFile[T]) end() error {
	if f.err != nil {
		return f.err
	}
	_, err := f.w.Write([]byte("]\n"))
	return err
}
