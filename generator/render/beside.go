package render

import (
	"bufio"
	"encoding/gob"
	"io"
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

// isThisProgram says prog is this program's hash (ProgramHash).
func isThisProgram(prog string) bool {
	this, err := ProgramHash()
	return err == nil && this == prog
}

// writeBeside writes the file name beside outDir, encoded by encode as
// it is written: whole or not at all (a rename).
func writeBeside(outDir, name string, encode func(enc *gob.Encoder, w io.Writer, prog string) error) error {
	prog, err := ProgramHash()
	if err != nil {
		return err
	}
	tmp := BesidePath(outDir, name) + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = encode(gob.NewEncoder(w), w, prog)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, BesidePath(outDir, name))
}

// WriteBesideStream writes, as the file name beside outDir (whole or
// not at all), this program's hash (a gob message) and then the bytes
// data writes, which need not be held whole anywhere.
func WriteBesideStream(outDir, name string, data io.WriterTo) error {
	return writeBeside(outDir, name, func(enc *gob.Encoder, w io.Writer, prog string) error {
		if err := enc.Encode(besideFile[int]{Program: prog}); err != nil {
			return err
		}
		_, err := data.WriteTo(w)
		return err
	})
}

// ReadBesideStream reads a file WriteBesideStream wrote, its data by
// read: ok says this program wrote it (another program's stream is not
// read) and read took it.
func ReadBesideStream[T any](outDir, name string, read func(io.Reader) (T, error)) (data T, ok bool) {
	f, err := os.Open(BesidePath(outDir, name))
	if err != nil {
		return data, false
	}
	defer f.Close()
	// (a reader that reads bytes: gob reads no further than its message)
	r := bufio.NewReaderSize(f, 1<<20)
	var head besideFile[int]
	if gob.NewDecoder(r).Decode(&head) != nil || !isThisProgram(head.Program) {
		return data, false
	}
	data, err = read(r)
	return data, err == nil
}
