package extract

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTools_Run(t *testing.T) {
	tools := FindTools()
	dir := t.TempDir()
	t.Run("ErrTimeLimit", func(t *testing.T) {
		_, err := tools.run(t.Context(), limits{timeout: 200 * time.Millisecond, memoryMB: 64, maxOut: 100, dir: dir}, "/bin/sleep", "30")
		if !IsReason(err, TooSlow) {
			t.Fatalf("got %v; want TooSlow", err)
		}
	})
	t.Run("MemoryLimit", func(t *testing.T) {
		out, err := tools.run(t.Context(), limits{timeout: 5 * time.Second, memoryMB: 64, maxOut: 100, dir: dir}, "/bin/sh", "-c", "ulimit -v")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(out)); got != strconv.Itoa(64*1024) {
			t.Errorf("the tool's address-space limit is %s KB; want %d", got, 64*1024)
		}
	})
	t.Run("ErrOutputCap", func(t *testing.T) {
		_, err := tools.run(t.Context(), limits{timeout: 5 * time.Second, memoryMB: 64, maxOut: 1000, dir: dir}, "/usr/bin/yes")
		if err != errOutputTooLarge {
			t.Fatalf("got %v; want errOutputTooLarge", err)
		}
	})
	t.Run("NoNetwork", func(t *testing.T) {
		if tools.Unshare == "" {
			t.Skip("this kernel does not let this user make a network namespace")
		}
		out, err := tools.run(t.Context(), limits{timeout: 5 * time.Second, memoryMB: 64, maxOut: 1 << 16, dir: dir}, "/bin/cat", "/proc/self/net/dev")
		if err != nil {
			t.Fatal(err)
		}
		// Two header lines, then only the loopback interface.
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 3 || !strings.Contains(lines[2], "lo:") {
			t.Errorf("interfaces seen by the tool:\n%s", out)
		}
	})
	t.Run("CleanEnvironment", func(t *testing.T) {
		t.Setenv("REGPULSE_SECRET", "x")
		out, err := tools.run(t.Context(), limits{timeout: 5 * time.Second, memoryMB: 64, maxOut: 1 << 16, dir: dir}, "/usr/bin/env")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "REGPULSE_SECRET") {
			t.Errorf("the tool saw the server's environment:\n%s", out)
		}
	})
}

func TestTools_Degraded(t *testing.T) {
	all := Tools{PDFToText: "p", PDFToPPM: "p", Tesseract: "t", OCRLangs: "eng+hin", Antiword: "a"}
	engOnly := all
	engOnly.OCRLangs = "eng"
	tests := []struct {
		name  string
		tools Tools
		want  []string // the start of each line
	}{
		{"AllInstalled", all, nil},
		{"CatdocOnlyForDOC", Tools{PDFToText: "p", PDFToPPM: "p", Tesseract: "t", OCRLangs: "eng+hin", Catdoc: "c"}, nil},
		{"EnglishOCROnly", engOnly, []string{"scanned PDF pages: OCR in English only"}},
		{"NoneInstalled", Tools{}, []string{"PDF: poppler's pdftotext missing", "scanned PDF pages: no OCR", ".doc: antiword and catdoc missing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for i, line := range tc.tools.Degraded() {
				if i < len(tc.want) && strings.HasPrefix(line, tc.want[i]) {
					line = tc.want[i]
				}
				got = append(got, line)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
