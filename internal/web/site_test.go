package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Bodies of the fixture site, so tests can compare what was served.
const (
	indexHTML    = "<!doctype html><title>Home</title><h1>home page</h1>\n"
	notFoundHTML = "<!doctype html><title>404 Page Not Found</title><h1>not found page</h1>\n"
	newsHTML     = "<!doctype html><title>News</title><h1>news page</h1>\n"
	bodyHTML     = "<!doctype html><title>RBI</title><h1>rbi page</h1>\n"
	noBodyHTML   = "<!doctype html><title>Payment Body Not Found</title><h1>no such body</h1>\n"
	appJS        = "console.log(\"app\");\n"
	robotsTXT    = "User-agent: *\nAllow: /\n"
	dotEnv       = "SECRET=do-not-serve\n"
	outsideTXT   = "outside the site root\n"

	csp       = "default-src 'self'; script-src 'self'"
	immutable = "public, max-age=31536000, immutable"
	revalid   = "public, max-age=0, must-revalidate"

	fixtureHeaders = "# written by the generator\n" +
		"/*\n" +
		"  Content-Security-Policy: " + csp + "\n" +
		"  X-Content-Type-Options: nosniff\n" +
		"\n" +
		"/assets/*\n" +
		"  Cache-Control: " + immutable + "\n" +
		"/news\n" +
		"  X-Exact: news\n"
)

// fixtureModTime is the modification time of every fixture file, so
// conditional requests are deterministic.
var fixtureModTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// pngBytes is the start of a PNG file: enough for content sniffing.
var pngBytes = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"

// fixtureFiles is a built site as the generator writes it, plus files that
// must never be served.
func fixtureFiles() map[string]string {
	return map[string]string{
		"index.html":                  indexHTML,
		"404.html":                    notFoundHTML,
		"news/index.html":             newsHTML,
		"payment-body/rbi/index.html": bodyHTML,
		"payment-body/404.html":       noBodyHTML,
		"assets/app-abc123.js":        appJS,
		"assets/logo-abc123.png":      pngBytes,
		"assets/.vite/manifest.json":  `{"secret":"manifest"}`,
		"robots.txt":                  robotsTXT,
		"empty/note.txt":              "a directory without index.html\n",
		".env":                        dotEnv,
		".hidden/index.html":          "<h1>hidden dir</h1>\n",
		".git/config":                 "[core]\n",
		"_headers":                    fixtureHeaders,
	}
}

// writeSite writes files (slash-separated names) under dir.
func writeSite(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, fixtureModTime, fixtureModTime); err != nil {
			t.Fatal(err)
		}
	}
}

// newFixtureDir writes the fixture site into <tmp>/public and a file
// outside it at <tmp>/secret.txt (the target of traversal attempts).
func newFixtureDir(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeSite(t, root, map[string]string{"secret.txt": outsideTXT, "passwd": outsideTXT})
	dir := filepath.Join(root, "public")
	writeSite(t, dir, fixtureFiles())
	return dir
}

// newFixtureSite serves the fixture site.
func newFixtureSite(t *testing.T) *Site {
	t.Helper()
	s, err := NewSite(newFixtureDir(t))
	if err != nil {
		t.Fatalf("NewSite: %v", err)
	}
	return s
}

// do sends one request straight to h and returns the recorded response.
func do(t *testing.T, h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, vs := range header {
		req.Header[k] = vs
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// reply is the status and body of a response, for cmp.Diff.
type reply struct {
	Status int
	Body   string
}

func replyOf(w *httptest.ResponseRecorder) reply {
	return reply{w.Code, w.Body.String()}
}

func TestSite_ServeHTTP(t *testing.T) {
	t.Parallel()
	s := newFixtureSite(t)

	t.Run("OK", func(t *testing.T) {
		for _, tt := range []struct {
			target      string
			body        string
			contentType string
			cache       string
		}{
			{"/", indexHTML, "text/html; charset=utf-8", revalid},
			{"/index.html", indexHTML, "text/html; charset=utf-8", revalid},
			{"/news", newsHTML, "text/html; charset=utf-8", revalid},
			{"/news/", newsHTML, "text/html; charset=utf-8", revalid},
			{"/news/index.html", newsHTML, "text/html; charset=utf-8", revalid},
			{"/news?page=2", newsHTML, "text/html; charset=utf-8", revalid},
			{"//news//", newsHTML, "text/html; charset=utf-8", revalid},
			{"/assets/app-abc123.js", appJS, "text/javascript; charset=utf-8", immutable},
			{"/assets/logo-abc123.png", pngBytes, "image/png", immutable},
			{"/robots.txt", robotsTXT, "text/plain; charset=utf-8", revalid},
			{"/404.html", notFoundHTML, "text/html; charset=utf-8", revalid},
		} {
			t.Run(tt.target, func(t *testing.T) {
				w := do(t, s, http.MethodGet, tt.target, nil)
				if w.Code != http.StatusOK {
					t.Fatalf("status = %d, want 200 (Location %q)", w.Code, w.Header().Get("Location"))
				}
				if loc := w.Header().Get("Location"); loc != "" {
					t.Errorf("Location = %q, want no redirect", loc)
				}
				if got := w.Body.String(); got != tt.body {
					t.Errorf("body = %q, want %q", got, tt.body)
				}
				if got := w.Header().Get("Content-Type"); got != tt.contentType {
					t.Errorf("Content-Type = %q, want %q", got, tt.contentType)
				}
				if diff := cmp.Diff([]string{tt.cache}, w.Header().Values("Cache-Control")); diff != "" {
					t.Errorf("Cache-Control, want exactly %q (-want +got):\n%s", tt.cache, diff)
				}
				if got := w.Header().Get("Content-Security-Policy"); got != csp {
					t.Errorf("Content-Security-Policy = %q, want %q", got, csp)
				}
				if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
					t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
				}
				if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(tt.body)) {
					t.Errorf("Content-Length = %q, want %d", got, len(tt.body))
				}
				if got := w.Header().Get("Last-Modified"); got != fixtureModTime.Format(http.TimeFormat) {
					t.Errorf("Last-Modified = %q, want %q", got, fixtureModTime.Format(http.TimeFormat))
				}
			})
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		for _, tt := range []struct {
			name   string
			target string
		}{
			{"UnknownPath", "/nope"},
			{"UnknownNested", "/news/nope"},
			{"UnknownAsset", "/assets/app-missing.js"},
			{"UnknownTrailingSlash", "/nope/"},
			{"DirWithoutIndex", "/empty"},
			{"DirWithoutIndexSlash", "/empty/"},
			{"AssetsDir", "/assets"},
			{"AssetsDirSlash", "/assets/"},
			{"HeadersFile", "/_headers"},
			{"HeadersFileSlash", "/_headers/"},
			{"HeadersFileDotted", "/news/../_headers"},
			{"HeadersFileEscaped", "/%5fheaders"},
			{"Dotfile", "/.env"},
			{"DotfileEscaped", "/%2eenv"},
			{"DotDir", "/.hidden"},
			{"DotDirSlash", "/.hidden/"},
			{"DotDirGit", "/.git"},
			{"TraversalParent", "/../secret.txt"},
			{"TraversalEtcPasswd", "/../etc/passwd"},
			{"TraversalDeep", "/../../../../../../etc/passwd"},
			{"TraversalNested", "/news/../../secret.txt"},
			{"TraversalEncodedDots", "/%2e%2e/x"},
			{"TraversalEncodedDotsSecret", "/%2e%2e/secret.txt"},
			{"TraversalEncodedSlash", "/..%2fsecret.txt"},
			{"TraversalEncodedBoth", "/%2e%2e%2f%2e%2e%2fpasswd"},
			{"TraversalBackslash", "/..\\secret.txt"},
			{"NulByte", "/index.html%00"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				for _, method := range []string{http.MethodGet, http.MethodHead} {
					w := do(t, s, method, tt.target, nil)
					if w.Code != http.StatusNotFound {
						t.Fatalf("%s %s: status = %d, want 404 (body %q)", method, tt.target, w.Code, w.Body.String())
					}
					if method == http.MethodGet && w.Body.String() != notFoundHTML {
						t.Errorf("%s %s: body = %q, want the 404 page", method, tt.target, w.Body.String())
					}
					if got := w.Header().Get("Content-Type"); got != "text/html; charset=utf-8" {
						t.Errorf("%s %s: Content-Type = %q, want text/html; charset=utf-8", method, tt.target, got)
					}
					// A 404 must not be cached for a year, even under /assets/*.
					if diff := cmp.Diff([]string{"no-cache"}, w.Header().Values("Cache-Control")); diff != "" {
						t.Errorf("%s %s: Cache-Control, want exactly no-cache (-want +got):\n%s", method, tt.target, diff)
					}
					if got := w.Header().Get("Content-Security-Policy"); got != csp {
						t.Errorf("%s %s: Content-Security-Policy = %q, want %q", method, tt.target, got, csp)
					}
					if got := w.Header().Get("Location"); got != "" {
						t.Errorf("%s %s: Location = %q, want no redirect", method, tt.target, got)
					}
				}
			})
		}
	})

	t.Run("NearestNotFound", func(t *testing.T) {
		for _, target := range []string{"/payment-body/xyz", "/payment-body/xyz/", "/payment-body/a/b"} {
			if diff := cmp.Diff(reply{http.StatusNotFound, noBodyHTML}, replyOf(do(t, s, http.MethodGet, target, nil))); diff != "" {
				t.Errorf("GET %s, want 404 with payment-body/404.html (-want +got):\n%s", target, diff)
			}
		}
		// the folder's own 404 page is a page like any other
		if w := do(t, s, http.MethodGet, "/payment-body/404.html", nil); w.Code != http.StatusOK {
			t.Errorf("GET /payment-body/404.html = %d, want 200", w.Code)
		}
	})

	t.Run("CaseRedirect", func(t *testing.T) {
		type redirect struct {
			Status   int
			Location string
		}
		for _, tt := range []struct{ target, want string }{
			{"/payment-body/RBI", "/payment-body/rbi"},
			{"/payment-body/Rbi/", "/payment-body/rbi"},
			{"/Payment-Body/rBI?sort=impact", "/payment-body/rbi?sort=impact"},
			{"/NEWS", "/news"},
		} {
			w := do(t, s, http.MethodGet, tt.target, nil)
			if diff := cmp.Diff(redirect{http.StatusMovedPermanently, tt.want}, redirect{w.Code, w.Header().Get("Location")}); diff != "" {
				t.Errorf("GET %s, want 301 to %s (-want +got):\n%s", tt.target, tt.want, diff)
			}
		}
		// never towards what must not be served, nor for unknown paths
		for _, target := range []string{"/_HEADERS", "/.ENV", "/.Hidden/index.html", "/NOPE", "/payment-body/XYZ"} {
			if w := do(t, s, http.MethodGet, target, nil); w.Code != http.StatusNotFound {
				t.Errorf("GET %s = %d (Location %q), want 404", target, w.Code, w.Header().Get("Location"))
			}
		}
	})

	// Files inside a dot-directory are served, because resolve only checks
	// the last path element for a leading dot (site.go:113).
	t.Run("ErrNotFoundInsideDotDir", func(t *testing.T) {
		for _, target := range []string{
			"/.hidden/index.html",
			"/.git/config",
			"/assets/.vite/manifest.json",
		} {
			t.Run(target, func(t *testing.T) {
				w := do(t, s, http.MethodGet, target, nil)
				if w.Code != http.StatusNotFound {
					t.Errorf("regression, fixed BUG site.go:113 (tree.resolve): GET %s = %d %q, want the 404 page: only path.Base is checked for a leading dot, so files inside dot-directories are served", target, w.Code, w.Body.String())
				}
				if w.Body.String() != notFoundHTML {
					t.Errorf("body = %q, want the 404 page", w.Body.String())
				}
			})
		}
	})

	t.Run("Head", func(t *testing.T) {
		for _, tt := range []struct {
			target string
			body   string
		}{
			{"/", indexHTML},
			{"/news", newsHTML},
			{"/assets/app-abc123.js", appJS},
		} {
			t.Run(tt.target, func(t *testing.T) {
				w := do(t, s, http.MethodHead, tt.target, nil)
				if w.Code != http.StatusOK {
					t.Fatalf("status = %d, want 200", w.Code)
				}
				if w.Body.Len() != 0 {
					t.Errorf("HEAD body = %q, want empty", w.Body.String())
				}
				if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(tt.body)) {
					t.Errorf("Content-Length = %q, want %d", got, len(tt.body))
				}
				if got := w.Header().Get("Content-Security-Policy"); got != csp {
					t.Errorf("Content-Security-Policy = %q, want %q", got, csp)
				}
			})
		}
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		for _, method := range []string{
			http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
			http.MethodOptions, http.MethodConnect, http.MethodTrace, "PROPFIND",
		} {
			t.Run(method, func(t *testing.T) {
				for _, target := range []string{"/", "/news", "/nope"} {
					w := do(t, s, method, target, nil)
					if w.Code != http.StatusMethodNotAllowed {
						t.Errorf("%s %s: status = %d, want 405", method, target, w.Code)
					}
					if got := w.Header().Get("Allow"); got != "GET, HEAD" {
						t.Errorf("%s %s: Allow = %q, want %q", method, target, got, "GET, HEAD")
					}
					if strings.Contains(w.Body.String(), "page") {
						t.Errorf("%s %s: body = %q, want no page content", method, target, w.Body.String())
					}
				}
			})
		}
	})

	// The /* headers (CSP, nosniff) belong on every response; the 405
	// returns before applyHeaders runs (site.go:71-75).
	t.Run("ErrMethodNotAllowedHeaders", func(t *testing.T) {
		w := do(t, s, http.MethodPost, "/", nil)
		if got := w.Header().Get("Content-Security-Policy"); got != csp {
			t.Errorf("regression, fixed BUG site.go:71-75 (Site.ServeHTTP): POST / answers 405 without the _headers /* rules (Content-Security-Policy = %q, X-Content-Type-Options = %q): the method check returns before t.applyHeaders", got, w.Header().Get("X-Content-Type-Options"))
		}
	})

	t.Run("HeaderRules", func(t *testing.T) {
		for _, tt := range []struct {
			target string
			exact  string // X-Exact from the "/news" rule
		}{
			{"/news", "news"},
			{"/news/", "news"},
			{"/news/index.html", ""},
			{"/newsletter", ""},
			{"/", ""},
		} {
			t.Run(tt.target, func(t *testing.T) {
				w := do(t, s, http.MethodGet, tt.target, nil)
				if got := w.Header().Get("X-Exact"); got != tt.exact {
					t.Errorf("X-Exact = %q, want %q", got, tt.exact)
				}
			})
		}
	})

	t.Run("NotModified", func(t *testing.T) {
		for _, target := range []string{"/", "/news", "/assets/app-abc123.js"} {
			t.Run(target, func(t *testing.T) {
				w := do(t, s, http.MethodGet, target, http.Header{
					"If-Modified-Since": {fixtureModTime.Format(http.TimeFormat)},
				})
				if w.Code != http.StatusNotModified {
					t.Fatalf("status = %d, want 304", w.Code)
				}
				if w.Body.Len() != 0 {
					t.Errorf("body = %q, want empty", w.Body.String())
				}
				if got := w.Header().Get("Content-Security-Policy"); got != csp {
					t.Errorf("Content-Security-Policy = %q, want %q", got, csp)
				}
			})
		}
		t.Run("Modified", func(t *testing.T) {
			w := do(t, s, http.MethodGet, "/", http.Header{
				"If-Modified-Since": {fixtureModTime.Add(-time.Hour).Format(http.TimeFormat)},
			})
			if diff := cmp.Diff(reply{http.StatusOK, indexHTML}, replyOf(w)); diff != "" {
				t.Errorf("want 200 and the page (-want +got):\n%s", diff)
			}
		})
	})

	t.Run("Range", func(t *testing.T) {
		w := do(t, s, http.MethodGet, "/assets/app-abc123.js", http.Header{"Range": {"bytes=0-6"}})
		if w.Code != http.StatusPartialContent {
			t.Fatalf("status = %d, want 206", w.Code)
		}
		if got, want := w.Body.String(), appJS[:7]; got != want {
			t.Errorf("body = %q, want %q", got, want)
		}
	})

	// Header values from _headers are shared between requests; one
	// response's changes must not leak into the next.
	t.Run("HeadersNotShared", func(t *testing.T) {
		s := newFixtureSite(t) // this test may corrupt its site
		w := do(t, s, http.MethodGet, "/", nil)
		w.Header()["Content-Security-Policy"][0] = "mutated"
		w.Header().Add("X-Content-Type-Options", "extra")
		w2 := do(t, s, http.MethodGet, "/", nil)
		if diff := cmp.Diff([]string{"nosniff"}, w2.Header().Values("X-Content-Type-Options")); diff != "" {
			t.Errorf("X-Content-Type-Options, want exactly nosniff (-want +got):\n%s", diff)
		}
		if got := w2.Header().Get("Content-Security-Policy"); got != csp {
			t.Errorf("regression, fixed BUG site.go:140 (tree.applyHeaders): h[k] = vs stores the rule's own slice in the response, so writing into one response's header values (%q) changes the rule for later requests", got)
		}
	})
}

func TestNewSite(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		dir := newFixtureDir(t)
		s, err := NewSite(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Dir(); got != dir {
			t.Errorf("Dir() = %q, want %q", got, dir)
		}
	})

	t.Run("Err", func(t *testing.T) {
		for _, tt := range []struct {
			name    string
			remove  []string          // fixture files to leave out
			extra   map[string]string // files to add or replace
			missing bool              // the directory does not exist
			wantErr []string          // substrings of the error, besides dir
		}{
			{name: "ErrNoDir", missing: true, wantErr: []string{"index.html", "regpulse build"}},
			{name: "ErrNoIndex", remove: []string{"index.html"}, wantErr: []string{"index.html", "not a built site"}},
			{name: "ErrNo404", remove: []string{"404.html"}, wantErr: []string{"404.html"}},
			{name: "Err404IsDir", remove: []string{"404.html"}, extra: map[string]string{"404.html/index.html": "x"}, wantErr: []string{"404.html"}},
			{
				name:    "ErrHeaderBeforePath",
				extra:   map[string]string{"_headers": "  X-Frame-Options: DENY\n/*\n  X-A: b\n"},
				wantErr: []string{"_headers:1", "under a path"},
			},
			{
				name:    "ErrHeaderBeforePathAfterComment",
				extra:   map[string]string{"_headers": "# comment\n\n\tX-Frame-Options: DENY\n"},
				wantErr: []string{"_headers:3"},
			},
			{
				name:    "ErrHeaderWithoutColon",
				extra:   map[string]string{"_headers": "/*\n  X-A: b\n  no colon here\n"},
				wantErr: []string{"_headers:3", "Name: value"},
			},
			{
				name:    "ErrHeadersIsDir",
				remove:  []string{"_headers"},
				extra:   map[string]string{"_headers/x": "x"},
				wantErr: []string{"_headers"},
			},
		} {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				dir := filepath.Join(t.TempDir(), "public")
				if !tt.missing {
					files := fixtureFiles()
					for _, name := range tt.remove {
						delete(files, name)
					}
					for name, body := range tt.extra {
						files[name] = body
					}
					writeSite(t, dir, files)
				}
				s, err := NewSite(dir)
				if err == nil {
					t.Fatalf("NewSite = %v, nil; want an error", s)
				}
				if s != nil {
					t.Errorf("NewSite returned a site with error %v", err)
				}
				msg := err.Error()
				if !strings.Contains(msg, dir) {
					t.Errorf("error %q does not name the directory %s", msg, dir)
				}
				for _, want := range tt.wantErr {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q does not contain %q", msg, want)
					}
				}
			})
		}
	})
}

func TestSite_Headers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		headers string // "" leaves the _headers file out
		target  string
		want    map[string][]string // nil value: header absent
	}{
		{
			name:   "NoHeadersFile",
			target: "/assets/app-abc123.js",
			want: map[string][]string{
				"Cache-Control":           {revalid},
				"Content-Security-Policy": nil,
			},
		},
		{
			name:    "Empty",
			headers: "\n\n",
			target:  "/",
			want:    map[string][]string{"Cache-Control": {revalid}},
		},
		{
			name:    "CommentsAndBlankLines",
			headers: "# top\n\n/*\n  # inside\n\n  X-A: 1\n",
			target:  "/",
			want:    map[string][]string{"X-A": {"1"}},
		},
		{
			name:    "TabIndent",
			headers: "/*\n\tX-Tab: yes\n",
			target:  "/news",
			want:    map[string][]string{"X-Tab": {"yes"}},
		},
		{
			name:    "CRLF",
			headers: "/*\r\n  X-A: crlf\r\n/assets/*\r\n  Cache-Control: " + immutable + "\r\n",
			target:  "/assets/app-abc123.js",
			want:    map[string][]string{"X-A": {"crlf"}, "Cache-Control": {immutable}},
		},
		{
			name:    "ValueWithColon",
			headers: "/*\n  Link: <https://example.com/a>; rel=preconnect\n",
			target:  "/",
			want:    map[string][]string{"Link": {"<https://example.com/a>; rel=preconnect"}},
		},
		{
			name:    "SpacesTrimmed",
			headers: "  \n/*   \n   X-A   :   spaced   \n",
			target:  "/",
			want:    map[string][]string{"X-A": {"spaced"}},
		},
		{
			name:    "CanonicalName",
			headers: "/*\n  x-lower-case: v\n",
			target:  "/",
			want:    map[string][]string{"X-Lower-Case": {"v"}},
		},
		{
			name:    "RepeatedName",
			headers: "/*\n  Link: <a>\n  Link: <b>\n",
			target:  "/",
			want:    map[string][]string{"Link": {"<a>", "<b>"}},
		},
		{
			name:    "PrefixRuleMatchesDirItself",
			headers: "/news/*\n  X-N: 1\n",
			target:  "/news",
			want:    map[string][]string{"X-N": {"1"}},
		},
		{
			name:    "PrefixRuleNotSibling",
			headers: "/new/*\n  X-N: 1\n",
			target:  "/news",
			want:    map[string][]string{"X-N": nil},
		},
		{
			name:    "ExactRuleOtherPath",
			headers: "/about\n  X-N: 1\n",
			target:  "/news",
			want:    map[string][]string{"X-N": nil},
		},
		{
			name:    "LaterRuleWins",
			headers: "/*\n  X-A: all\n/news/*\n  X-A: news\n",
			target:  "/news/",
			want:    map[string][]string{"X-A": {"news"}},
		},
		{
			name:    "RuleCacheControlOnHTML",
			headers: "/news\n  Cache-Control: no-store\n",
			target:  "/news",
			want:    map[string][]string{"Cache-Control": {"no-store"}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files := fixtureFiles()
			delete(files, "_headers")
			if tt.headers != "" {
				files["_headers"] = tt.headers
			}
			writeSite(t, dir, files)
			s, err := NewSite(dir)
			if err != nil {
				t.Fatalf("NewSite: %v", err)
			}
			w := do(t, s, http.MethodGet, tt.target, nil)
			if w.Code != http.StatusOK {
				t.Fatalf("GET %s = %d, want 200", tt.target, w.Code)
			}
			got := map[string][]string{}
			for k := range tt.want {
				got[k] = w.Header().Values(k)
			}
			// EquateEmpty: an absent header (nil) and an empty list are alike.
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("headers of GET %s (-want +got):\n%s", tt.target, diff)
			}
		})
	}
}

func TestSite_Swap(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		s := newFixtureSite(t)
		dir := filepath.Join(t.TempDir(), "public.2")
		writeSite(t, dir, map[string]string{
			"index.html":       "<h1>new home</h1>",
			"404.html":         "<h1>new 404</h1>",
			"about/index.html": "<h1>about</h1>",
			"_headers":         "/*\n  X-Version: 2\n",
		})
		if err := s.Swap(dir); err != nil {
			t.Fatalf("Swap: %v", err)
		}
		if got := s.Dir(); got != dir {
			t.Errorf("Dir() = %q, want %q", got, dir)
		}
		for _, tt := range []struct {
			target string
			status int
			body   string
		}{
			{"/", 200, "<h1>new home</h1>"},
			{"/about", 200, "<h1>about</h1>"},
			{"/news", 404, "<h1>new 404</h1>"},
		} {
			w := do(t, s, http.MethodGet, tt.target, nil)
			if diff := cmp.Diff(reply{tt.status, tt.body}, replyOf(w)); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", tt.target, diff)
			}
			if got := w.Header().Get("X-Version"); got != "2" {
				t.Errorf("GET %s: X-Version = %q, want the new _headers", tt.target, got)
			}
			if got := w.Header().Get("Content-Security-Policy"); got != "" {
				t.Errorf("GET %s: Content-Security-Policy = %q, want the old _headers gone", tt.target, got)
			}
		}
	})

	t.Run("Err", func(t *testing.T) {
		for _, tt := range []struct {
			name  string
			files map[string]string // nil: the directory does not exist
		}{
			{"ErrNoDir", nil},
			{"ErrEmptyDir", map[string]string{}},
			{"ErrNoIndex", map[string]string{"404.html": "x"}},
			{"ErrNo404", map[string]string{"index.html": "x"}},
			{"ErrBadHeaders", map[string]string{"index.html": "x", "404.html": "x", "_headers": "  X-A: b\n"}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				s := newFixtureSite(t)
				old := s.Dir()
				dir := filepath.Join(t.TempDir(), "next")
				if tt.files != nil {
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					writeSite(t, dir, tt.files)
				}
				err := s.Swap(dir)
				if err == nil {
					t.Fatal("Swap = nil, want an error")
				}
				if !strings.Contains(err.Error(), dir) {
					t.Errorf("error %q does not name %s", err, dir)
				}
				if got := s.Dir(); got != old {
					t.Errorf("Dir() = %q after a failed Swap, want %q", got, old)
				}
				w := do(t, s, http.MethodGet, "/news", nil)
				if diff := cmp.Diff(reply{200, newsHTML}, replyOf(w)); diff != "" {
					t.Errorf("GET /news after failed Swap, want the old site (-want +got):\n%s", diff)
				}
				if got := w.Header().Get("Content-Security-Policy"); got != csp {
					t.Errorf("Content-Security-Policy = %q, want the old _headers", got)
				}
			})
		}
	})

	// Requests racing with swaps see one whole site or the other (run
	// with -race to check the pointer swap).
	t.Run("Concurrent", func(t *testing.T) {
		a := newFixtureDir(t)
		b := filepath.Join(t.TempDir(), "b")
		writeSite(t, b, map[string]string{
			"index.html":      "B home",
			"404.html":        "B 404",
			"news/index.html": "B news",
			"_headers":        "/*\n  Content-Security-Policy: B\n",
		})
		s, err := NewSite(a)
		if err != nil {
			t.Fatal(err)
		}
		valid := map[string]bool{
			newsHTML + "|" + csp: true,
			"B news|B":           true,
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 2 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					w := do(t, s, http.MethodGet, "/news", nil)
					got := w.Body.String() + "|" + w.Header().Get("Content-Security-Policy")
					if w.Code != 200 || !valid[got] {
						t.Errorf("GET /news during swaps = %d %q, want one whole site", w.Code, got)
						return
					}
				}
			})
		}
		for i := range 20 {
			dir := a
			if i%2 == 0 {
				dir = b
			}
			if err := s.Swap(dir); err != nil {
				t.Error(err)
			}
		}
		close(stop)
		wg.Wait()
	})
}
