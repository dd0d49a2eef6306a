package render

import (
	"errors"
	"os"
	"path/filepath"
)

// Workspace is a build's work folder beside its output: the staging
// folder of its Output, and the packs its runs read the texts and cards
// from. Close removes it.
type Workspace struct {
	dir string
	// Texts is the site's texts/ folder in every run (TextsFolder): the
	// site adds each page's text as it renders it, and no run holds the
	// texts in memory.
	Texts *Pack
	cards *Pack // the cards the runs of cards rendered (cards.go)
	views *Pack // the views' JSON through Hugo's runs (Views.spill)
	pages *Pack // the pages' content files through Hugo's runs (spillPages)
}

// TextsFolder is where the workspace's texts are in the temporary site:
// a page's template reads its text as TextsFolder/{name}.
const TextsFolder = "texts"

// NewWorkspace makes a work folder in parent (the output's parent, so
// that the staged files are renamed into the output, never copied).
func NewWorkspace(parent string) (*Workspace, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(parent, ".regpulse-build-")
	if err != nil {
		return nil, err
	}
	w := &Workspace{dir: dir}
	if w.Texts, err = CreatePack(filepath.Join(dir, "texts.pack")); err == nil {
		if w.cards, err = CreatePack(filepath.Join(dir, "cards.pack")); err == nil {
			if w.views, err = CreatePack(filepath.Join(dir, "views.pack")); err == nil {
				w.pages, err = CreatePack(filepath.Join(dir, "pages.pack"))
			}
		}
	}
	if err != nil {
		return nil, errors.Join(err, w.Close())
	}
	return w, nil
}

// Staging is where the build's output is staged until it commits.
func (w *Workspace) Staging() string { return filepath.Join(w.dir, "public") }

// siteDir is the temporary Hugo site's folder; it is in memory only
// (newSiteFs).
func (w *Workspace) siteDir() string { return filepath.Join(w.dir, "site") }

// Close closes the packs and removes the folder.
func (w *Workspace) Close() error {
	var errs []error
	for _, p := range []*Pack{w.Texts, w.cards, w.views, w.pages} {
		if p != nil {
			errs = append(errs, p.Close())
		}
	}
	return errors.Join(append(errs, os.RemoveAll(w.dir))...)
}
