package generator

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/cmsconfig"
)

// The editors' CMS at /admin (Decap, with RegPulse's Go backend at
// /api/cms) and the media folder its editors upload to, both published
// with the site.

// AdminPath is where the CMS is served; kept out of the sitemap and of
// search engines (robots.txt, X-Robots-Tag).
const AdminPath = "/admin/"

// Repository folder names the CMS writes to (its config.yml names them).
const (
	repoContentDir = "content"
	repoMediaDir   = "media"
)

// publishAdmin publishes /admin: the sign-in gate, config.yml generated
// from the catalog's schema (with the catalog's Master Directions' files,
// which are edited as files), and Decap's build when it is there (make
// installs it: cms/).
func (b *build) publishAdmin() error {
	var dirs, versions []string
	for _, d := range b.cat.Directions {
		dirs = append(dirs, d.Slug)
		for _, v := range d.Versions {
			rel := strings.TrimPrefix(v.Path, path.Base(b.opts.ContentDir)+"/"+catalog.DirectionsFolder+"/")
			versions = append(versions, strings.TrimSuffix(rel, ".md"))
		}
	}
	config, err := cmsconfig.Config(catalog.Schema(b.opts.Now()), cmsconfig.Options{SiteURL: b.opts.BaseURL,
		ContentDir: repoContentDir, MediaDir: repoMediaDir, Directions: dirs, DirectionVersions: versions})
	if err != nil {
		return err
	}
	files, err := cmsconfig.AdminFiles(config)
	if err != nil {
		return err
	}
	for name, data := range files {
		if err := b.out.Publish(path.Join("admin", name), data); err != nil {
			return err
		}
	}
	decap, err := decapFiles(b.opts.DecapDir)
	if err != nil {
		return err
	}
	for _, name := range decap {
		data, err := os.ReadFile(filepath.Join(b.opts.DecapDir, name))
		if err != nil {
			return err
		}
		if err := b.out.Publish(path.Join("admin", name), data); err != nil {
			return err
		}
	}
	return nil
}

// decapFiles are the files of Decap's build to publish; none when dir
// does not exist (a build without the cms/ project: /admin's gate says
// the editor could not be loaded).
func decapFiles(dir string) ([]string, error) {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	return cmsconfig.DecapFiles(dir)
}

// mediaFiles are the media folder's files to publish under /media, their
// paths relative to it: images and PDFs (cmsconfig.MediaFile); a file of
// another type fails the build. No folder: none.
func mediaFiles(dir string) ([]string, error) {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("media/%s: not a regular file", filepath.ToSlash(rel))
		}
		ok, err := cmsconfig.MediaFile("media/" + filepath.ToSlash(rel))
		if ok {
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	return out, err
}

// publishMedia publishes the media folder under /media.
func (b *build) publishMedia() error {
	files, err := mediaFiles(b.opts.MediaDir)
	if err != nil {
		return err
	}
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(b.opts.MediaDir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		if err := b.out.Publish(path.Join("media", rel), data); err != nil {
			return err
		}
	}
	return nil
}
