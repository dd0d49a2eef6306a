package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// HashDir adds every file under dir, by path, size and hash, in lexical
// order.
func HashDir(h hash.Hash, dir string) error { return HashFiles(h, dir, nil) }

// HashFiles is HashDir with the record of the files' hashes (nil: none):
// a file whose stamp is the recorded one is not read again (Record).
func HashFiles(h hash.Hash, dir string, rec *Record) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		sum, err := rec.sum(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%x\n", filepath.ToSlash(rel), sum.size, sum.sha)
		return nil
	})
}

// HashNamed adds the files of dir named (slash-separated, relative to
// it), in that order, as HashFiles does.
func HashNamed(h hash.Hash, dir string, names []string, rec *Record) error {
	for _, rel := range names {
		sum, err := rec.sum(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%x\n", rel, sum.size, sum.sha)
	}
	return nil
}

// fileHash is a file's size and SHA-256.
type fileHash struct {
	size int64
	sha  [sha256.Size]byte
}

func hashFile(path string) (fileHash, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileHash{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fileHash{}, err
	}
	out := fileHash{size: n}
	h.Sum(out.sha[:0])
	return out, nil
}

// ProgramHash is the hash of the running executable, read once.
var ProgramHash = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
})
