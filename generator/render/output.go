package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/afero"
)

// Manifest lists what a build published, kept beside the output
// (ManifestPath): on the next build only files whose bytes changed are
// written, and a build whose inputs are unchanged renders nothing.
type Manifest struct {
	Inputs string             `json:"inputs"` // the hash of the build's inputs
	Files  map[string]fileSum `json:"files"`  // by slash-separated path under the output
	// Pages are the keys of the pages that have one (the site says what
	// a key hashes), by output path: a page whose key is unchanged, and
	// whose file the output still holds, is not rendered again
	// (Output.Unchanged).
	Pages map[string]string `json:"pages,omitempty"`
}

// fileSum is what the manifest keeps of a file: the 64-bit xxhash of its
// bytes (hex) and its size. A file is only ever compared with its own
// last version, so a wrong "unchanged" takes a 2⁻⁶⁴ chance, not a birthday
// bound. SHA-256 took the 20 GB a fresh build writes at 100,000
// circulars 10 s of CPU (2.0 GB/s here), xxhash 1.2 s (16.6 GB/s).
type fileSum struct {
	Hash string `json:"xxhash"`
	Size int64  `json:"size"`
}

// sumOf is data's fileSum.
func sumOf(data []byte) fileSum {
	return fileSum{Hash: fmt.Sprintf("%016x", xxhash.Sum64(data)), Size: int64(len(data))}
}

// ManifestPath is where the manifest of outDir is: beside it, not in it,
// so it is never served:
// public/ has .public.manifest.json.
func ManifestPath(outDir string) string {
	return filepath.Join(filepath.Dir(outDir), "."+filepath.Base(outDir)+".manifest.json")
}

// HasBuild says whether outDir holds a build: the folder and its
// manifest are there (without reading the manifest: at 100,000
// circulars some 40 MB).
func HasBuild(outDir string) bool {
	for _, p := range []string{outDir, ManifestPath(outDir)} {
		if _, err := os.Stat(p); err != nil {
			return false
		}
	}
	return true
}

// ReadManifest returns the manifest of outDir's last build, or nil when
// there is none (or no outDir).
func ReadManifest(outDir string) *Manifest {
	if _, err := os.Stat(outDir); err != nil {
		return nil
	}
	data, err := os.ReadFile(ManifestPath(outDir))
	if err != nil {
		return nil
	}
	m, ok := decodeManifest(data)
	if !ok && json.Unmarshal(data, &m) != nil || m.Files == nil {
		return nil
	}
	for _, sum := range m.Files {
		if sum.Hash == "" {
			return nil // another form's (SHA-256's, before xxhash): no file's bytes are known
		}
	}
	return &m
}

// decodeManifest reads data as encode writes it, without reflection: at
// 100,000 circulars json.Unmarshal took 0.5 s of every build's CPU. Its
// strings are parts of one, so the collector marks one object, not
// 700,000. ok is false for any other form, which json.Unmarshal then
// reads: space, escapes or bytes outside printable ASCII in a string.
func decodeManifest(data []byte) (m Manifest, ok bool) {
	d := manifestDecoder{s: string(data)}
	if !d.lit(`{"inputs":`) {
		return Manifest{}, false
	}
	if m.Inputs, ok = d.str(); !ok || !d.lit(`,"files":{`) {
		return Manifest{}, false
	}
	m.Files = make(map[string]fileSum, strings.Count(d.s, `":{"xxhash":`))
	for first := true; !d.lit("}"); first = false {
		if !first && !d.lit(",") {
			return Manifest{}, false
		}
		name, ok1 := d.str()
		if !ok1 || !d.lit(`:{"xxhash":`) {
			return Manifest{}, false
		}
		sum, ok2 := d.str()
		if !ok2 || !d.lit(`,"size":`) {
			return Manifest{}, false
		}
		size, ok3 := d.int()
		if !ok3 || !d.lit("}") {
			return Manifest{}, false
		}
		m.Files[name] = fileSum{Hash: sum, Size: size}
	}
	if d.lit(`,"pages":{`) {
		m.Pages = make(map[string]string, strings.Count(d.s[d.at:], `","`)+1)
		for first := true; !d.lit("}"); first = false {
			if !first && !d.lit(",") {
				return Manifest{}, false
			}
			name, ok1 := d.str()
			if !ok1 || !d.lit(":") {
				return Manifest{}, false
			}
			key, ok2 := d.str()
			if !ok2 {
				return Manifest{}, false
			}
			m.Pages[name] = key
		}
	}
	if !d.lit("}") || d.at != len(d.s) {
		return Manifest{}, false
	}
	return m, true
}

// manifestDecoder reads s from at, as decodeManifest does.
type manifestDecoder struct {
	s  string
	at int
}

// lit reads want, if s has it at at.
func (d *manifestDecoder) lit(want string) bool {
	if !strings.HasPrefix(d.s[d.at:], want) {
		return false
	}
	d.at += len(want)
	return true
}

// str reads a quoted string of printable ASCII without escapes.
func (d *manifestDecoder) str() (string, bool) {
	if d.at >= len(d.s) || d.s[d.at] != '"' {
		return "", false
	}
	for i := d.at + 1; i < len(d.s); i++ {
		switch c := d.s[i]; {
		case c == '"':
			v := d.s[d.at+1 : i]
			d.at = i + 1
			return v, true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return "", false
		}
	}
	return "", false
}

// int reads a number of decimal digits, as encode writes a size.
func (d *manifestDecoder) int() (int64, bool) {
	i := d.at
	for i < len(d.s) && d.s[i] >= '0' && d.s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(d.s[d.at:i], 10, 64)
	d.at = i
	return n, err == nil
}

// encode is m as JSON, as json.Marshal writes it (keys sorted), written
// without reflection: at 100,000 circulars its 460,000 entries took
// json.Marshal some 0.4 s of every build's commit.
func (m Manifest) encode() []byte {
	// the pages encoded beside the files: each sorts its 230,000 names
	var pages []byte
	var wg sync.WaitGroup
	if len(m.Pages) > 0 { // (omitempty)
		wg.Go(func() {
			pages = make([]byte, 0, 16+len(m.Pages)*112)
			pages = append(pages, `,"pages":{`...)
			for i, name := range slices.Sorted(maps.Keys(m.Pages)) {
				if i > 0 {
					pages = append(pages, ',')
				}
				pages = appendJSONString(append(appendJSONString(pages, name), ':'), m.Pages[name])
			}
			pages = append(pages, '}')
		})
	}
	out := make([]byte, 0, 64+len(m.Files)*128+len(m.Pages)*112)
	out = appendJSONString(append(out, `{"inputs":`...), m.Inputs)
	out = append(out, `,"files":{`...)
	for i, name := range slices.Sorted(maps.Keys(m.Files)) {
		if i > 0 {
			out = append(out, ',')
		}
		sum := m.Files[name]
		out = append(appendJSONString(out, name), `:{"xxhash":`...)
		out = append(appendJSONString(out, sum.Hash), `,"size":`...)
		out = append(strconv.AppendInt(out, sum.Size, 10), '}')
	}
	out = append(out, '}')
	wg.Wait()
	return append(append(out, pages...), '}')
}

// appendJSONString appends s as a JSON string, as json.Marshal writes
// it: as it is, quoted, when no byte of it needs escaping (every path and
// hash a build writes), else by json.Marshal.
func appendJSONString(out []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			j, _ := json.Marshal(s) // (a string always encodes)
			return append(out, j...)
		}
	}
	return append(append(append(out, '"'), s...), '"')
}

// Complete reports whether outDir still has every file m lists, at its size.
func (m *Manifest) Complete(outDir string) bool {
	for name, sum := range m.Files {
		st, err := os.Stat(filepath.Join(outDir, filepath.FromSlash(name)))
		if err != nil || st.Size() != sum.Size {
			return false
		}
	}
	return true
}

// PageCount counts the HTML pages of the site m lists.
func (m *Manifest) PageCount() int {
	n := 0
	for name := range m.Files {
		// (admin/ is the editors' CMS, whose page is its shell, not Hugo's)
		if strings.HasSuffix(name, ".html") && !strings.HasPrefix(name, "admin/") {
			n++
		}
	}
	return n
}

// Output receives every file of a build (Hugo's, through its runs, and
// the site's own: Publish) and stages only those whose bytes the last
// build did not already give; Commit moves them in by rename and removes
// what the new build no longer has. Nothing reaches the output before
// Commit, so a failed build leaves it untouched.
//
// The last build is the output itself, or (serve's first rebuild into
// its second folder) the folder given as base: its unchanged files are
// then hard-linked into the new one rather than written again.
type Output struct {
	outDir, staging string
	base            string    // the folder the last build is in: outDir, or another
	old             *Manifest // base's manifest; nil: no previous build to compare with

	w writeBehind // the staged files' writes

	mu       sync.Mutex
	files    map[string]fileSum
	changed  []string
	rendered []string           // HTML pages Hugo published (under mu)
	setIn    [withItems + 1]int // of them, by how each was made (frames.go; under mu)
}

// NewOutput is a build's output into outDir, its files staged in staging
// (Workspace.Staging) until Commit; base is the folder of the last build,
// when not outDir (empty: outDir), and last its manifest as the caller
// read it (ReadManifest(base); at 100,000 circulars reading it is half a
// second).
func NewOutput(outDir, staging, base string, last *Manifest) (*Output, error) {
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return nil, err
	}
	if base == "" {
		base = outDir
	}
	files := map[string]fileSum{}
	if last != nil { // (most of its files are this build's: 230,000 at 100,000 circulars)
		files = make(map[string]fileSum, len(last.Files))
	}
	return &Output{outDir: outDir, staging: staging, base: base, old: last, files: files}, nil
}

// inPlace says the build replaces the last one in its own folder.
func (p *Output) inPlace() bool { return p.base == p.outDir }

// Publish takes the file at name (slash-separated, under the output).
func (p *Output) Publish(name string, data []byte) error {
	name = strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(name)), "/")
	sum := sumOf(data)
	if p.old != nil && p.old.Files[name] == sum {
		if ok, err := p.reuse(name, sum); ok || err != nil {
			return err // the last build has these bytes
		}
	}
	p.mu.Lock()
	p.files[name] = sum
	p.mu.Unlock()
	dst := filepath.Join(p.staging, filepath.FromSlash(name))
	if err := mkdirFor(dst); err != nil {
		return err
	}
	if err := p.w.write(dst, data); err != nil {
		return err
	}
	p.mu.Lock()
	p.changed = append(p.changed, name)
	p.mu.Unlock()
	return nil
}

// mkdirFor makes the folder the file at path goes in: one mkdir where only
// that folder is missing (a page's own, as with most), MkdirAll's stat of
// each folder above it only where more are. (In a fresh build at 100,000
// circulars, MkdirAll took 10.6 s of CPU, 4 s of it in stats.)
func mkdirFor(path string) error {
	dir := filepath.Dir(path)
	err := os.Mkdir(dir, 0o755)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil // (a file in its place fails the write)
	}
	return os.MkdirAll(dir, 0o755)
}

// Close lets go of the staged files a build that fails leaves open
// (Commit does for one that does not); it may be called more than once.
func (p *Output) Close() error { return p.w.close() }

// keep takes the file at name as the last build left it, if it did (at
// the size that build recorded), without its bytes.
func (p *Output) keep(name string) bool {
	sum, ok := p.old.Files[name]
	if !ok {
		return false
	}
	ok, err := p.reuse(name, sum)
	return ok && err == nil
}

// Last is the manifest of the last build, nil when there is none.
func (p *Output) Last() *Manifest { return p.old }

// Unchanged says the last build rendered the page at path from inputs of
// the same key and the output still holds its file at the recorded size:
// the file is taken as it is (kept), and the page need not be rendered.
func (p *Output) Unchanged(path, key string) bool {
	if p.old == nil {
		return false
	}
	last, ok := p.old.Pages[path]
	return ok && last == key && p.keep(path)
}

// reuse takes the last build's file at name, whose manifest says it has
// sum, if it is still there at that size: in place nothing is written; in
// a new folder it is hard-linked into the staged tree.
func (p *Output) reuse(name string, sum fileSum) (bool, error) {
	src := filepath.Join(p.base, filepath.FromSlash(name))
	if st, err := os.Stat(src); err != nil || st.Size() != sum.Size {
		return false, nil
	}
	if !p.inPlace() {
		dst := filepath.Join(p.staging, filepath.FromSlash(name))
		if err := mkdirFor(dst); err != nil {
			return false, err
		}
		if err := os.Link(src, dst); err != nil {
			return false, nil // another file system: written as new
		}
	}
	p.mu.Lock()
	p.files[name] = sum
	p.mu.Unlock()
	return true, nil
}

// ReuseAll takes every file of the last build (its inputs are this one's).
func (p *Output) ReuseAll() error {
	for name, sum := range p.old.Files {
		ok, err := p.reuse(name, sum)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%s: the last build's file changed under it", filepath.Join(p.base, name))
		}
	}
	return nil
}

// PublishDir publishes every file under dir, skipping the folders named in skip.
func (p *Output) PublishDir(dir, under string, skip ...string) error {
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
		return p.Publish(path.Join(under, filepath.ToSlash(rel)), data)
	})
}

// Commit puts the published files in place and records the manifest with
// inputs and the pages' keys. Without a previous build in place
// the staged folder holds every file (the reused ones linked) and replaces
// the output as a whole (renamed in; any old tree removed after the swap).
// In place, only changed files are moved in, each by an atomic rename, and
// files the build no longer has are removed.
func (p *Output) Commit(inputs string, pages map[string]string) error {
	if err := p.w.close(); err != nil {
		return err
	}
	if p.old == nil || !p.inPlace() {
		if err := swapDir(p.staging, p.outDir); err != nil {
			return err
		}
	} else {
		for _, name := range p.changed {
			dst := filepath.Join(p.outDir, filepath.FromSlash(name))
			if err := mkdirFor(dst); err != nil {
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
	data := Manifest{Inputs: inputs, Files: p.files, Pages: pages}.encode()
	tmp := ManifestPath(p.outDir) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, ManifestPath(p.outDir)); err != nil {
		return err
	}
	PruneBeside(filepath.Dir(p.outDir), ".manifest.json", "."+recordName, "."+DeltaName(recordName))
	return nil
}

// PruneBeside removes the files kept beside an output folder in dir
// (.public.manifest.json, the record RecordPath, a build's caches: a dot,
// the folder's name, one of suffixes) whose folder is gone (removed by
// hand, or by a version of serve that made a new folder for each rebuild:
// the build does not know who removed it).
func PruneBeside(dir string, suffixes ...string) {
	for _, suffix := range suffixes {
		found, _ := filepath.Glob(filepath.Join(dir, ".*"+suffix))
		for _, m := range found {
			out := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m), "."), suffix)
			if _, err := os.Stat(filepath.Join(dir, out)); errors.Is(err, fs.ErrNotExist) {
				os.Remove(m)
			}
		}
	}
}

// publishFs is the folder Hugo publishes into: each file Hugo writes is
// kept in memory until closed, then handed to take (the Output's, so
// unchanged pages never touch the disk). Reads and anything else go to
// Fs (the staging folder).
type publishFs struct {
	afero.Fs
	take func(name string, data []byte) error
}

func newPublishFs(p *Output, take func(name string, data []byte) error) publishFs {
	return publishFs{Fs: afero.NewBasePathFs(afero.NewOsFs(), p.staging), take: take}
}

// setIn is how the build made a page Hugo rendered: as rendered, set in
// a frame, or with its list's items set in (frames.go).
type setIn int

const (
	asRendered setIn = iota
	inFrame
	withItems
)

// publishRendered publishes a file Hugo rendered, made as how says.
func (p *Output) publishRendered(name string, data []byte, how setIn) error {
	if strings.HasSuffix(name, ".html") {
		p.mu.Lock()
		p.rendered = append(p.rendered, strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(name)), "/"))
		p.setIn[how]++
		p.mu.Unlock()
	}
	return p.Publish(name, data)
}

func (f publishFs) Create(name string) (afero.File, error) {
	return &publishedFile{buf: pageBuffer(), take: f.take, name: name}, nil
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

// publishedFile is a file Hugo writes, held in a buffer of pageBuffers
// and handed to take when closed; the buffer goes back to the pool once
// take returns, so take must not keep the bytes it is given. Hugo only
// writes such a file and closes it (publisher.DestinationPublisher), so
// reading it is refused rather than half supported.
type publishedFile struct {
	buf  *[]byte // nil once closed
	take func(name string, data []byte) error
	name string
	err  error
}

var _ afero.File = (*publishedFile)(nil)

var errWriteOnly = errors.New("a file being published is written only")

func (f *publishedFile) Write(p []byte) (int, error) {
	if f.buf == nil {
		return 0, fs.ErrClosed
	}
	*f.buf = append(*f.buf, p...)
	return len(p), nil
}

func (f *publishedFile) WriteString(s string) (int, error) {
	if f.buf == nil {
		return 0, fs.ErrClosed
	}
	*f.buf = append(*f.buf, s...)
	return len(s), nil
}

func (f *publishedFile) Close() error {
	if f.buf == nil {
		return f.err // (closed already: Hugo's publisher defers a second close)
	}
	f.err = f.take(f.name, *f.buf)
	putPageBuffer(f.buf)
	f.buf = nil
	return f.err
}

func (f *publishedFile) Name() string { return f.name }
func (f *publishedFile) Sync() error  { return nil }

func (f *publishedFile) Stat() (os.FileInfo, error) {
	if f.buf == nil {
		return nil, fs.ErrClosed
	}
	return fileInfo{name: filepath.Base(f.name), size: int64(len(*f.buf))}, nil
}

func (f *publishedFile) Truncate(size int64) error {
	if f.buf == nil || size < 0 || size > int64(len(*f.buf)) {
		return errWriteOnly
	}
	*f.buf = (*f.buf)[:size]
	return nil
}

func (f *publishedFile) Read([]byte) (int, error)           { return 0, errWriteOnly }
func (f *publishedFile) ReadAt([]byte, int64) (int, error)  { return 0, errWriteOnly }
func (f *publishedFile) WriteAt([]byte, int64) (int, error) { return 0, errWriteOnly }
func (f *publishedFile) Seek(int64, int) (int64, error)     { return 0, errWriteOnly }
func (f *publishedFile) Readdir(int) ([]os.FileInfo, error) { return nil, errWriteOnly }
func (f *publishedFile) Readdirnames(int) ([]string, error) { return nil, errWriteOnly }

// Has says the build has the file name (slash-separated, under the
// output), not empty.
func (p *Output) Has(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.files[name].Size > 0
}

// Pages counts the HTML pages the build has.
func (p *Output) Pages() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return (&Manifest{Files: p.files}).PageCount()
}

// Framed counts the pages of Rendered published in a frame (frames.go).
func (p *Output) Framed() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.setIn[inFrame]
}

// WithItems counts the pages of Rendered published with their list's
// items set in (frames.go).
func (p *Output) WithItems() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.setIn[withItems]
}

// Rendered are the HTML pages Hugo's runs published, sorted.
func (p *Output) Rendered() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Sorted(slices.Values(p.rendered))
}
