package extract

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// readDOC runs antiword (or catdoc) on a Word 97-2003 file. Detect has
// checked the OLE2 header: catdoc would otherwise "extract" any file.
func (e *Extractor) readDOC(ctx context.Context, data []byte) (Result, error) {
	if !bytes.HasPrefix(data, ole2Magic) {
		return Result{}, refuse(Unsupported, nil, "This is not a Word (.doc) file.")
	}
	var name, method string
	var args []string
	switch {
	case e.tools.Antiword != "":
		// -m UTF-8.txt: without it Hindi and ₹ come out as '?'.
		name, method, args = e.tools.Antiword, MethodAntiword, []string{"-m", "UTF-8.txt", "-w", "0"}
	case e.tools.Catdoc != "":
		name, method, args = e.tools.Catdoc, MethodCatdoc, []string{"-d", "utf-8", "-w"}
	default:
		return Result{}, refuse(Unsupported, nil, "Word 97-2003 (.doc) files cannot be read on this server. Save it as .docx or PDF and upload it again.")
	}
	dir, err := tempDir()
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.doc")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return Result{}, err
	}
	out, err := e.tools.run(ctx, limits{timeout: e.cfg.TextTimeout, memoryMB: 512, maxOut: 32 << 20, dir: dir},
		name, append(args, in)...)
	if err != nil {
		if _, ok := err.(*Error); ok {
			return Result{}, err
		}
		return Result{}, refuse(Damaged, err, "This Word (.doc) file is damaged, protected or not a document, and cannot be read.")
	}
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	return Result{Text: string(out), Method: method}, nil
}
