package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"regpulse/internal/catalog"
)

// Where drafts go. Files in content/circulars stay the editors' surface;
// the store (Options.Items) is ingest's memory of every instrument and
// copy it has seen, and the queue of drafts for a run with no content
// directory (a function on a static host): `regpulse ingest pull` writes
// the queued drafts as files. With both, a draft is a file and a row.

// Variants of a copy (catalog.SourceForms, and primary for a first copy).
const variantPrimary = "primary"

// variantOf says what a copy of first is: the Hindi text, the PDF, the
// press release, or a repost.
func variantOf(title, link, firstLink string) string {
	for _, r := range title {
		if unicode.Is(unicode.Devanagari, r) {
			return "hindi"
		}
	}
	lower := strings.ToLower(link)
	switch {
	case strings.HasSuffix(lower, ".pdf") && !strings.HasSuffix(strings.ToLower(firstLink), ".pdf"):
		return "pdf"
	case strings.Contains(lower, "press"):
		return "press-release"
	}
	return "repost"
}

// draft writes e: a file when there is a content directory, a row when
// there is a store (queued when there is no file). It returns the file's
// path ("" when queued), the row's id and the text.
func (r *runner) draft(ctx context.Context, e entry, id Identity) (path string, rowID int64, text []byte, err error) {
	text, err = e.render(r.opts.Now())
	if err != nil {
		return "", 0, nil, err
	}
	if r.opts.ContentDir != "" {
		if path, err = r.write(e, text); err != nil {
			return "", 0, nil, err
		}
	}
	if r.opts.Items != nil {
		status := StatusWritten
		if path == "" {
			status = StatusQueued
		}
		ids, err := r.opts.Items.AddIngestItems(ctx, []Item{{Feed: e.feed, Identity: id, URL: e.link, Title: e.title,
			Variant: variantPrimary, Status: status, FilePath: path, Draft: string(text), FirstSeen: r.opts.Now()}})
		if err != nil {
			return path, 0, text, err
		}
		rowID = ids[0]
	}
	return path, rowID, text, nil
}

// alsoPublished adds link (what it is: as) to the first copy's draft when
// that draft is still as ingest wrote it: a queued row, or a file whose
// bytes are the text written. An edited or published file is never
// rewritten; added false says the link waits for the editor.
func (r *runner) alsoPublished(ctx context.Context, first *Known, link, as string) (added bool, err error) {
	if first.Draft == nil {
		return false, nil
	}
	if first.Path != "" {
		if r.opts.ContentDir == "" {
			return false, nil
		}
		full := filepath.Join(filepath.Dir(r.opts.ContentDir), filepath.FromSlash(first.Path))
		cur, err := os.ReadFile(full)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && !bytes.Equal(cur, first.Draft)) {
			return false, nil // removed, edited or published since
		}
		if err != nil {
			return false, err
		}
	}
	text, ok := addSourceLink(first.Draft, link, sourceLinkKind(first.Source, link), as)
	if !ok {
		return false, nil
	}
	if first.Path != "" {
		full := filepath.Join(filepath.Dir(r.opts.ContentDir), filepath.FromSlash(first.Path))
		if err := replaceFile(full, text); err != nil {
			return false, err
		}
	}
	if r.opts.Items != nil && first.ID != 0 {
		if err := r.opts.Items.SetIngestDraft(ctx, first.ID, string(text)); err != nil {
			return false, err
		}
	}
	first.Draft = text
	return true, nil
}

// sourceLinkKind is official for a link on source's own site, else an
// unofficial copy (a repost elsewhere): the loader checks the same.
func sourceLinkKind(source, link string) string {
	if on, known := catalog.OnRegulatorSite(source, link); on || !known {
		return "official"
	}
	return "unofficial"
}

// addSourceLink adds {url, kind, as} to the additionalSourceUrls of a
// draft ingest rendered (the list is the front matter's last field, so
// the item goes before the closing "---").
func addSourceLink(draft []byte, link, kind, as string) ([]byte, bool) {
	end := bytes.Index(draft, []byte("\n---\n"))
	if !bytes.HasPrefix(draft, []byte("---\n")) || end < 0 {
		return nil, false
	}
	quoted, err := yaml.Marshal(link)
	if err != nil {
		return nil, false
	}
	var b bytes.Buffer
	b.Write(draft[:end+1])
	if !bytes.Contains(draft[:end], []byte("\nadditionalSourceUrls:\n")) {
		b.WriteString("additionalSourceUrls:\n")
	}
	fmt.Fprintf(&b, "  - url: %s\n    kind: %s\n    as: %s\n", bytes.TrimSpace(quoted), kind, as)
	b.Write(draft[end+1:])
	return b.Bytes(), true
}

// replaceFile rewrites path whole (a temporary file renamed over it).
func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ingest-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Pull writes the drafts queued in the store as files under contentDir's
// circulars/ (a run with no content directory queued them) and returns
// what it wrote.
func Pull(ctx context.Context, items Items, contentDir string) ([]Written, error) {
	if st, err := os.Stat(contentDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("content directory %q not found", contentDir)
	}
	rows, err := items.IngestItems(ctx)
	if err != nil {
		return nil, err
	}
	r := &runner{opts: Options{ContentDir: contentDir}, dir: filepath.Join(contentDir, "circulars")}
	var out []Written
	for _, it := range rows {
		if it.Status != StatusQueued {
			continue
		}
		e := entry{title: it.Title, source: it.Source, date: it.Date}
		path, err := r.write(e, []byte(it.Draft))
		if err != nil {
			return out, fmt.Errorf("draft %d (%q): %w", it.ID, it.Title, err)
		}
		if err := items.MarkIngestWritten(ctx, it.ID, path); err != nil {
			return out, err
		}
		out = append(out, Written{Feed: it.Feed, Path: path, Title: it.Title})
	}
	return out, nil
}
