package generator

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"regpulse/internal/web"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listing is every file under dir/sub, relative to dir, sorted.
func listing(t *testing.T, dir, sub string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(filepath.Join(dir, sub), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// /admin holds the gate, the generated config.yml and only Decap's files
// that run (no source maps, no cms.js copy); /media the media folder's
// images and PDFs; both are served with their headers, /admin under its
// own policy, and kept out of the sitemap and robots' reach. A media
// change is a change of the build's inputs.
func TestBuild_AdminAndMedia(t *testing.T) {
	tmp := t.TempDir()
	media, decap := filepath.Join(tmp, "media"), filepath.Join(tmp, "decap")
	writeFiles(t, media, map[string]string{
		"README.md": "# media\n", ".gitkeep": "", "a.png": "png", "docs/b.pdf": "%PDF", "c.JPG": "jpg",
	})
	writeFiles(t, decap, map[string]string{
		"decap-cms.js": "decap", "decap-cms.js.map": "map", "decap-cms.js.LICENSE.txt": "licence",
		"103.decap-cms.js": "chunk", "103.decap-cms.js.map": "map", "cms.js": "old name", "103.cms.js": "old chunk",
		"dd5d52671a5763720504.wasm": "wasm", "cms.css": "css",
	})
	out := filepath.Join(tmp, "public")
	opts := buildOptions(out, fixtureContent, templatesDir, fixtureNow)
	opts.MediaDir, opts.DecapDir = media, decap
	if _, err := Build(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	want := []string{"admin/103.decap-cms.js", "admin/config.yml", "admin/dd5d52671a5763720504.wasm", "admin/decap-cms.js",
		"admin/decap-cms.js.LICENSE.txt", "admin/gate.js", "admin/index.html"}
	if got := listing(t, out, "admin"); !slices.Equal(got, want) {
		t.Errorf("admin/ = %q, want %q", got, want)
	}
	if got, want := listing(t, out, "media"), []string{"media/a.png", "media/c.JPG", "media/docs/b.pdf"}; !slices.Equal(got, want) {
		t.Errorf("media/ = %q, want %q", got, want)
	}

	site, err := web.NewSite(out)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			t.Errorf("GET %s = %d", path, rec.Code)
		}
		return rec
	}
	for _, path := range []string{"/admin/", "/admin/config.yml", "/admin/decap-cms.js"} {
		h := get(path).Header()
		if got := h.Get("Content-Security-Policy"); got != adminCSP {
			t.Errorf("%s: CSP %q, want /admin's", path, got)
		}
		if h.Get("Cache-Control") != "no-cache" || h.Get("X-Robots-Tag") != "noindex, nofollow" {
			t.Errorf("%s: Cache-Control %q, X-Robots-Tag %q", path, h.Get("Cache-Control"), h.Get("X-Robots-Tag"))
		}
	}
	if ct := get("/admin/config.yml").Header().Get("Content-Type"); ct != "text/yaml; charset=utf-8" {
		t.Errorf("config.yml: Content-Type %q", ct)
	}
	page := get("/admin/").Body.String()
	for _, s := range []string{`<link href="/admin/config.yml" type="text/yaml" rel="cms-config-url">`, `<script src="/admin/gate.js"`, `noindex`} {
		if !strings.Contains(page, s) {
			t.Errorf("/admin/ lacks %s", s)
		}
	}
	if csp := get("/").Header().Get("Content-Security-Policy"); csp == adminCSP || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("the site's pages got /admin's policy: %q", csp)
	}
	if got := get("/media/docs/b.pdf").Body.String(); got != "%PDF" {
		t.Errorf("/media/docs/b.pdf = %q", got)
	}
	if robots := get("/robots.txt").Body.String(); !strings.Contains(robots, "Disallow: /admin/") {
		t.Errorf("robots.txt = %q", robots)
	}
	err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, "sitemap") {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), "/admin") {
				t.Errorf("%s names /admin", p)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	// A new media file is published by the next build.
	writeFiles(t, media, map[string]string{"d.webp": "webp"})
	res, err := Build(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Unchanged {
		t.Error("a media file added: the build took its inputs as unchanged")
	}
	if _, err := os.Stat(filepath.Join(out, "media", "d.webp")); err != nil {
		t.Error(err)
	}

	// A type that is not media fails the build, naming the file.
	writeFiles(t, media, map[string]string{"x.svg": "<svg/>"})
	if _, err := Build(t.Context(), opts); err == nil || !strings.Contains(err.Error(), "media/x.svg: not an allowed media type") {
		t.Errorf("an SVG in media: err = %v", err)
	}
}
