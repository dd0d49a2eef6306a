package cmsconfig

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

//go:embed admin/index.html admin/gate.js
var adminFS embed.FS

// AdminFiles are /admin's own files, by their path under /admin: the
// page that signs the editor in and loads Decap (index.html, gate.js),
// and Decap's configuration (config.yml).
func AdminFiles(config []byte) (map[string][]byte, error) {
	out := map[string][]byte{"config.yml": config}
	for _, name := range []string{"index.html", "gate.js"} {
		data, err := adminFS.ReadFile("admin/" + name)
		if err != nil {
			return nil, err
		}
		out[name] = data
	}
	return out, nil
}

// decapFile are the files of Decap's build (node_modules/decap-cms/dist)
// that /admin serves: the script, the chunks it loads beside itself
// (webpack's public path is the script's folder), its WebAssembly and its
// licence notices. Not the source maps, nor cms.js and its chunks (the
// same build under an older name).
var decapFile = regexp.MustCompile(`^(decap-cms\.js|[0-9]+\.decap-cms\.js|[0-9a-f]+\.wasm|decap-cms\.js\.LICENSE\.txt)$`)

// DecapFiles are the names of the files of Decap's build in dir that
// /admin serves, sorted; an error when dir has no decap-cms.js.
func DecapFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && decapFile.MatchString(e.Name()) {
			out = append(out, e.Name())
		}
	}
	if !slices.Contains(out, "decap-cms.js") {
		return nil, fmt.Errorf("%s: no decap-cms.js (run npm ci in cms/)", dir)
	}
	slices.Sort(out)
	return out, nil
}

// MediaTypes are the file types the media folder may hold, by extension:
// images and PDFs. Not SVG: served from the site's origin it can run
// script.
var MediaTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".avif": "image/avif", ".pdf": "application/pdf",
}

// MediaFile says whether the media folder's file name is published:
// false for what is not media (a README, a dot file), an error for a
// type not allowed.
func MediaFile(name string) (bool, error) {
	base := filepath.Base(name)
	if strings.HasPrefix(base, ".") || strings.EqualFold(base, "README.md") {
		return false, nil
	}
	if _, ok := MediaTypes[strings.ToLower(filepath.Ext(base))]; !ok {
		exts := make([]string, 0, len(MediaTypes))
		for e := range MediaTypes {
			exts = append(exts, e)
		}
		slices.Sort(exts)
		return false, fmt.Errorf("%s: not an allowed media type (%s)", name, strings.Join(exts, ", "))
	}
	return true, nil
}
