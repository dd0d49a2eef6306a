// Package mailtest helps tests of e-mails: golden files of what they
// render, and a message's bytes without what changes from one build of
// it to the next.
package mailtest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the e-mails' testdata/*.golden from this code")

// Golden compares got with testdata/name, or rewrites the file when the
// test runs with -update (after a deliberate change).
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range min(len(g), len(w)) {
		if !bytes.Equal(g[i], w[i]) {
			t.Errorf("%s differs at line %d (go test -update rewrites it after a deliberate change):\n got %q\nwant %q", path, i+1, g[i], w[i])
			return
		}
	}
	t.Errorf("%s: %d lines, want %d (go test -update rewrites it after a deliberate change)", path, len(g), len(w))
}

var boundary = regexp.MustCompile(`boundary=([0-9a-zA-Z]+)`)

// Stable is a whole message as it is written, less what changes each
// time it is built: its multipart boundary is written BOUNDARY and its
// header fields are sorted (go-mail writes some in map order).
func Stable(t testing.TB, msg []byte) []byte {
	t.Helper()
	m := boundary.FindSubmatch(msg)
	if m == nil {
		t.Fatalf("no multipart boundary in\n%s", msg)
	}
	msg = bytes.ReplaceAll(msg, m[1], []byte("BOUNDARY"))
	head, body, ok := bytes.Cut(msg, []byte("\r\n\r\n"))
	if !ok {
		t.Fatalf("no end of the header in\n%s", msg)
	}
	var fields [][]byte // each with its continuation lines
	for line := range bytes.SplitSeq(head, []byte("\r\n")) {
		if len(fields) > 0 && (line[0] == ' ' || line[0] == '\t') {
			fields[len(fields)-1] = append(append(fields[len(fields)-1], "\r\n"...), line...)
			continue
		}
		fields = append(fields, slices.Clone(line))
	}
	slices.SortStableFunc(fields, bytes.Compare)
	return slices.Concat(bytes.Join(fields, []byte("\r\n")), []byte("\r\n\r\n"), body)
}
