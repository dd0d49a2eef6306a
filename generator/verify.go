package generator

import (
	"fmt"
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

// verify checks that the build's files (what the publisher took) hold
// every route's page and the 404 pages, and returns how many HTML pages
// the site has.
func verify(files map[string]fileSum, routes []string) (int, error) {
	var missing []string
	for _, r := range append(routes, notFoundPages...) {
		p := filepath.ToSlash(RoutePath(r))
		if strings.HasSuffix(r, ".html") {
			p = strings.TrimPrefix(r, "/")
		}
		if files[p].Size == 0 {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("built site lacks %d route(s): %s", len(missing), strings.Join(missing, ", "))
	}
	return (&manifest{Files: files}).pages(), nil
}
