package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/afero"
	"github.com/spf13/afero/mem"
)

// manifest lists what a build published, kept beside the output
// (manifestPath): on the next build only files whose bytes changed are
// written, and a build whose inputs are unchanged renders nothing.
type manifest struct {
	Inputs string             `json:"inputs"` // inputsHash of the build
	Files  map[string]fileSum `json:"files"`  // by slash-separated path under the output
	// Pages are the circulars' pages' keys (circularPageKeys), by path:
	// a page whose key is unchanged is not rendered again.
	Pages map[string]string `json:"pages,omitempty"`
}

type fileSum struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// manifestPath is beside outDir, not in it, so it is never served:
// public/ has .public.manifest.json.
func manifestPath(outDir string) string {
	return filepath.Join(filepath.Dir(outDir), "."+filepath.Base(outDir)+".manifest.json")
}

// readManifest returns the manifest of outDir's last build, or nil when
// there is none (or no outDir).
func readManifest(outDir string) *manifest {
	if _, err := os.Stat(outDir); err != nil {
		return nil
	}
	data, err := os.ReadFile(manifestPath(outDir))
	if err != nil {
		return nil
	}
	var m manifest
	if json.Unmarshal(data, &m) != nil || m.Files == nil {
		return nil
	}
	return &m
}

// complete reports whether outDir still has every file m lists, at its size.
func (m *manifest) complete(outDir string) bool {
	for name, sum := range m.Files {
		st, err := os.Stat(filepath.Join(outDir, filepath.FromSlash(name)))
		if err != nil || st.Size() != sum.Size {
			return false
		}
	}
	return true
}

// pages counts the HTML pages m lists.
func (m *manifest) pages() int {
	n := 0
	for name := range m.Files {
		if strings.HasSuffix(name, ".html") {
			n++
		}
	}
	return n
}

// publisher receives every file of a build (Hugo's, through fs, and the
// generator's own) and stages only those whose bytes the output does not
// already hold; commit moves them in by rename and removes what the new
// build no longer has. Nothing reaches the output before commit, so a
// failed build leaves it untouched.
type publisher struct {
	outDir, staging string
	old             *manifest // nil: no previous build to compare with

	mu       sync.Mutex
	files    map[string]fileSum
	changed  []string
	rendered atomic.Int64 // HTML pages Hugo published
}

func newPublisher(outDir, staging string) (*publisher, error) {
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return nil, err
	}
	return &publisher{outDir: outDir, staging: staging, old: readManifest(outDir), files: map[string]fileSum{}}, nil
}

// publish takes the file at name (slash-separated, under the output).
func (p *publisher) publish(name string, data []byte) error {
	name = strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(name)), "/")
	h := sha256.Sum256(data)
	sum := fileSum{SHA256: hex.EncodeToString(h[:]), Size: int64(len(data))}
	p.mu.Lock()
	p.files[name] = sum
	p.mu.Unlock()
	if p.old != nil && p.old.Files[name] == sum {
		if st, err := os.Stat(filepath.Join(p.outDir, filepath.FromSlash(name))); err == nil && st.Size() == sum.Size {
			return nil // the output holds these bytes already
		}
	}
	dst := filepath.Join(p.staging, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return err
	}
	p.mu.Lock()
	p.changed = append(p.changed, name)
	p.mu.Unlock()
	return nil
}

// keep takes the file at name as the output holds it from the last build,
// if it does (at the size that build recorded), without its bytes.
func (p *publisher) keep(name string) bool {
	sum, ok := p.old.Files[name]
	if !ok {
		return false
	}
	if st, err := os.Stat(filepath.Join(p.outDir, filepath.FromSlash(name))); err != nil || st.Size() != sum.Size {
		return false
	}
	p.mu.Lock()
	p.files[name] = sum
	p.mu.Unlock()
	return true
}

// publishDir publishes every file under dir, skipping the folders named in skip.
func (p *publisher) publishDir(dir, under string, skip ...string) error {
	return filepath.WalkDir(dir, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, d.Name()) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, f)
		return p.publish(path.Join(under, filepath.ToSlash(rel)), data)
	})
}

// commit puts the published files in place and records the manifest with
// inputs (none when inputs is ""). Without a previous manifest the staged folder holds every file
// and replaces the output as a whole (renamed in; any old tree removed
// after the swap). With one, only changed files are moved in, each by an
// atomic rename, and files the build no longer has are removed.
func (p *publisher) commit(inputs string, pages map[string]string) error {
	if p.old == nil {
		if err := swapDir(p.staging, p.outDir); err != nil {
			return err
		}
	} else {
		for _, name := range p.changed {
			dst := filepath.Join(p.outDir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := os.Rename(filepath.Join(p.staging, filepath.FromSlash(name)), dst); err != nil {
				return err
			}
		}
		for name := range p.old.Files {
			if _, ok := p.files[name]; ok {
				continue
			}
			f := filepath.Join(p.outDir, filepath.FromSlash(name))
			if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			// and the folders it leaves empty (Remove fails on any other)
			for d := filepath.Dir(f); d != p.outDir && strings.HasPrefix(d, p.outDir); d = filepath.Dir(d) {
				if os.Remove(d) != nil {
					break
				}
			}
		}
	}
	if inputs == "" {
		return nil
	}
	data, err := json.Marshal(manifest{Inputs: inputs, Files: p.files, Pages: pages})
	if err != nil {
		return err
	}
	tmp := manifestPath(p.outDir) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, manifestPath(p.outDir))
}

// publishFs is the folder Hugo publishes into: each file Hugo writes is
// kept in memory until closed, then handed to the publisher, so unchanged
// pages never touch the disk. Reads and anything else go to the staging
// folder.
type publishFs struct {
	afero.Fs
	p *publisher
}

func newPublishFs(p *publisher) publishFs {
	return publishFs{Fs: afero.NewBasePathFs(afero.NewOsFs(), p.staging), p: p}
}

func (f publishFs) Create(name string) (afero.File, error) {
	return &publishedFile{File: mem.NewFileHandle(mem.CreateFile(name)), p: f.p, name: name}, nil
}

func (f publishFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE) != 0 {
		return f.Create(name)
	}
	return f.Fs.OpenFile(name, flag, perm)
}

// Folders are made when a changed file is staged.
func (f publishFs) Mkdir(string, os.FileMode) error    { return nil }
func (f publishFs) MkdirAll(string, os.FileMode) error { return nil }

// publishedFile is an in-memory file published when closed.
type publishedFile struct {
	*mem.File
	p    *publisher
	name string
	once sync.Once
	err  error
}

func (f *publishedFile) Close() error {
	f.once.Do(func() {
		if _, err := f.File.Seek(0, io.SeekStart); err != nil {
			f.err = err
			return
		}
		// read in one piece, not grown from 512 bytes up (pages are large)
		st, err := f.File.Stat()
		if err != nil {
			f.err = err
			return
		}
		data := make([]byte, st.Size())
		if _, err := io.ReadFull(f.File, data); err != nil {
			f.err = err
			return
		}
		f.File.Close()
		if strings.HasSuffix(f.name, ".html") {
			f.p.rendered.Add(1)
		}
		f.err = f.p.publish(f.name, data)
	})
	return f.err
}
