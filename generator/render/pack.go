package render

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"
)

// Pack is one file on disk holding many small files one after the other,
// each found by its name. A build's runs read the circulars' texts from
// one: at 100,000 circulars, creating a file for each costs the kernel
// more than rendering it, and holding them in memory would take gigabytes.
type Pack struct {
	mu   sync.Mutex
	f    *os.File
	size int64
	at   map[string]span // by name
}

type span struct{ off, n int64 }

func CreatePack(path string) (*Pack, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &Pack{f: f, at: map[string]span{}}, nil
}

// Add appends data as the file name (a name added again is replaced).
func (p *Pack) Add(name string, data []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.f.WriteAt(data, p.size); err != nil {
		return err
	}
	p.at[name] = span{p.size, int64(len(data))}
	p.size += int64(len(data))
	return nil
}

// AddAll appends each of data as the file of the same place in names,
// in writes of about a megabyte rather than one each.
func (p *Pack) AddAll(names []string, data [][]byte) error {
	if len(names) != len(data) {
		return fmt.Errorf("pack: %d names for %d files", len(names), len(data))
	}
	spans, err := p.appendAll(data)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, s := range spans {
		p.at[names[i]] = s
	}
	return nil
}

// appendAll appends data without names, in writes of about a megabyte,
// and says where each is: one after the other, in data's order.
func (p *Pack) appendAll(data [][]byte) ([]span, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	spans := make([]span, len(data))
	buf := make([]byte, 0, 1<<20)
	flush := func() error {
		_, err := p.f.WriteAt(buf, p.size-int64(len(buf)))
		buf = buf[:0]
		return err
	}
	for i, d := range data {
		if len(buf)+len(d) > cap(buf) && len(buf) > 0 {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		buf = append(buf, d...)
		spans[i] = span{p.size, int64(len(d))}
		p.size += int64(len(d))
	}
	return spans, flush()
}

// readSpan reads the bytes at s.
func (p *Pack) readSpan(s span) ([]byte, error) {
	data := make([]byte, s.n)
	if _, err := p.f.ReadAt(data, s.off); err != nil {
		return nil, err
	}
	return data, nil
}

// find says where the file name is.
func (p *Pack) find(name string) (span, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.at[name]
	return s, ok
}

// Has says the pack holds the file name.
func (p *Pack) Has(name string) bool {
	_, ok := p.find(name)
	return ok
}

// Read returns the bytes of the file name.
func (p *Pack) Read(name string) ([]byte, error) { return p.AppendTo(nil, name) }

// AppendTo appends the bytes of the file name to out, read into its
// room (grown as needed) rather than a slice of their own.
func (p *Pack) AppendTo(out []byte, name string) ([]byte, error) {
	s, ok := p.find(name)
	if !ok {
		return out, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	at := len(out)
	out = slices.Grow(out, int(s.n))[:at+int(s.n)]
	if _, err := p.f.ReadAt(out[at:], s.off); err != nil {
		return out[:at], err
	}
	return out, nil
}

func (p *Pack) Close() error { return p.f.Close() }

// packFs is fs with the files under the folder dir (an absolute path)
// read from p: read-only, as the templates' readFile reads them.
type packFs struct {
	afero.Fs
	dir string
	p   *Pack
}

// in returns name's name in the pack, if it is under the pack's folder.
func (f packFs) in(name string) (string, bool) {
	rest, ok := strings.CutPrefix(filepath.Clean(name), f.dir+string(filepath.Separator))
	return filepath.ToSlash(rest), ok
}

func (f packFs) Open(name string) (afero.File, error) {
	rest, ok := f.in(name)
	if !ok {
		return f.Fs.Open(name)
	}
	s, ok := f.p.find(rest)
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &packedFile{SectionReader: io.NewSectionReader(f.p.f, s.off, s.n), name: name, info: fileInfo{name: filepath.Base(name), size: s.n}}, nil
}

func (f packFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if _, ok := f.in(name); ok {
		if flag != os.O_RDONLY {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return f.Open(name)
	}
	return f.Fs.OpenFile(name, flag, perm)
}

func (f packFs) Stat(name string) (os.FileInfo, error) {
	if fi, ok, err := f.stat(name); ok {
		return fi, err
	}
	return f.Fs.Stat(name)
}

// LstatIfPossible is Stat for the pack and its folder: Hugo looks for
// symbolic links in the folders above each file it reads, and they have
// none. (Without it, each text read cost a system call for its folder.)
func (f packFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if fi, ok, err := f.stat(name); ok {
		return fi, false, err
	}
	if l, ok := f.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := f.Fs.Stat(name)
	return fi, false, err
}

// stat describes name when it is the pack's folder or under it (ok).
func (f packFs) stat(name string) (fi os.FileInfo, ok bool, err error) {
	if filepath.Clean(name) == f.dir {
		return fileInfo{name: filepath.Base(name), dir: true}, true, nil
	}
	rest, ok := f.in(name)
	if !ok {
		return nil, false, nil
	}
	s, found := f.p.find(rest)
	if !found {
		return nil, true, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return fileInfo{name: filepath.Base(name), size: s.n}, true, nil
}

// packedFile is a file of a pack opened: read from its place in the
// pack's file, into the reader's own buffer (Hugo's readFile reads it
// whole), not into one of its own first.
type packedFile struct {
	*io.SectionReader
	name string
	info fileInfo
}

var _ afero.File = (*packedFile)(nil)

var errReadOnly = errors.New("a file of a pack is read only")

func (f *packedFile) Name() string                       { return f.name }
func (f *packedFile) Stat() (os.FileInfo, error)         { return f.info, nil }
func (f *packedFile) Close() error                       { return nil }
func (f *packedFile) Sync() error                        { return nil }
func (f *packedFile) Readdir(int) ([]os.FileInfo, error) { return nil, errReadOnly }
func (f *packedFile) Readdirnames(int) ([]string, error) { return nil, errReadOnly }
func (f *packedFile) Truncate(int64) error               { return errReadOnly }
func (f *packedFile) Write([]byte) (int, error)          { return 0, errReadOnly }
func (f *packedFile) WriteAt([]byte, int64) (int, error) { return 0, errReadOnly }
func (f *packedFile) WriteString(string) (int, error)    { return 0, errReadOnly }

// fileInfo describes a file the build holds itself (a pack's, or a page
// being published: publishedFile), or a pack's folder.
type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (i fileInfo) Name() string { return i.name }
func (i fileInfo) Size() int64  { return i.size }
func (i fileInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.dir }
func (i fileInfo) Sys() any           { return nil }
