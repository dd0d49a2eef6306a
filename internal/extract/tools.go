package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Tools are the paths of the external programs used; "" means missing.
type Tools struct {
	PDFToText string // poppler-utils: a PDF's text layer
	PDFToPPM  string // poppler-utils: a page rendered for OCR
	Tesseract string // tesseract-ocr (+ eng, hin): OCR
	Antiword  string // .doc
	Catdoc    string // .doc, where antiword is missing
	OCRLangs  string // tesseract's languages: "eng+hin", or "eng" without Hindi
	// Unshare runs a tool without network ("unshare -rn"), where the
	// kernel lets this user make a namespace; "" runs it directly.
	Unshare string
}

// FindTools looks the programs up on PATH.
func FindTools() Tools {
	look := func(name string) string {
		p, err := exec.LookPath(name)
		if err != nil {
			return ""
		}
		return p
	}
	t := Tools{PDFToText: look("pdftotext"), PDFToPPM: look("pdftoppm"), Tesseract: look("tesseract"),
		Antiword: look("antiword"), Catdoc: look("catdoc")}
	if u := look("unshare"); u != "" && exec.Command(u, "-rn", "true").Run() == nil {
		t.Unshare = u
	}
	switch {
	case t.Tesseract == "" || !tesseractHas(t.Tesseract, "eng"):
		t.Tesseract = ""
	case tesseractHas(t.Tesseract, "hin"):
		t.OCRLangs = "eng+hin"
	default:
		t.OCRLangs = "eng"
	}
	return t
}

func tesseractHas(path, lang string) bool {
	out, err := exec.Command(path, "--list-langs").CombinedOutput()
	return err == nil && bytes.Contains(out, []byte("\n"+lang+"\n"))
}

// Degraded says, one line each, which formats work less well for want of
// a tool (empty when all are there), for the server's log at start.
func (t Tools) Degraded() []string {
	var d []string
	if t.PDFToText == "" {
		d = append(d, "PDF: poppler's pdftotext missing (apt-get install poppler-utils): the pure-Go reader is used, weaker on Hindi, two-column pages and encrypted files")
	}
	if t.PDFToPPM == "" || t.Tesseract == "" {
		d = append(d, "scanned PDF pages: no OCR (apt-get install poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-hin): they are reported as image-based")
	} else if t.OCRLangs == "eng" {
		d = append(d, "scanned PDF pages: OCR in English only (apt-get install tesseract-ocr-hin for Hindi)")
	}
	if t.Antiword == "" && t.Catdoc == "" {
		d = append(d, ".doc: antiword and catdoc missing (apt-get install antiword catdoc): .doc files are refused")
	}
	return d
}

// Installed is an Extractor using the tools installed here, with the
// default limits. It logs which formats work less well for want of a
// tool, so the server starts without any of them and says so.
func Installed(log *slog.Logger) *Extractor {
	tools := FindTools()
	for _, d := range tools.Degraded() {
		log.Warn("documents: degraded", "what", d)
	}
	if tools.Unshare == "" {
		log.Info("documents: tools run with network access (this kernel gives no network namespace)")
	}
	return New(tools, Config{})
}

// limits of one subprocess run.
type limits struct {
	timeout  time.Duration
	memoryMB int // address space
	maxOut   int // bytes of stdout kept; more is an error
	dir      string
	env      []string
}

// errOutputTooLarge: a tool wrote more than limits.maxOut.
var errOutputTooLarge = errors.New("tool output over its cap")

// run runs a tool under a time limit, an address-space limit (through
// sh's ulimit, so the kernel enforces it), without network where it can,
// with a minimal environment, and kills its whole process group when the
// time is up. It returns stdout.
func (t Tools) run(ctx context.Context, lim limits, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, lim.timeout)
	defer cancel()
	argv := []string{"-c", `ulimit -v "$1" && shift && exec "$@"`, "sh", strconv.Itoa(lim.memoryMB * 1024)}
	if t.Unshare != "" {
		argv = append(argv, t.Unshare, "-rn", "--")
	}
	argv = append(argv, name)
	argv = append(argv, args...)
	cmd := exec.CommandContext(ctx, "/bin/sh", argv...)
	cmd.Dir = lim.dir
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=" + lim.dir}, lim.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	out := &capWriter{max: lim.maxOut}
	var stderr capWriter
	stderr.max = 4096
	cmd.Stdout, cmd.Stderr = out, &stderr
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, refuse(TooSlow, ctx.Err(), "The document took too long to process.")
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case out.over:
		return nil, errOutputTooLarge
	case err != nil:
		return nil, fmt.Errorf("%s: %w: %s", name, err, strings.TrimSpace(stderr.buf.String()))
	}
	return out.buf.Bytes(), nil
}

// capWriter keeps up to max bytes and notes whether more came.
type capWriter struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); len(p) > room {
		w.buf.Write(p[:max(room, 0)])
		w.over = true
		return 0, errOutputTooLarge // stops the copy; the tool gets SIGPIPE
	}
	return w.buf.Write(p)
}

// tempDir is a private folder for one document's files.
func tempDir() (string, error) {
	return os.MkdirTemp("", "regpulse-extract-")
}
