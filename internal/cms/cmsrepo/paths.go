package cmsrepo

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"regpulse/internal/cms"
)

// defaultMaxMedia is the largest media file accepted when the config
// leaves MaxMedia at 0: a scanned circular as PDF fits, a video does not.
const defaultMaxMedia = 10 << 20

// area is where a path from the client may point.
type area int

const (
	areaContent area = 1 << iota // under ContentDir/
	areaMedia                    // under MediaDir/
	areaAny     = areaContent | areaMedia
)

// layout is the repository's two writable folders and the media limits,
// shared by both modes.
type layout struct {
	content, media string
	maxMedia       int64
}

func newLayout(content, media string, maxMedia int64) (layout, error) {
	if content == "" {
		content = "content"
	}
	if media == "" {
		media = "media"
	}
	if maxMedia <= 0 {
		maxMedia = defaultMaxMedia
	}
	l := layout{content: content, media: media, maxMedia: maxMedia}
	for _, d := range []string{content, media} {
		if err := l.shape(d); err != nil {
			return l, err
		}
	}
	return l, nil
}

// shape refuses what is not a clean relative slash path inside the
// repository: absolute, "..", ".", empty segments, backslashes (a Windows
// separator on one side is a name on the other), NUL and other control
// characters, and any ".git" segment (git's own files are never content).
func (l layout) shape(p string) error {
	switch {
	case p == "":
		return cms.Errorf(http.StatusBadRequest, "a path is required")
	case strings.HasPrefix(p, "/"):
		return cms.Errorf(http.StatusBadRequest, "path %q: must be relative to the repository", p)
	case strings.ContainsRune(p, '\\'):
		return cms.Errorf(http.StatusBadRequest, "path %q: backslashes are not allowed", p)
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return cms.Errorf(http.StatusBadRequest, "path %q: control characters are not allowed", p)
	case path.Clean(p) != p:
		return cms.Errorf(http.StatusBadRequest, "path %q: not a clean path (no .., . or //)", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." {
			return cms.Errorf(http.StatusBadRequest, "path %q: must stay inside the repository", p)
		}
		// ".git" in any case and with trailing dots or spaces, which some
		// file systems fold into ".git".
		if strings.EqualFold(strings.TrimRight(seg, ". "), ".git") {
			return cms.Errorf(http.StatusBadRequest, "path %q: git's own files cannot be edited", p)
		}
	}
	return nil
}

// file checks a path to a file the client names: shape, then under one
// of the folders in a.
func (l layout) file(p string, a area) error {
	if err := l.shape(p); err != nil {
		return err
	}
	if a&areaContent != 0 && strings.HasPrefix(p, l.content+"/") {
		return nil
	}
	if a&areaMedia != 0 && strings.HasPrefix(p, l.media+"/") {
		return nil
	}
	return cms.Errorf(http.StatusBadRequest, "path %q: %s", p, l.where(a))
}

// folder checks a folder to list: one of the folders in a or below it.
func (l layout) folder(p string, a area) error {
	if err := l.shape(p); err != nil {
		return err
	}
	if a&areaContent != 0 && (p == l.content || strings.HasPrefix(p, l.content+"/")) {
		return nil
	}
	if a&areaMedia != 0 && (p == l.media || strings.HasPrefix(p, l.media+"/")) {
		return nil
	}
	return cms.Errorf(http.StatusBadRequest, "folder %q: %s", p, l.where(a))
}

func (l layout) where(a area) string {
	switch a {
	case areaContent:
		return "entries are written only under " + l.content + "/"
	case areaMedia:
		return "media are written only under " + l.media + "/"
	}
	return "only " + l.content + "/ and " + l.media + "/ can be edited"
}

// mediaTypes are the media an editor may upload, by extension, with the
// type the bytes must sniff as. SVG is refused: it is a document that can
// carry script, served from the site's own origin.
var mediaTypes = map[string]string{
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".pdf":  "application/pdf",
}

// checkMedia refuses a media file by size (413), then by extension and
// by what its bytes are (415): an extension alone is a claim.
func (l layout) checkMedia(p string, data []byte) error {
	if err := l.checkSize(p, len(data)); err != nil {
		return err
	}
	ext := strings.ToLower(path.Ext(p))
	want, ok := mediaTypes[ext]
	if !ok {
		return cms.Errorf(http.StatusUnsupportedMediaType, "%s: %q files are not accepted (png, jpg, gif, webp or pdf)", p, ext)
	}
	if got := http.DetectContentType(data); got != want {
		return cms.Errorf(http.StatusUnsupportedMediaType, "%s: the file is %s, not %s as its name says", p, got, want)
	}
	return nil
}

// checkSize refuses a file larger than the media limit (413); an entry's
// text is held to it too.
func (l layout) checkSize(p string, n int) error {
	if int64(n) > l.maxMedia {
		return cms.Errorf(http.StatusRequestEntityTooLarge, "%s: %d bytes, the limit is %d", p, n, l.maxMedia)
	}
	return nil
}

// noSymlinkOnDisk refuses a path that goes through a symbolic link on
// disk below root (root itself is resolved once, at construction), so a
// write cannot leave the repository by a link an earlier commit planted.
// A missing component ends the walk: what does not exist is no link.
func noSymlinkOnDisk(root, p string) error {
	cur := root
	for _, seg := range strings.Split(p, "/") {
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return cms.Errorf(http.StatusBadRequest, "path %q: goes through a symbolic link", p)
		}
	}
	return nil
}

// MaxListed is the most entries a folder's listing sends. Decap reads
// every entry it is sent, text and all, to show a collection: at 100,000
// circulars that would be some 300 MB for one page. The listing keeps the
// newest (the date in the file name, as the content's names carry one),
// and an older entry opens by its address (#/collections/NAME/entries/SLUG).
const MaxListed = 2000

var nameDate = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// newest keeps at most max of paths: those whose file name holds the
// latest date first, then by path; the order of what is kept is the
// listing's, by path.
func newest(paths []string, max int) []string {
	if len(paths) <= max {
		return paths
	}
	type dated struct{ path, date string }
	byDate := make([]dated, len(paths))
	for i, p := range paths {
		byDate[i] = dated{p, nameDate.FindString(path.Base(p))}
	}
	slices.SortFunc(byDate, func(a, b dated) int {
		if c := cmp.Compare(b.date, a.date); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	kept := make([]string, max)
	for i := range kept {
		kept[i] = byDate[i].path
	}
	slices.Sort(kept)
	return kept
}

// open does what both backends do first: a logger when none is given, a
// validator required (nothing is written unchecked), the layout of the
// content and media folders, and the tree's root, absolute and with its
// symbolic links resolved (the paths refused on disk are judged from it).
func open(dir, content, media string, maxMedia int64, v cms.Validator, log **slog.Logger) (string, layout, error) {
	if *log == nil {
		*log = slog.New(slog.DiscardHandler)
	}
	if v == nil {
		return "", layout{}, errors.New("cms: a validator is required: nothing is written unchecked")
	}
	l, err := newLayout(content, media, maxMedia)
	if err != nil {
		return "", layout{}, fmt.Errorf("cms: %w", err)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", layout{}, fmt.Errorf("cms: %w", err)
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", layout{}, fmt.Errorf("cms: %w", err)
	}
	return root, l, nil
}
