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
// the same inputs differently).
func inputsHash(opts Options) (string, error) {
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
	for _, d := range []string{opts.ContentDir, opts.TemplatesDir, opts.AssetsDir} {
		fmt.Fprintf(h, "dir %s\n", d)
		if err := hashDir(h, d); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashDir adds every file under dir, by path and bytes, in lexical order.
func hashDir(h hash.Hash, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), st.Size())
		_, err = io.Copy(h, f)
		return err
	})
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
