package api

import (
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"regpulse/internal/logtest"
)

// TestStreamDownload: a whole list as a file; a failure before the first
// row is a JSON error, one after it cuts the file short and is logged.
func TestStreamDownload(t *testing.T) {
	cols := []column[string]{{"name", func(s string) string { return s }}}
	rowsOf := func(vs []string, err error) func(func(string) error) error {
		return func(fn func(string) error) error {
			for _, v := range vs {
				if err := fn(v); err != nil {
					return err
				}
			}
			return err
		}
	}
	failed := errors.New("store failed")
	cases := []struct {
		name         string
		private      bool
		each         func(func(string) error) error
		status       int
		cacheControl string
		body, logged string
	}{
		{"Rows", false, rowsOf([]string{"a", "=b"}, nil), 200, "no-cache", "name\r\na\r\n'=b\r\n", ""},
		{"NoRows", false, rowsOf(nil, nil), 200, "no-cache", "name\r\n", ""},
		{"Private", true, rowsOf([]string{"a"}, nil), 200, "no-store", "name\r\na\r\n", ""},
		{"FailsFirst", false, rowsOf(nil, failed), 500, "no-store", `{"error":"internal server error"}` + "\n", "api: internal error"},
		// Cut short: what the CSV writer still buffered never leaves.
		{"FailsMidStream", false, rowsOf([]string{"a"}, failed), 200, "no-cache", "", "api: export cut short"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			logs := &logtest.Buffer{}
			h := &Handler{log: slog.New(slog.NewTextHandler(logs, nil))}
			rec := httptest.NewRecorder()
			d := download[string]{name: "x.csv", contentType: csvType, private: tc.private, start: csvRows(cols)}
			streamDownload(h, rec, httptest.NewRequest("GET", "/x.csv", nil), d, tc.each)
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d", rec.Code, tc.status)
			}
			if got := rec.Header().Get("Cache-Control"); got != tc.cacheControl {
				t.Errorf("Cache-Control %q, want %q", got, tc.cacheControl)
			}
			if disposition := rec.Header().Get("Content-Disposition"); (disposition != "") != (tc.status == http.StatusOK) {
				t.Errorf("Content-Disposition %q with status %d", disposition, rec.Code)
			}
			if got := rec.Body.String(); got != tc.body {
				t.Errorf("body %q, want %q", got, tc.body)
			}
			if got := logs.String(); (tc.logged == "") != (got == "") || !strings.Contains(got, tc.logged) {
				t.Errorf("logged %q, want %q", got, tc.logged)
			}
		})
	}
}

func TestSpreadsheetSafe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"},
		{"+91 22", "'+91 22"},
		{"-1", "'-1"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"a=b", "a=b"},
		{"RBI/2025-26/41", "RBI/2025-26/41"},
	} {
		if got := spreadsheetSafe(tc.in); got != tc.want {
			t.Errorf("spreadsheetSafe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
