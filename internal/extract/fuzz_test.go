package extract

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"

	"regpulse/internal/extract/extracttest"
)

// Fuzzing the entry points a stranger's bytes reach: whatever the input,
// the answer is a result or an *Error, never a panic or a hang. The seed
// corpus in testdata/fuzz is the fixtures' documents (rewritten by
// go test ./internal/extract -run TestFuzzSeeds -seeds); `make fuzz` runs
// each target for a set time. The PDF target uses the pure-Go readers,
// the code that runs inside this process.

var writeSeeds = flag.Bool("seeds", false, "rewrite the fuzz seed corpus in testdata/fuzz")

func seedDocs(t testing.TB) map[string][][]byte {
	multi := extracttest.PDF(t, extracttest.TextPage("Page one of a circular."), extracttest.TextPage("Page two of a circular."))
	return map[string][][]byte{
		"FuzzPDF": {multi, extracttest.EncryptPDF(t, multi, "", "owner"), extracttest.EncryptPDF(t, multi, "user", "owner"), multi[:len(multi)/2],
			extracttest.PDF(t, extracttest.Page{Lines: []extracttest.Line{{X: 72, Y: 700, Text: "हिंदी ₹", Unicode: true}}})},
		"FuzzDOCX": {extracttest.DOCX(t, extracttest.Para("Body")+`<w:tbl><w:tr><w:tc>`+extracttest.Para("a")+`</w:tc></w:tr></w:tbl>`, extracttest.Para("Header"), extracttest.Para("Footer"))},
		"FuzzText": {[]byte("<!DOCTYPE html><html><body>404</body></html>"), []byte("plain ₹ text\r\n"), []byte("\xFF\xFEa\x00b\x00"), []byte("Caf\xe9"), []byte("%PDF-1.4"), ole2Magic},
	}
}

func TestFuzzSeeds(t *testing.T) {
	if !*writeSeeds {
		t.Skip("run with -seeds to rewrite the corpus")
	}
	for target, docs := range seedDocs(t) {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, d := range docs {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(d)))
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// checkOutcome fails on anything but a valid result or an *Error.
func checkOutcome(t *testing.T, res Result, err error) {
	var e *Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("error that is not an *Error: %v", err)
	}
	if !utf8.ValidString(res.Text) {
		t.Fatalf("text is not UTF-8: %q", res.Text)
	}
}

func FuzzPDF(f *testing.F) {
	ex := New(Tools{}, Config{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > MaxUpload {
			return
		}
		done := make(chan struct{})
		var res Result
		var err error
		go func() {
			defer close(done)
			var d *Doc
			if d, err = ex.Open(t.Context(), data, ""); err == nil {
				res, err = d.Finish(t.Context(), nil)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("hang: no answer in 10 s")
		}
		checkOutcome(t, res, err)
	})
}

func FuzzDOCX(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := readDOCX(data)
		checkOutcome(t, res, err)
	})
}

func FuzzText(f *testing.F) {
	ex := New(Tools{}, Config{})
	f.Fuzz(func(t *testing.T, data []byte) {
		kind, err := Detect(data, "")
		if err != nil {
			checkOutcome(t, Result{}, err)
			return
		}
		if kind == TXT {
			res, err := ex.Extract(t.Context(), data)
			checkOutcome(t, res, err)
		}
	})
}
