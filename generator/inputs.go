package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regpulse/generator/render"
	"slices"
	"time"
)

// inputsHash is the hash of everything a build's output depends on: the
// content, templates and islands' assets, the options, the as-of date,
// the stored summaries, the stamps of the stored extracted obligations
// and the program itself (a new generator may render the same inputs
// differently). The files are hashed as the record knows (nil: none; a
// file it does not know is read here).
func inputsHash(opts Options, stamps map[string]string, rec *render.Record) (string, error) {
	h := sha256.New()
	sums, err := json.Marshal(opts.Summaries) // maps marshal in key order
	if err != nil {
		return "", err
	}
	prog, err := render.ProgramHash()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "program %s\nbaseURL %q\nsupportEmail %q\nunpublished %t\nasOf %s\nactiveUsers %d\nsummaries %s\nobligations %d\n",
		prog, opts.BaseURL, opts.SupportEmail, opts.IncludeUnpublished, opts.Now().UTC().Format(time.DateOnly), opts.ActiveUsers, sums, len(stamps))
	// the store's extracted obligations by their stamps (extractedObligations):
	// at 100,000 circulars they can be millions
	for _, id := range slices.Sorted(maps.Keys(stamps)) {
		fmt.Fprintf(h, "%q %q\n", id, stamps[id])
	}
	for _, dir := range []string{opts.ContentDir, opts.TemplatesDir, opts.AssetsDir} {
		fmt.Fprintf(h, "dir %s\n", dir)
		if err := render.HashFiles(h, dir, rec); err != nil {
			return "", err
		}
	}
	// what /admin and /media publish of their folders
	for _, d := range []struct {
		dir   string
		files func(string) ([]string, error)
	}{{opts.MediaDir, mediaFiles}, {opts.DecapDir, decapFiles}} {
		fmt.Fprintf(h, "dir %s\n", d.dir)
		names, err := d.files(d.dir)
		if err != nil {
			return "", err
		}
		if err := render.HashNamed(h, d.dir, names, rec); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
