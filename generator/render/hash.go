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

// HashFiles is HashDir with the sums of the files already read (nil:
// none): those are not read again.
func HashFiles(h hash.Hash, dir string, read *FileSums) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		sum, ok := read.get(rel)
		if !ok {
			if sum, err = hashFile(p); err != nil {
				return err
			}
		}
		fmt.Fprintf(h, "%s\x00%d\x00%x\n", rel, sum.size, sum.sha)
		return nil
	})
}

// HashNamed adds the files of dir named (slash-separated, relative to
// it), in that order, as HashFiles does.
func HashNamed(h hash.Hash, dir string, names []string) error {
	for _, rel := range names {
		sum, err := hashFile(filepath.Join(dir, filepath.FromSlash(rel)))
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

// FileSums are the hashes of files as something read them (the catalog's
// loader: catalog.WithRead), by slash-separated path; Add is safe to call
// from several goroutines.
type FileSums struct {
	mu   sync.Mutex
	sums map[string]fileHash
}

// NewFileSums is an empty set of sums.
func NewFileSums() *FileSums { return &FileSums{sums: map[string]fileHash{}} }

// Add records data as the file path's (catalog.WithRead's signature).
func (s *FileSums) Add(path string, data []byte) {
	sum := fileHash{size: int64(len(data)), sha: sha256.Sum256(data)}
	s.mu.Lock()
	s.sums[path] = sum
	s.mu.Unlock()
}

func (s *FileSums) get(path string) (fileHash, bool) {
	if s == nil {
		return fileHash{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sum, ok := s.sums[path]
	return sum, ok
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
