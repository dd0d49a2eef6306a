package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// inputsHash is the hash of everything a build's output depends on: the
// content, templates and islands' assets, the options, the as-of date,
// the stored summaries and the program itself (a new generator may render
// the same inputs differently). content are the content's files as the
// catalog read them (nil: none; a file it did not read is read here).
func inputsHash(opts Options, content *fileSums) (string, error) {
	h := sha256.New()
	sums, err := json.Marshal(opts.Summaries) // maps marshal in key order
	if err != nil {
		return "", err
	}
	obs, err := json.Marshal(opts.Obligations)
	if err != nil {
		return "", err
	}
	prog, err := programHash()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "program %s\nbaseURL %q\nsupportEmail %q\nunpublished %t\nasOf %s\nactiveUsers %d\nsummaries %s\nobligations %s\n",
		prog, opts.BaseURL, opts.SupportEmail, opts.IncludeUnpublished, opts.Now().UTC().Format(time.DateOnly), opts.ActiveUsers, sums, obs)
	for _, d := range []struct {
		dir  string
		read *fileSums
	}{{opts.ContentDir, content}, {opts.TemplatesDir, nil}, {opts.AssetsDir, nil}} {
		fmt.Fprintf(h, "dir %s\n", d.dir)
		if err := hashFiles(h, d.dir, d.read); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashDir adds every file under dir, by path, size and hash, in lexical
// order.
func hashDir(h hash.Hash, dir string) error { return hashFiles(h, dir, nil) }

// hashFiles is hashDir with the sums of the files already read (nil:
// none): those are not read again.
func hashFiles(h hash.Hash, dir string, read *fileSums) error {
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

// fileSums are the hashes of files as something read them (the catalog's
// loader: catalog.WithRead), by slash-separated path; add is safe to call
// from several goroutines.
type fileSums struct {
	mu   sync.Mutex
	sums map[string]fileHash
}

func newFileSums() *fileSums { return &fileSums{sums: map[string]fileHash{}} }

func (s *fileSums) add(path string, data []byte) {
	sum := fileHash{size: int64(len(data)), sha: sha256.Sum256(data)}
	s.mu.Lock()
	s.sums[path] = sum
	s.mu.Unlock()
}

func (s *fileSums) get(path string) (fileHash, bool) {
	if s == nil {
		return fileHash{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sum, ok := s.sums[path]
	return sum, ok
}

// programHash is the hash of the running executable, read once.
var programHash = sync.OnceValues(func() (string, error) {
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
