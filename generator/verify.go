package generator

import (
	"fmt"
	"path/filepath"
	"regpulse/generator/render"
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

// verify checks that the build's files (what the output took) hold
// every route's page and the 404 pages, and returns how many HTML pages
// the site has.
func verify(out *render.Output, routes []string) (int, error) {
	var missing []string
	for _, r := range append(routes, notFoundPages...) {
		p := filepath.ToSlash(RoutePath(r))
		if strings.HasSuffix(r, ".html") {
			p = strings.TrimPrefix(r, "/")
		}
		if !out.Has(p) {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("built site lacks %d route(s): %s", len(missing), strings.Join(missing, ", "))
	}
	return out.Pages(), nil
}
