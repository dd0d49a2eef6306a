package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regpulse/generator/render"
	"time"
)

// inputsHash is the hash of everything a build's output depends on: the
// content, templates and islands' assets, the options, the as-of date,
// the stored summaries and the program itself (a new generator may render
// the same inputs differently). content are the content's files as the
// catalog read them (nil: none; a file it did not read is read here).
func inputsHash(opts Options, content *render.FileSums) (string, error) {
	h := sha256.New()
	sums, err := json.Marshal(opts.Summaries) // maps marshal in key order
	if err != nil {
		return "", err
	}
	obs, err := json.Marshal(opts.Obligations)
	if err != nil {
		return "", err
	}
	prog, err := render.ProgramHash()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "program %s\nbaseURL %q\nsupportEmail %q\nunpublished %t\nasOf %s\nactiveUsers %d\nsummaries %s\nobligations %s\n",
		prog, opts.BaseURL, opts.SupportEmail, opts.IncludeUnpublished, opts.Now().UTC().Format(time.DateOnly), opts.ActiveUsers, sums, obs)
	for _, d := range []struct {
		dir  string
		read *render.FileSums
	}{{opts.ContentDir, content}, {opts.TemplatesDir, nil}, {opts.AssetsDir, nil}} {
		fmt.Fprintf(h, "dir %s\n", d.dir)
		if err := render.HashFiles(h, d.dir, d.read); err != nil {
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
		if err := render.HashNamed(h, d.dir, names); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
