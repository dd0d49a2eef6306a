package catalog

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"
	"gopkg.in/yaml.v3"
)

// idNamespace makes path-derived IDs stable across machines and builds.
var idNamespace = uuid.MustParse("6f1d3c2e-9a47-4e0b-8f5a-2c7b1e9d4a10")

// IDForPath is the stable ID of the entry stored at a content-relative
// path such as "circulars/rbi-2020-03-17-x.md".
func IDForPath(rel string) string {
	return uuid.NewSHA1(idNamespace, []byte(filepath.ToSlash(rel))).String()
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Load reads and validates every entry under dir as of now. When anything
// is wrong it returns a nil catalog and Problems listing every problem found.
func Load(dir string) (*Catalog, error) {
	return LoadFS(os.DirFS(dir), filepath.Base(filepath.Clean(dir)), nil)
}

// LoadFS is Load over any file system; label prefixes the paths in
// problems. now is the clock that bounds years (a company cannot be
// founded next year); nil means time.Now.
func LoadFS(fsys fs.FS, label string, now func() time.Time, opts ...LoadOption) (*Catalog, error) {
	l := newLoader(label, now)
	for _, o := range opts {
		o(l)
	}
	if _, err := fs.Stat(fsys, "."); err != nil {
		return nil, fmt.Errorf("content directory %s: %w", label, err)
	}
	// The files in walk order; each read and its YAML parsed on every
	// core, a batch at a time (at 100,000 circulars that is most of the
	// load), then checked and added one by one in that order, so that
	// problems and duplicates read as a sequential load's.
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			l.add(p, 0, "file", err.Error())
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || strings.EqualFold(d.Name(), "README.md") {
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// (room for every circular at once: at 100,000 a list grown by
	// doubling copies its kilobyte entries some 200 MB over)
	circulars := 0
	for _, p := range files {
		if strings.HasPrefix(p, "circulars/") {
			circulars++
		}
	}
	if circulars > 0 {
		l.cat.Circulars = make([]Circular, 0, circulars)
	}
	// A batch is read and parsed while the one before it is checked: the
	// checks run in this goroutine, one file after another, and at 100,000
	// circulars they are a third of the load.
	batches := make(chan []parsedFile, 1)
	go func() {
		defer close(batches)
		for start := 0; start < len(files); start += loadBatch {
			part := files[start:min(len(files), start+loadBatch)]
			batch := make([]parsedFile, len(part))
			var g errgroup.Group
			g.SetLimit(runtime.GOMAXPROCS(0))
			// (some files to a goroutine: most are taken from the
			// decoded cache, in less time than a goroutine takes to start)
			for lo := 0; lo < len(part); lo += readChunk {
				g.Go(func() error {
					for i := lo; i < min(len(part), lo+readChunk); i++ {
						batch[i] = l.readFile(fsys, part[i], l.decodedHit(part[i]))
					}
					return nil
				})
			}
			_ = g.Wait()
			batches <- batch
		}
	}()
	start := 0
	for batch := range batches {
		for i, pf := range batch {
			p := files[start+i]
			switch {
			case pf.readErr != nil:
				l.add(p, 0, "file", pf.readErr.Error())
			case pf.hit != nil:
				if !l.takeDecoded(p, pf.hit) {
					// (its id another file's: parsed, for the problem's line)
					l.decodeCircular(p, l.readFile(fsys, p, nil))
				}
			case strings.HasPrefix(p, "circulars/"):
				l.decodeCircular(p, pf)
			default:
				l.parsed(p, pf)
			}
			batch[i] = parsedFile{}
		}
		start += len(batch)
	}
	l.keepDecoded()
	l.crossCheck()
	if len(l.problems) > 0 {
		return nil, l.problems.sorted()
	}
	l.cat.Pending = l.cat.Pending.sorted()
	l.cat.Warnings = l.cat.Warnings.sorted()
	l.cat.sort()
	l.cat.linkSupersession()
	l.cat.linkFinals()
	l.cat.linkLifecycle()
	l.cat.linkEditions()
	return l.cat, nil
}

// readFile reads and parses the file at p in fsys: what a load does on
// every core. hit, when not nil, is the file's entry as the last load
// decoded it (decodedHit): it is taken rather than parsed.
func (l *loader) readFile(fsys fs.FS, p string, hit *DecodedFile) parsedFile {
	if hit != nil && l.noTexts {
		return parsedFile{hit: hit}
	}
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return parsedFile{readErr: err}
	}
	if l.read != nil {
		l.read(p, data)
	}
	var read [sha256.Size]byte // the bytes' hash, with hit
	if hit != nil {
		// the text is wanted: only the YAML is not parsed again, when the
		// bytes are the ones hit was decoded from
		read = sha256.Sum256(data)
		if _, _, body, err := splitFrontMatter(data); err == nil && read == hit.Sum {
			with := *hit // (the last load's entry is not written into)
			with.Circular.Content = strings.TrimSpace(string(body))
			return parsedFile{hit: &with}
		}
	}
	pf := parseFrontMatter(data)
	if folder, _, _ := strings.Cut(p, "/"); folder == "circulars" {
		if hit != nil {
			pf.sum, pf.known = read, true // (changed since the caller's hash)
		} else if l.decoded != nil {
			pf.sum, pf.known = l.decoded.sum(p)
		}
		// the costly part of a circular's language (Circular.TextLang),
		// here on every core rather than in the checks' one goroutine,
		// unless it is known
		switch lang, ok := l.langs(p); {
		case ok && slices.Contains(Langs, lang):
			pf.lang = lang
		case !mayHoldDevanagari(pf.body):
			pf.noDevanagari = true
		default:
			pf.textHead = textHead(pf.body)
			pf.hasHead = true
		}
	}
	return pf
}

// ParseFile validates a single entry's bytes as if it lived at rel (for
// fuzzing and for editors' tools).
func ParseFile(rel string, data []byte) error {
	l := newLoader("content", nil)
	l.file(rel, data)
	if len(l.problems) > 0 {
		return l.problems
	}
	return nil
}

func newLoader(label string, now func() time.Time) *loader {
	if now == nil {
		now = time.Now
	}
	return &loader{label: label, now: now(), cat: &Catalog{}, ids: map[string]string{}, fieldLines: map[string]map[string]int{},
		langs: func(string) (string, bool) { return "", false }}
}

// A LoadOption changes what LoadFS keeps.
type LoadOption func(*loader)

// WithoutTexts makes LoadFS keep no circular's Content once its entry is
// checked (its obligations' sentences found in it). A build that renders
// the texts reads each again (ReadText) while it renders it, so that a
// catalog of 100,000 circulars does not hold their gigabyte of text.
func WithoutTexts() LoadOption { return func(l *loader) { l.noTexts = true } }

// WithRead makes LoadFS call read with each file it reads (its path in
// fsys, slash-separated) and its bytes, from several goroutines at once:
// a caller that hashes the content need not read it again.
func WithRead(read func(path string, data []byte)) LoadOption {
	return func(l *loader) { l.read = read }
}

// WithLangs makes LoadFS take a circular's language (Circular.Lang) from
// langs, by its file's path in fsys, when langs has it (the language
// found in the same bytes by an earlier load), rather than read its text
// for it: at 100,000 circulars that reading is most of the load's CPU.
func WithLangs(langs func(path string) (lang string, ok bool)) LoadOption {
	return func(l *loader) { l.langs = langs }
}

// ReadText reads the text (Content) of the entry e that LoadFS(fsys,
// label) loaded, as LoadFS reads it, and hashes the file's bytes it was
// read from (sha256): what a cache of what is made of the text is keyed
// by, whatever the file held when it was loaded.
func ReadText(fsys fs.FS, label string, e Entry) (text string, sum [sha256.Size]byte, err error) {
	rel, ok := strings.CutPrefix(e.Path, label+"/")
	if !ok {
		return "", sum, fmt.Errorf("%s: not under %s", e.Path, label)
	}
	data, err := fs.ReadFile(fsys, rel)
	if err != nil {
		return "", sum, err
	}
	_, _, body, err := splitFrontMatter(data)
	if err != nil {
		return "", sum, fmt.Errorf("%s: %w", e.Path, err)
	}
	return strings.TrimSpace(string(body)), sha256.Sum256(data), nil
}

type loader struct {
	noTexts  bool                           // WithoutTexts
	read     func(path string, data []byte) // WithRead
	label    string
	now      time.Time
	cat      *Catalog
	problems Problems
	ids      map[string]string // id -> path, to find duplicates
	// fieldLines keeps each file's field lines for problems found across files.
	fieldLines map[string]map[string]int
	// head is the file being checked's textHead, when hasHead (LoadFS
	// makes it on every core); lang its language when known (WithLangs).
	head         string
	hasHead      bool
	noDevanagari bool // the file's text holds no Devanagari letter (parsedFile's)
	lang         string
	langs        func(path string) (string, bool) // WithLangs
	decoded      *decodedCache                    // WithDecoded
	// dirVersions are the Master Directions' versions by direction slug,
	// until crossCheck gives each direction its own.
	dirVersions map[string][]DirectionVersion
}

func (l *loader) add(rel string, line int, field, msg string) {
	l.problems = append(l.problems, Problem{Path: path.Join(l.label, rel), Line: line, Field: field, Message: msg})
}

// kinds maps a content folder to the decoder of its entries.
var kinds = map[string]func(*loader, *fields, Entry, string){
	"circulars":   (*loader).circular,
	"news":        (*loader).news,
	"companies":   (*loader).company,
	"regulations": (*loader).regulation,
	"networks":    (*loader).network,
	"sibos":       (*loader).sibos,
	"events":      (*loader).event,
	"bodies":      (*loader).body,
	"ads":         (*loader).ad,
	"adslots":     (*loader).adSlot,
	"videos":      (*loader).video,
}

// Kinds lists the content folders, sorted.
func Kinds() []string {
	out := make([]string, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// loadBatch is how many files LoadFS reads and parses at once: enough to
// keep every core busy, few enough that their bytes stay small.
const loadBatch = 512

// readChunk is how many files of a batch one goroutine reads.
const readChunk = 32

// parsedFile is a content file split and its front matter parsed as YAML,
// the part of checking it that needs no other file (LoadFS does it on
// every core): the error of whichever step failed, else the YAML.
type parsedFile struct {
	readErr   error
	splitErr  error
	front     []byte
	frontLine int
	body      []byte
	doc       yaml.Node
	docErr    error
	// extra is a second YAML document after the first, if any (extraErr
	// is io.EOF when there is none).
	extra    yaml.Node
	extraErr error
	// textHead is the start of a circular's text as plain text, as far as
	// its language is read (textHead), when hasHead.
	textHead string
	hasHead  bool
	// noDevanagari: the text's plain words hold no Devanagari letter
	// (mayHoldDevanagari), and textHead was not made
	noDevanagari bool
	lang         string // a circular's known language (WithLangs)
	// hit is the file's entry as a last load decoded it (WithDecoded):
	// the file was not read. sum is the hash of the bytes read, when
	// known.
	hit   *DecodedFile
	sum   [sha256.Size]byte
	known bool
}

func parseFrontMatter(data []byte) parsedFile {
	var pf parsedFile
	pf.front, pf.frontLine, pf.body, pf.splitErr = splitFrontMatter(data)
	if pf.splitErr != nil {
		return pf
	}
	dec := yaml.NewDecoder(bytes.NewReader(pf.front))
	if pf.docErr = dec.Decode(&pf.doc); pf.docErr != nil && !errors.Is(pf.docErr, io.EOF) {
		return pf
	}
	pf.extraErr = dec.Decode(&pf.extra)
	return pf
}

func (l *loader) file(rel string, data []byte) { l.parsed(rel, parseFrontMatter(data)) }

// parsed checks a parsed file and adds its entry to the catalog.
func (l *loader) parsed(rel string, pf parsedFile) {
	folder, name, _ := strings.Cut(filepath.ToSlash(rel), "/")
	if folder == DirectionsFolder {
		l.directionFile(rel, name, pf)
		return
	}
	decode, ok := kinds[folder]
	if !ok || strings.Contains(name, "/") {
		l.add(rel, 0, "file", fmt.Sprintf("not in a content folder (want one of %s/NAME.md)", strings.Join(Kinds(), "/, ")))
		return
	}
	if !strings.HasSuffix(name, ".md") {
		l.add(rel, 0, "file", "content files must end in .md")
		return
	}
	slug := strings.TrimSuffix(name, ".md")
	if !slugPattern.MatchString(slug) {
		l.add(rel, 0, "file", fmt.Sprintf("file name %q must be lowercase words joined by '-'", slug))
		return
	}
	f, body, ok := l.frontMatter(rel, pf)
	if !ok {
		return
	}
	e := Entry{Slug: slug, Path: path.Join(l.label, rel), ID: IDForPath(rel)}
	l.entryID(f, &e)
	l.head, l.hasHead, l.noDevanagari, l.lang = pf.textHead, pf.hasHead, pf.noDevanagari, pf.lang
	decode(l, f, e, body)
	l.head, l.hasHead, l.noDevanagari, l.lang = "", false, false, ""
	l.finish(f)
}

// frontMatter checks a parsed file's front matter and gives its fields and
// its body, trimmed; ok is false when a problem stops the file here.
func (l *loader) frontMatter(rel string, pf parsedFile) (f *fields, body string, ok bool) {
	front, frontLine, doc := pf.front, pf.frontLine, pf.doc
	if err := pf.splitErr; err != nil {
		l.add(rel, 1, "file", err.Error())
		return nil, "", false
	}
	if err := pf.docErr; err != nil && !errors.Is(err, io.EOF) {
		line, msg := yamlErrorLine(err)
		l.add(rel, frontLine+line, "front matter", msg)
		return nil, "", false
	}
	// A "..." or "---" inside the front matter starts a second YAML
	// document whose fields would otherwise be dropped without a word.
	if !errors.Is(pf.extraErr, io.EOF) {
		l.add(rel, frontLine+pf.extra.Line, "front matter", "holds more than one YAML document (a '...' or '---' line inside it)")
		return nil, "", false
	}
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = doc.Content[0]
		if root.Kind != yaml.MappingNode {
			l.add(rel, frontLine+root.Line, "front matter", "must be a map of field: value")
			return nil, "", false
		}
	}
	f = newFields(path.Join(l.label, rel), frontLine, root, &l.problems)
	f.endLine = frontLine + bytes.Count(front, []byte("\n")) + 1
	return f, strings.TrimSpace(string(pf.body)), true
}

// entryID reads the id field, which overrides the path-derived id, and
// checks that no other entry has it.
func (l *loader) entryID(f *fields, e *Entry) {
	if id := f.str("id", false); id != "" {
		if u, err := uuid.Parse(id); err != nil {
			f.addAt(f.keyLines["id"], "id", "not a UUID: %q", id)
		} else {
			e.ID = u.String() // canonical spelling, so duplicates are found however written
		}
	}
	if prev, dup := l.ids[e.ID]; dup {
		f.addAt(f.keyLines["id"], "id", "duplicate id %s (also used by %s)", e.ID, prev)
	}
	l.ids[e.ID] = e.Path
}

// finish reports the fields no decoder read and keeps the file's field
// lines for problems found across files.
func (l *loader) finish(f *fields) {
	f.done()
	lines := map[string]int{}
	for k, n := range f.keyLines {
		lines[k] = f.lineBase + n
	}
	l.fieldLines[f.path] = lines
}

// splitFrontMatter separates "---\nYAML\n---\nbody". frontLine is the file
// line just before the YAML's first line, so YAML line n is file line
// frontLine+n.
func splitFrontMatter(data []byte) (front []byte, frontLine int, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.Contains(data, []byte("\r\n")) { // (ReplaceAll copies even what it leaves as it was)
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil, 0, nil, errors.New("file must start with a '---' line opening the front matter")
	}
	rest := data[4:]
	if bytes.HasPrefix(rest, []byte("---\n")) || bytes.Equal(rest, []byte("---")) {
		return nil, 1, bytes.TrimPrefix(rest[3:], []byte("\n")), nil
	}
	end := bytes.Index(rest, []byte("\n---\n"))
	if end < 0 {
		if bytes.HasSuffix(rest, []byte("\n---")) {
			end = len(rest) - 4
		} else {
			return nil, 0, nil, errors.New("front matter is not closed by a '---' line")
		}
	}
	body = rest[end+4:]
	body = bytes.TrimPrefix(body, []byte("\n"))
	return rest[:end+1], 1, body, nil
}

var yamlLineRE = regexp.MustCompile(`line (\d+): `)

func yamlErrorLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineRE.FindStringSubmatchIndex(msg); m != nil {
		var n int
		fmt.Sscanf(msg[m[2]:m[3]], "%d", &n)
		return n, msg[:m[0]] + msg[m[1]:]
	}
	return 1, msg
}

func (c *Catalog) sort() {
	sort.SliceStable(c.Unpublished, func(i, j int) bool { return c.Unpublished[i].Slug < c.Unpublished[j].Slug })
	sortStableByKey(c.Circulars, newestFirstKey, compareNewestFirst)
	sort.SliceStable(c.News, func(i, j int) bool {
		a, b := c.News[i], c.News[j]
		if !a.PublishedDate.Equal(b.PublishedDate.Time) {
			return a.PublishedDate.After(b.PublishedDate.Time)
		}
		return a.Slug < b.Slug
	})
	sort.SliceStable(c.Sibos, func(i, j int) bool { return c.Sibos[i].Year > c.Sibos[j].Year })
}

// sortStableByKey sorts s stably by the key of each element (key), as
// cmp orders keys: each key made once, sorted with its index, and each
// element then moved once. (A Circular is some 650 bytes: sort.SliceStable's
// merges moved 100,000 of them many times over, and a sort of indexes
// comparing the elements read them all over memory; either was a third
// of a second of every load at the archive's size.)
func sortStableByKey[T, K any](s []T, key func(*T) K, cmp func(a, b K) int) {
	type keyed struct {
		key K
		at  int32
	}
	order := make([]keyed, len(s))
	for i := range s {
		order[i] = keyed{key(&s[i]), int32(i)}
	}
	// (unstable, ties ordered by place: the same order as a stable sort,
	// and pdqsort's fewer moves took a third of slices.SortStableFunc's
	// time at 100,000 circulars)
	slices.SortFunc(order, func(a, b keyed) int {
		if c := cmp(a.key, b.key); c != 0 {
			return c
		}
		return int(a.at - b.at)
	})
	sorted := make([]T, len(s))
	for k, o := range order {
		sorted[k] = s[o.at]
	}
	copy(s, sorted)
}

// CheckSlug reports whether slug can name an entry's file.
func CheckSlug(slug string) error {
	if !slugPattern.MatchString(slug) {
		return fmt.Errorf("slug %q must be lowercase letters and digits joined by '-'", slug)
	}
	return nil
}
