// Package web serves the built site (public/) the way the static host does:
// pretty URLs without redirects, the 404 page with status 404, the headers
// of the site's _headers file, and long caching for hashed assets. The site
// can be swapped for a freshly built one while serving.
package web

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"sync/atomic"
)

// Site serves one built site directory at a time.
type Site struct {
	cur atomic.Pointer[tree]
}

type tree struct {
	dir      string
	fsys     fs.FS
	rules    []headerRule
	notFound []byte
}

type headerRule struct {
	pattern string // "/*", "/assets/*" or an exact path
	header  http.Header
}

// NewSite serves dir, which must hold a built site (index.html, 404.html).
func NewSite(dir string) (*Site, error) {
	s := &Site{}
	if err := s.Swap(dir); err != nil {
		return nil, err
	}
	return s, nil
}

// Dir is the directory being served.
func (s *Site) Dir() string { return s.cur.Load().dir }

// Swap starts serving dir. Requests already running finish on the old tree.
func (s *Site) Swap(dir string) error {
	fsys := os.DirFS(dir)
	if _, err := fs.Stat(fsys, "index.html"); err != nil {
		return fmt.Errorf("%s is not a built site (no index.html): run `regpulse build`", dir)
	}
	notFound, err := fs.ReadFile(fsys, "404.html")
	if err != nil {
		return fmt.Errorf("%s has no 404.html: %w", dir, err)
	}
	rules, err := readHeaders(fsys)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	s.cur.Store(&tree{dir: dir, fsys: fsys, rules: rules, notFound: notFound})
	return nil
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t := s.cur.Load()
	urlPath := path.Clean("/" + r.URL.Path)
	t.applyHeaders(w.Header(), urlPath)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := t.resolve(urlPath)
	if !ok {
		// The site's paths are lower case; /payment-body/RBI or /News are
		// typed by people, so send them to the page they meant.
		if lower := strings.ToLower(urlPath); lower != urlPath {
			if _, ok := t.resolve(lower); ok {
				target := lower
				if r.URL.RawQuery != "" {
					target += "?" + r.URL.RawQuery
				}
				http.Redirect(w, r, target, http.StatusMovedPermanently)
				return
			}
		}
		t.serveNotFound(w, urlPath)
		return
	}
	f, err := t.fsys.Open(name)
	if err != nil {
		t.serveNotFound(w, urlPath)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		t.serveNotFound(w, urlPath)
		return
	}
	if w.Header().Get("Cache-Control") == "" {
		// HTML and unhashed files: always revalidate, so a rebuild shows at once.
		w.Header().Set("Cache-Control", "public, max-age=0, must-revalidate")
	}
	http.ServeContent(w, r, name, st.ModTime(), f.(io.ReadSeeker))
}

// resolve maps a URL path to a file: /news and /news/ serve news/index.html
// without a redirect, as the site's routes are written without a slash.
func (t *tree) resolve(urlPath string) (string, bool) {
	rel := strings.TrimPrefix(urlPath, "/")
	if rel == "" {
		return "index.html", true
	}
	if rel == "_headers" {
		return "", false
	}
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") && part != ".well-known" {
			return "", false // dotfiles and anything inside dot-folders (.vite, .git)
		}
	}
	if st, err := fs.Stat(t.fsys, rel); err == nil {
		if !st.IsDir() {
			return rel, true
		}
		rel = path.Join(rel, "index.html")
		if _, err := fs.Stat(t.fsys, rel); err == nil {
			return rel, true
		}
	}
	return "", false
}

// serveNotFound answers 404 with the nearest 404.html above the path (as
// /payment-body/404.html for an unknown payment body), else the site's.
// netlify.toml gives the static host the same rule.
func (t *tree) serveNotFound(w http.ResponseWriter, urlPath string) {
	page := t.notFound
	for dir := path.Dir(urlPath); dir != "/" && dir != "."; dir = path.Dir(dir) {
		name := strings.TrimPrefix(dir, "/") + "/404.html"
		if _, ok := t.resolve("/" + name); !ok {
			continue
		}
		if b, err := fs.ReadFile(t.fsys, name); err == nil {
			page = b
			break
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusNotFound)
	w.Write(page)
}

func (t *tree) applyHeaders(h http.Header, urlPath string) {
	for _, rule := range t.rules {
		if matchRule(rule.pattern, urlPath) {
			for k, vs := range rule.header {
				h[k] = append([]string(nil), vs...) // the rule's slice must not be shared with responses
			}
		}
	}
}

func matchRule(pattern, urlPath string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(urlPath, prefix) || urlPath+"/" == prefix
	}
	return pattern == urlPath
}

// readHeaders parses the Netlify _headers file the generator writes: a
// path pattern on its own line, then indented "Name: value" lines.
func readHeaders(fsys fs.FS) ([]headerRule, error) {
	data, err := fs.ReadFile(fsys, "_headers")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rules []headerRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case line[0] != ' ' && line[0] != '\t':
			rules = append(rules, headerRule{pattern: trimmed, header: http.Header{}})
		default:
			k, v, ok := strings.Cut(trimmed, ":")
			if !ok || len(rules) == 0 {
				return nil, fmt.Errorf("_headers:%d: want \"Name: value\" under a path", n)
			}
			rules[len(rules)-1].header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	return rules, sc.Err()
}
