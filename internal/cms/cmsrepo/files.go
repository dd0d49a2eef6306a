package cmsrepo

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"regpulse/internal/cms"
)

// FilesConfig configures the backend over an editor's own working tree
// (`regpulse cms`).
type FilesConfig struct {
	Dir        string // the working tree's root
	ContentDir string // "content" when empty
	MediaDir   string // "media" when empty
	MaxMedia   int64  // the largest media file in bytes, 10 MB when 0
	Validate   cms.Validator
	Log        *slog.Logger
}

// FilesBackend answers the proxy protocol's file actions over a working
// tree, as decap-server's local_fs mode: writes go to the files, with the
// same path, media and content checks as the server, and no commits (the
// editor commits with git as usual).
type FilesBackend struct {
	cfg  FilesConfig
	l    layout
	root string
	mu   sync.Mutex
}

// Files opens the working tree at cfg.Dir.
func Files(cfg FilesConfig) (*FilesBackend, error) {
	root, l, err := open(cfg.Dir, cfg.ContentDir, cfg.MediaDir, cfg.MaxMedia, cfg.Validate, &cfg.Log)
	if err != nil {
		return nil, err
	}
	return &FilesBackend{cfg: cfg, l: l, root: root}, nil
}

// Do answers one action for who.
func (f *FilesBackend) Do(ctx context.Context, who cms.Person, req cms.Request) (any, error) {
	if who == (cms.Person{}) {
		return nil, cms.Errorf(http.StatusForbidden, "who edits is not known: set git's user.name and user.email")
	}
	p, err := parseParams(req)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch req.Action {
	case "info":
		return map[string]any{"repo": filepath.Base(f.root), "publish_modes": []string{"simple"}, "type": "local_fs"}, nil
	case "entriesByFolder":
		if err := f.l.folder(p.Folder, areaContent); err != nil {
			return nil, err
		}
		paths, err := f.list(p.Folder, p.Extension, p.Depth)
		if err != nil {
			return nil, err
		}
		paths = newest(paths, MaxListed)
		refs := make([]fileRef, len(paths))
		for i, p := range paths {
			refs[i] = fileRef{Path: p}
		}
		return f.entries(refs)
	case "entriesByFiles":
		return f.entries(p.Files)
	case "getEntry":
		es, err := f.entries([]fileRef{{Path: p.Path}})
		if err != nil {
			return nil, err
		}
		return es[0], nil
	case "persistEntry":
		return f.persistEntry(ctx, p)
	case "getMedia":
		if err := f.l.folder(p.MediaFolder, areaMedia); err != nil {
			return nil, err
		}
		paths, err := f.list(p.MediaFolder, "", 1)
		if err != nil {
			return nil, err
		}
		out := make([]mediaFile, 0, len(paths))
		for _, mp := range paths {
			m, err := f.media(mp)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		return out, nil
	case "getMediaFile":
		return f.media(p.Path)
	case "persistMedia":
		if p.Asset == nil {
			return nil, cms.Errorf(http.StatusBadRequest, "persistMedia: no asset")
		}
		data, err := f.checkAsset(*p.Asset)
		if err != nil {
			return nil, err
		}
		if err := f.write(ctx, map[string][]byte{p.Asset.Path: data}); err != nil {
			return nil, err
		}
		return f.media(p.Asset.Path)
	case "deleteFile":
		return f.delete(ctx, []string{p.Path})
	case "deleteFiles":
		return f.delete(ctx, p.Paths)
	case "getDeployPreview":
		return nil, nil
	case "unpublishedEntries":
		// A configuration with the editorial workflow still loads: there
		// are no drafts on an editor's own machine.
		return []string{}, nil
	case "unpublishedEntry":
		return nil, cms.Errorf(http.StatusNotFound, "no unpublished entries in a working tree")
	}
	return nil, cms.Errorf(http.StatusBadRequest, "unknown action %q", req.Action)
}

// disk checks p and answers where it is on disk.
func (f *FilesBackend) disk(p string, a area) (string, error) {
	if err := f.l.file(p, a); err != nil {
		return "", err
	}
	if err := noSymlinkOnDisk(f.root, p); err != nil {
		return "", err
	}
	return filepath.Join(f.root, filepath.FromSlash(p)), nil
}

func (f *FilesBackend) list(folder, ext string, depth int) ([]string, error) {
	if err := noSymlinkOnDisk(f.root, folder); err != nil {
		return nil, err
	}
	var out []string
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		if depth <= 0 {
			return nil
		}
		des, err := os.ReadDir(filepath.Join(f.root, filepath.FromSlash(dir)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, de := range des {
			p := dir + "/" + de.Name()
			switch {
			case de.Type()&fs.ModeSymlink != 0 || strings.EqualFold(de.Name(), ".git"):
			case de.IsDir():
				if err := walk(p, depth-1); err != nil {
					return err
				}
			case de.Type().IsRegular() && strings.HasSuffix(de.Name(), ext):
				out = append(out, p)
			}
		}
		return nil
	}
	err := walk(folder, depth)
	sort.Strings(out)
	return out, err
}

func (f *FilesBackend) entries(files []fileRef) ([]entryFile, error) {
	out := make([]entryFile, 0, len(files))
	for _, fr := range files {
		disk, err := f.disk(fr.Path, areaContent)
		if err != nil {
			return nil, err
		}
		e := entryFile{File: entryMeta{Path: fr.Path, Label: fr.Label}}
		data, err := os.ReadFile(disk)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			s, id := string(data), plumbing.ComputeHash(plumbing.BlobObject, data).String()
			e.Data, e.File.ID = &s, &id
		}
		out = append(out, e)
	}
	return out, nil
}

func (f *FilesBackend) media(p string) (mediaFile, error) {
	disk, err := f.disk(p, areaMedia)
	if err != nil {
		return mediaFile{}, err
	}
	data, err := os.ReadFile(disk)
	if errors.Is(err, fs.ErrNotExist) {
		return mediaFile{}, cms.Errorf(http.StatusNotFound, "%s: no such file", p)
	}
	if err != nil {
		return mediaFile{}, err
	}
	return newMediaFile(p, plumbing.ComputeHash(plumbing.BlobObject, data).String(), data), nil
}

func (f *FilesBackend) checkAsset(a asset) ([]byte, error) {
	if err := f.l.file(a.Path, areaMedia); err != nil {
		return nil, err
	}
	data, err := a.bytes()
	if err != nil {
		return nil, err
	}
	return data, f.l.checkMedia(a.Path, data)
}

func (f *FilesBackend) persistEntry(ctx context.Context, p *params) (message, error) {
	files, err := p.dataFiles()
	if err != nil {
		return message{}, err
	}
	changes := map[string][]byte{}
	for _, df := range files {
		if err := f.l.file(df.Path, areaContent); err != nil {
			return message{}, err
		}
		if err := f.l.checkSize(df.Path, len(df.Raw)); err != nil {
			return message{}, err
		}
		to := df.Path
		if df.NewPath != "" && df.NewPath != df.Path {
			if err := f.l.file(df.NewPath, areaContent); err != nil {
				return message{}, err
			}
			to = df.NewPath
			if _, err := os.Lstat(filepath.Join(f.root, filepath.FromSlash(df.Path))); err == nil {
				changes[df.Path] = nil
			}
		}
		changes[to] = []byte(df.Raw)
	}
	for _, a := range p.Assets {
		data, err := f.checkAsset(a)
		if err != nil {
			return message{}, err
		}
		changes[a.Path] = data
	}
	if err := f.write(ctx, changes); err != nil {
		return message{}, err
	}
	return message{Message: "entry persisted"}, nil
}

func (f *FilesBackend) delete(ctx context.Context, paths []string) (message, error) {
	if len(paths) == 0 {
		return message{}, cms.Errorf(http.StatusBadRequest, "no paths to delete")
	}
	changes := map[string][]byte{}
	for _, p := range paths {
		changes[p] = nil
	}
	if err := f.write(ctx, changes); err != nil {
		return message{}, err
	}
	return message{Message: "deleted files " + strings.Join(paths, ", ")}, nil
}

// write checks every path, validates the change, then writes it: all or
// (short of a disk error) nothing.
func (f *FilesBackend) write(ctx context.Context, changes map[string][]byte) error {
	disks := map[string]string{}
	for p := range changes {
		d, err := f.disk(p, areaAny)
		if err != nil {
			return err
		}
		disks[p] = d
	}
	if err := invalid(ctx, f.cfg.Validate.Validate(ctx, changes)); err != nil {
		return err
	}
	for p, data := range changes {
		d := disks[p]
		if data == nil {
			if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			return err
		}
		// The folders just made could not be links; the file itself is
		// checked again so a link made meanwhile is not followed.
		if err := noSymlinkOnDisk(f.root, p); err != nil {
			return err
		}
		if err := os.WriteFile(d, data, 0o644); err != nil {
			return err
		}
	}
	f.cfg.Log.Info("cms files written", "files", len(changes))
	return nil
}
