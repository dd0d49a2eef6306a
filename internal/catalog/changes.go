package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"testing/fstest"
	"time"
)

// CheckChanges loads the content of fsys (labelled label in problems, as
// LoadFS) with changes laid over it, and returns the loader's Problems
// when the result does not load: every problem, not only the changed
// files', since a change can break another file (a circular deleted that
// a news item names). changes maps a path relative to the content
// directory (slash-separated, "circulars/x.md") to the file's new bytes,
// nil for a file deleted. It is what the CMS asks before it commits: the
// same loader that builds the site, over the tree as it would be.
//
// It costs a full load of the content (without the circulars' texts
// kept): the cross-file checks need every file.
func CheckChanges(fsys fs.FS, label string, changes map[string][]byte, now func() time.Time) error {
	for p := range changes {
		if !fs.ValidPath(p) || p == "." {
			return fmt.Errorf("%q is not a path inside the content directory", p)
		}
	}
	_, err := LoadFS(withChanges(fsys, changes), label, now, WithoutTexts())
	return err
}

// withChanges is fsys with changes laid over it: a path of changes reads as
// its bytes (a new file where fsys has none, its folders made as needed),
// or is absent when they are nil. fsys itself is not changed.
func withChanges(fsys fs.FS, changes map[string][]byte) fs.FS {
	o := &overlay{base: fsys, files: fstest.MapFS{}, deleted: map[string]bool{}, dirs: map[string]map[string]bool{}}
	for p, data := range changes {
		if data == nil {
			o.deleted[p] = true
			continue
		}
		o.files[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		for child, dir := p, path.Dir(p); ; child, dir = dir, path.Dir(dir) {
			if o.dirs[dir] == nil {
				o.dirs[dir] = map[string]bool{}
			}
			o.dirs[dir][path.Base(child)] = true
			if dir == "." {
				break
			}
		}
	}
	return o
}

type overlay struct {
	base    fs.FS
	files   fstest.MapFS               // the changed files' new bytes
	deleted map[string]bool            // the files changes delete
	dirs    map[string]map[string]bool // a folder's children that changes add
}

func (o *overlay) Open(name string) (fs.File, error) {
	if o.deleted[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if _, ok := o.files[name]; ok {
		return o.files.Open(name)
	}
	fi, err := o.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return o.base.Open(name)
	}
	entries, err := o.ReadDir(name)
	if err != nil {
		return nil, err
	}
	return &overlayDir{info: fi, entries: entries}, nil
}

// overlayDir is an open folder of the overlay: its merged entries.
type overlayDir struct {
	info    fs.FileInfo
	entries []fs.DirEntry
}

func (d *overlayDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *overlayDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: errors.New("is a directory")}
}
func (d *overlayDir) Close() error { return nil }

func (d *overlayDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		out := d.entries
		d.entries = nil
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	out := d.entries[:min(n, len(d.entries))]
	d.entries = d.entries[len(out):]
	return out, nil
}

func (o *overlay) ReadFile(name string) ([]byte, error) {
	if o.deleted[name] {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	if f, ok := o.files[name]; ok {
		return slices.Clone(f.Data), nil
	}
	return fs.ReadFile(o.base, name)
}

func (o *overlay) Stat(name string) (fs.FileInfo, error) {
	if o.deleted[name] {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if _, ok := o.files[name]; ok {
		return fs.Stat(o.files, name)
	}
	if fi, err := fs.Stat(o.base, name); err == nil || o.dirs[name] == nil {
		return fi, err
	}
	return fs.Stat(o.files, name)
}

// ReadDir is the base folder's entries, less the deleted files, with the
// changes' new files and folders, sorted by name as fs.ReadDir's.
func (o *overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	base, err := fs.ReadDir(o.base, name)
	added := o.dirs[name]
	if err != nil && (added == nil || !errors.Is(err, fs.ErrNotExist)) {
		return nil, err
	}
	byName := map[string]fs.DirEntry{}
	for _, e := range base {
		if !o.deleted[path.Join(name, e.Name())] {
			byName[e.Name()] = e
		}
	}
	if added != nil {
		mine, err := fs.ReadDir(o.files, name)
		if err != nil {
			return nil, err
		}
		for _, e := range mine {
			if prev, ok := byName[e.Name()]; !ok || !prev.IsDir() {
				byName[e.Name()] = e
			}
		}
	}
	out := make([]fs.DirEntry, 0, len(byName))
	for _, n := range slices.Sorted(maps.Keys(byName)) {
		out = append(out, byName[n])
	}
	return out, nil
}
