package generator

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// RoutePath is the file that serves a route: /news -> news/index.html.
func RoutePath(route string) string {
	r := strings.Trim(route, "/")
	if r == "" {
		return "index.html"
	}
	return filepath.Join(filepath.FromSlash(r), "index.html")
}

// notFoundPages are the 404 pages hosts serve: the site's, and the
// payment bodies' (netlify.toml and internal/web use them).
var notFoundPages = []string{"/404.html", bodyNotFoundPath}

// Verify checks that every route has its page and the 404 pages exist,
// and returns how many HTML pages the site has.
func Verify(outDir string, routes []string) (int, error) {
	var missing []string
	for _, r := range append(routes, notFoundPages...) {
		p := RoutePath(r)
		if strings.HasSuffix(r, ".html") {
			p = filepath.FromSlash(strings.TrimPrefix(r, "/"))
		}
		st, err := os.Stat(filepath.Join(outDir, p))
		if err != nil || st.Size() == 0 {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("built site lacks %d route(s): %s", len(missing), strings.Join(missing, ", "))
	}
	n := 0
	err := filepath.WalkDir(outDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			n++
		}
		return err
	})
	return n, err
}
