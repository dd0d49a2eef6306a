package render

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
)

// BesidePath is where the file name of outDir's build is kept: beside
// the folder, hidden, named after it (public/ has .public.NAME), so that
// a CDN deploy of the folder never uploads it.
func BesidePath(outDir, name string) string {
	return filepath.Join(filepath.Dir(outDir), "."+filepath.Base(outDir)+"."+name)
}

// besideFile is a file kept beside an output as written: what it holds
// may hold for the program that wrote it only (ProgramHash).
type besideFile[T any] struct {
	Program string
	Data    T
}

// ReadBeside reads the file name beside outDir, gob-encoded by
// WriteBeside; ok says there is one that could be read, and ours that
// this program wrote it.
func ReadBeside[T any](outDir, name string) (data T, ok, ours bool) {
	raw, err := os.ReadFile(BesidePath(outDir, name))
	if err != nil {
		return data, false, false
	}
	var f besideFile[T]
	if gob.NewDecoder(bytes.NewReader(raw)).Decode(&f) != nil {
		return data, false, false
	}
	prog, err := ProgramHash()
	return f.Data, true, err == nil && prog == f.Program
}

// WriteBeside writes data, gob-encoded with this program's hash, as the
// file name beside outDir: whole or not at all (a rename).
func WriteBeside[T any](outDir, name string, data T) error {
	prog, err := ProgramHash()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(besideFile[T]{Program: prog, Data: data}); err != nil {
		return err
	}
	tmp := BesidePath(outDir, name) + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, BesidePath(outDir, name))
}
