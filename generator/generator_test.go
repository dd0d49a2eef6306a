package generator

import (
	"cmp"
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"regpulse/internal/catalog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/web"

	"golang.org/x/net/html"
)

const (
	fixtureContent = "testdata/content"
	templatesDir   = "../templates"
)

// fixtureAssets is a fake Vite output: testdata/assets plus a chunk for
// every island in islands/src/islands in each language's manifest, so
// templates that use a new island build in tests without running Vite.
var fixtureAssets = func() string {
	dir, err := os.MkdirTemp("", "regpulse-assets-")
	if err != nil {
		panic(err)
	}
	if err := os.CopyFS(dir, os.DirFS("testdata/assets")); err != nil {
		panic(err)
	}
	manifests, _ := filepath.Glob(filepath.Join(dir, ".vite", "manifest*.json"))
	for _, mpath := range manifests {
		raw, err := os.ReadFile(mpath)
		if err != nil {
			panic(err)
		}
		manifest := map[string]map[string]any{}
		if err := json.Unmarshal(raw, &manifest); err != nil {
			panic(err)
		}
		islands, _ := filepath.Glob("../islands/src/islands/*.tsx")
		for _, src := range islands {
			name := strings.TrimSuffix(filepath.Base(src), ".tsx")
			if strings.HasSuffix(name, ".test") {
				continue
			}
			file := name + "-test.js"
			manifest["src/islands/"+name+".tsx"] = map[string]any{"file": file, "src": "src/islands/" + name + ".tsx",
				"isDynamicEntry": true, "imports": []string{"_react-test.js"}}
			if err := os.WriteFile(filepath.Join(dir, file), []byte("export default function(){}\n"), 0o644); err != nil {
				panic(err)
			}
		}
		raw, _ = json.Marshal(manifest)
		if err := os.WriteFile(mpath, raw, 0o644); err != nil {
			panic(err)
		}
	}
	return dir
}()

// fixtureNow is the clock of test builds: the fixture's PA guidelines
// (2020-03-17) are then in the impact tracker's 365-day window.
var fixtureNow = time.Date(2021, 3, 1, 9, 0, 0, 0, time.UTC)

func buildSite(t *testing.T, content, templates string) (string, *Result) {
	t.Helper()
	return buildSiteAt(t, content, templates, fixtureNow)
}

// buildSiteAt builds content with templates as of now. A build of the
// repository's own content and templates (fixtureContent, ../content,
// templatesDir: no test edits them) is made once per date and shared by
// the tests that read it: a dozen tests read the fixture's, each build a
// second or more. The output and Result are the callers' to read, never
// to change.
func buildSiteAt(t *testing.T, content, templates string, now time.Time) (string, *Result) {
	t.Helper()
	if !slices.Contains([]string{fixtureContent, "../content"}, content) || templates != templatesDir {
		return buildInto(t, filepath.Join(t.TempDir(), "public"), content, templates, now)
	}
	key := content + "\x00" + now.Format(time.RFC3339Nano)
	shared.mu.Lock()
	b, ok := shared.builds[key]
	if !ok {
		b = &sharedBuild{}
		shared.builds[key] = b
	}
	shared.mu.Unlock()
	b.once.Do(func() {
		out, err := os.MkdirTemp(shared.dir, "public-")
		if err != nil {
			t.Fatal(err)
		}
		b.out = filepath.Join(out, "public")
		b.res, b.err = Build(t.Context(), buildOptions(b.out, content, templates, now))
	})
	if b.err != nil {
		t.Fatalf("Build: %v", b.err)
	}
	return b.out, b.res
}

// shared are the builds buildSiteAt shares, under dir (TestMain removes it).
var shared = struct {
	mu     sync.Mutex
	dir    string
	builds map[string]*sharedBuild
}{builds: map[string]*sharedBuild{}}

type sharedBuild struct {
	once sync.Once
	out  string
	res  *Result
	err  error
}

// buildInto builds content with templates as of now into out.
func buildInto(t *testing.T, out, content, templates string, now time.Time) (string, *Result) {
	t.Helper()
	res, err := Build(t.Context(), buildOptions(out, content, templates, now))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return out, res
}

// buildOptions are the test builds' options.
func buildOptions(out, content, templates string, now time.Time) Options {
	opts := Options{ContentDir: content, TemplatesDir: templates, AssetsDir: fixtureAssets, OutDir: out,
		BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test", Now: func() time.Time { return now }}
	if content == fixtureContent {
		// what a store would add (its entries name the fixture's circulars)
		opts.SourceFreshness, opts.PublicationLog = fixtureSourceFreshness(now), fixturePublicationLog(now)
	}
	return opts
}

// fixtureSourceFreshness is what a store would say of ingest as of now
// (project-made feed names): RBI read two hours ago, NPCI stale.
func fixtureSourceFreshness(now time.Time) []catalog.SourceFreshness {
	return []catalog.SourceFreshness{
		{Source: "NPCI", Feeds: catalog.TextList{"npci-fixture-listing"}, LastSuccess: now.Add(-30 * time.Hour), Stale: true},
		{Source: "RBI", Feeds: catalog.TextList{"rbi-fixture-feed"}, LastSuccess: now.Add(-2 * time.Hour)},
	}
}

// fixturePublicationLog is a store's newest log entries as of now,
// newest first, over the fixture's circulars.
func fixturePublicationLog(now time.Time) []catalog.PublicationEntry {
	return []catalog.PublicationEntry{
		{Seq: 3, At: now.Add(-time.Hour), Event: "revised", Kind: "circular", Slug: "npci-2024-03-28-upi-ids", Source: "NPCI",
			Title: "UPI transaction IDs", Path: "/circulars/npci-2024-03-28-upi-ids", BeforeHash: "0123456789abcdef", AfterHash: "fedcba9876543210", SupersededBy: catalog.TextList{}},
		{Seq: 2, At: now.Add(-2 * time.Hour), Event: "published", Kind: "circular", Slug: "rbi-2021-09-07-tokenisation", Source: "RBI",
			Title: "Tokenisation of card data on devices (description)", Path: "/circulars/rbi-2021-09-07-tokenisation", AfterHash: "00112233", SupersededBy: catalog.TextList{}},
		{Seq: 1, At: now.Add(-3 * time.Hour), Event: "baseline", Kind: "catalog", SupersededBy: catalog.TextList{},
			Note: "The log begins here. The catalog held 2 circulars, 0 Master Directions and 0 of their versions; each change from now on is logged."},
	}
}

// TestAll builds the fixture tree and the real content, then walks every
// HTML page of the output through the site's own handler: each page has a
// title and one h1, every internal link and asset resolves (fragments
// too), and nothing is mis-escaped.
func TestAll(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		now           time.Time
	}{
		{"Fixture", fixtureContent, fixtureNow},
		// a date whose window holds high and medium impact circulars
		{"RealContent", "../content", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, res := buildSiteAt(t, tc.content, templatesDir, tc.now)
			if res.Pages < len(Routes(res.Catalog, tc.now)) {
				t.Errorf("built %d pages for %d routes", res.Pages, len(Routes(res.Catalog, tc.now)))
			}
			checkPages(t, out)
		})
	}
}

type pageInfo struct {
	title  string
	h1s    int
	ids    map[string]bool
	links  []string // internal href/src values, as written
	errors []string
}

var badEscapes = regexp.MustCompile(`ZgotmplZ|&amp;(amp|lt|gt|quot|#\d+);|&lt;/?[a-z]+|\{\{|\}\}|%!|<no value>|map\[`)

// checkPages serves the built site through internal/web, the handler
// `regpulse serve` uses, and checks every HTML page of it: each answers
// 200, and every internal link it holds answers 200 with the fragment's id
// on the page it reaches.
func checkPages(t *testing.T, out string) {
	t.Helper()
	site, err := web.NewSite(out)
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]*servedPage{} // by URL path
	serve := func(path string) *servedPage {
		if p, ok := served[path]; ok {
			return p
		}
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		p := &servedPage{status: rec.Code}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			p.info = parsePage(t, path, rec.Body.Bytes())
		}
		served[path] = p
		return p
	}
	var paths []string
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		paths = append(paths, pagePath(filepath.ToSlash(rel)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no pages built")
	}
	for _, path := range paths {
		page := serve(path)
		if page.status != http.StatusOK || page.info == nil {
			t.Errorf("GET %s = %d, want an HTML page", path, page.status)
			continue
		}
		info := page.info
		for _, e := range info.errors {
			t.Errorf("%s: %s", path, e)
		}
		if strings.TrimSpace(info.title) == "" || !strings.HasSuffix(info.title, "· RegPulse") {
			t.Errorf("%s: title %q, want \"... · RegPulse\"", path, info.title)
		}
		if info.h1s != 1 {
			t.Errorf("%s: %d h1 elements, want 1", path, info.h1s)
		}
		for _, link := range info.links {
			u, err := url.Parse(link)
			if err != nil {
				t.Errorf("%s: bad link %q: %v", path, link, err)
				continue
			}
			if strings.HasPrefix(u.Path, "/api/") {
				continue // the API's calls (the dashboard's downloads): TestOpenAPI checks they answer
			}
			target := page
			if u.Path != "" {
				if target = serve(u.Path); target.status != http.StatusOK {
					t.Errorf("%s: broken link %q: GET %s = %d", path, link, u.Path, target.status)
					continue
				}
			}
			if u.Fragment != "" && target.info != nil && !target.info.ids[u.Fragment] {
				t.Errorf("%s: link %q: no id %q on %s", path, link, u.Fragment, cmp.Or(u.Path, path))
			}
		}
	}
}

// servedPage is a page as the site handler answered it.
type servedPage struct {
	status int
	info   *pageInfo // nil unless HTML
}

// pagePath is the URL path that serves a built file: news/index.html is
// /news, 404.html is /404.html.
func pagePath(rel string) string {
	if rel == "index.html" {
		return "/"
	}
	if dir, ok := strings.CutSuffix(rel, "/index.html"); ok {
		return "/" + dir
	}
	return "/" + rel
}

func parsePage(t *testing.T, rel string, data []byte) *pageInfo {
	info := &pageInfo{ids: map[string]bool{}}
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	var walk func(n *html.Node, inTitle bool)
	walk = func(n *html.Node, inTitle bool) {
		switch n.Type {
		case html.TextNode:
			if inTitle {
				info.title += n.Data
			}
			if n.Parent != nil && n.Parent.Data != "script" && badEscapes.MatchString(n.Data) {
				info.errors = append(info.errors, "mis-escaped text: "+strings.TrimSpace(n.Data))
			}
		case html.ElementNode:
			if n.Data == "h1" {
				info.h1s++
			}
			for _, a := range n.Attr {
				if a.Key == "id" {
					if info.ids[a.Val] {
						info.errors = append(info.errors, "duplicate id "+a.Val)
					}
					info.ids[a.Val] = true
				}
				if badEscapes.MatchString(a.Val) && a.Key != "data-props" {
					info.errors = append(info.errors, "mis-escaped attribute "+a.Key+"="+a.Val)
				}
				if (a.Key == "href" || a.Key == "src") && (strings.HasPrefix(a.Val, "/") && !strings.HasPrefix(a.Val, "//") || strings.HasPrefix(a.Val, "#")) {
					info.links = append(info.links, a.Val)
				}
				if a.Key == "target" && a.Val == "_blank" && !slices.ContainsFunc(n.Attr, func(x html.Attribute) bool { return x.Key == "rel" && strings.Contains(x.Val, "noopener") }) {
					info.errors = append(info.errors, "target=_blank without rel=noopener")
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inTitle || (n.Type == html.ElementNode && n.Data == "title"))
		}
	}
	walk(doc, false)
	return info
}

func TestBuild_Fixture(t *testing.T) {
	out, res := buildSite(t, fixtureContent, templatesDir)
	read := func(p string) string { return readOut(t, out, p) }

	t.Run("CircularPage", func(t *testing.T) {
		page := read("circulars/rbi-2020-03-17-pa-guidelines/index.html")
		for _, want := range []string{
			"DPSS.CO.PD.No.1810/02.14.008/2019-20",
			"Guidelines on Regulation of Payment Aggregators &amp; Payment Gateways",
			"17 March 2020", "1 April 2020",
			`href="https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=11822&amp;Mode=0"`,
			"View on rbi.org.in", `href="https://example.org/pa-guidelines"`,
			"Non-bank aggregators need RBI authorisation &lt;and&gt; must not store card data.",
			"<strong>in their entirety</strong>", "<code>&lt;handle&gt;@valid</code>",
			`data-entity="Aggregator"`, "high Impact", "medium Impact", "Not assessed",
			`href="/circulars/rbi-2021-09-07-tokenisation"`, // related: same source
			`type="application/atom+xml" title="RegPulse: RBI circulars (Atom)" href="/feeds/rbi.atom"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("circular page lacks %q", want)
			}
		}
		if strings.Contains(page, "/circulars/npci-2024-03-28-upi-ids") {
			t.Error("unrelated NPCI/UPI circular listed as related")
		}
	})
	t.Run("DescriptiveTitle", func(t *testing.T) {
		page := read("circulars/rbi-2021-09-07-tokenisation/index.html")
		if !strings.Contains(page, "the regulator's own title was not found") || !strings.Contains(page, "Not found in our sources") {
			t.Error("descriptive title or missing number not explained")
		}
	})
	t.Run("CircularCardLinks", func(t *testing.T) {
		list := read("circulars/index.html")
		// With an official link the title opens it in a new tab; without, the page.
		if !regexp.MustCompile(`<a href="https://www.rbi.org.in/[^"]+" target="_blank" rel="noopener noreferrer"[^>]*>Guidelines on Regulation`).MatchString(list) {
			t.Error("card title does not open the official document")
		}
		if !strings.Contains(list, `<a href="/circulars/rbi-2021-09-07-tokenisation" class="hover:underline">Tokenisation`) {
			t.Error("card title without official link does not lead to the circular page")
		}
		if strings.Count(list, "data-circular=") != len(res.Catalog.Circulars) {
			t.Errorf("list shows %d cards for %d circulars", strings.Count(list, "data-circular="), len(res.Catalog.Circulars))
		}
	})
	t.Run("NoIslandNoReact", func(t *testing.T) {
		page := read("learning-videos/index.html")
		if strings.Contains(page, "loader-test.js") || strings.Contains(page, "react-test.js") {
			t.Error("a page without islands loads the islands loader")
		}
		if !strings.Contains(page, `src="/assets/shell-test.js"`) || !strings.Contains(page, `href="/assets/styles-test.css"`) {
			t.Error("shell script or styles missing")
		}
	})
	t.Run("Headers", func(t *testing.T) {
		h := read("_headers")
		hashes, err := inlineScriptHashes(out)
		if err != nil || len(hashes) != 2 {
			t.Fatalf("inline script hashes = %v, %v; want the theme script's and /search's", hashes, err)
		}
		for _, hash := range hashes {
			if !strings.Contains(h, "'"+hash+"'") {
				t.Errorf("_headers CSP lacks the inline script hash %s:\n%s", hash, h)
			}
		}
		for _, want := range []string{"X-Content-Type-Options: nosniff", "X-Frame-Options: DENY", "Referrer-Policy: strict-origin-when-cross-origin",
			"Strict-Transport-Security: max-age=31536000; includeSubDomains", "Permissions-Policy: ",
			"/assets/*\n  Cache-Control: public, max-age=31536000, immutable"} {
			if !strings.Contains(h, want) {
				t.Errorf("_headers lacks %q:\n%s", want, h)
			}
		}
		// _headers is the one place headers are written: the static host's
		// config must not repeat (and drift from) them.
		if toml, err := os.ReadFile("../netlify.toml"); err != nil || strings.Contains(string(toml), "[[headers]]") {
			t.Errorf("netlify.toml sets headers of its own (%v); write them in headers.go", err)
		}
	})
	t.Run("SitemapAndRobots", func(t *testing.T) {
		// sitemap.xml is the index; its sitemaps list the canonical URLs
		// (no trailing slash) with their content's date
		if idx := read("sitemap.xml"); !strings.Contains(idx, "<sitemapindex") || !strings.Contains(idx, "<loc>https://regpulse.test/sitemaps/1.xml</loc>") {
			t.Errorf("sitemap.xml is not an index of sitemaps/1.xml:\n%s", idx)
		}
		sm := read("sitemaps/1.xml")
		for _, want := range []string{"<loc>https://regpulse.test/circulars/rbi-2020-03-17-pa-guidelines</loc>\n    <lastmod>2020-03-17</lastmod>", "<loc>https://regpulse.test/news</loc>"} {
			if !strings.Contains(sm, want) {
				t.Errorf("sitemap lacks %s", want)
			}
		}
		if r := read("robots.txt"); !strings.Contains(r, "Sitemap: https://regpulse.test/sitemap.xml") || !strings.Contains(r, "Disallow: /api/") {
			t.Errorf("robots.txt = %q", r)
		}
	})
}

// TestFeeds checks every feed parses as what it claims and lists the
// right circulars, newest first.
func TestFeeds(t *testing.T) {
	out, _ := buildSite(t, fixtureContent, templatesDir)
	type entry struct {
		Title     string `xml:"title"`
		ID        string `xml:"id"`
		Updated   string `xml:"updated"`
		Published string `xml:"published"`
		Links     []struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Content struct {
			Type string `xml:"type,attr"`
			Body string `xml:",chardata"`
		} `xml:"content"`
	}
	type feed struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		Title   string   `xml:"title"`
		ID      string   `xml:"id"`
		Updated string   `xml:"updated"`
		Entries []entry  `xml:"entry"`
	}
	for _, tc := range []struct {
		file  string
		slugs []string
	}{
		{"circulars", []string{"npci-2024-03-28-upi-ids", "rbi-2021-09-07-tokenisation", "rbi-2020-03-17-pa-guidelines"}},
		{"rbi", []string{"rbi-2021-09-07-tokenisation", "rbi-2020-03-17-pa-guidelines"}},
		{"npci", []string{"npci-2024-03-28-upi-ids"}},
		{"sebi", nil},
	} {
		t.Run("Atom/"+tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(out, "feeds", tc.file+".atom"))
			if err != nil {
				t.Fatal(err)
			}
			var f feed
			if err := xml.Unmarshal(data, &f); err != nil {
				t.Fatalf("not Atom: %v", err)
			}
			if f.Title == "" || f.ID == "" || f.Updated == "" {
				t.Errorf("feed lacks title, id or updated: %+v", f)
			}
			if len(f.Entries) != len(tc.slugs) {
				t.Fatalf("%d entries, want %d", len(f.Entries), len(tc.slugs))
			}
			for i, e := range f.Entries {
				if e.Title == "" || !strings.HasPrefix(e.ID, "urn:uuid:") || e.Updated == "" || e.Published == "" {
					t.Errorf("entry %d lacks a required element: %+v", i, e)
				}
				if e.Content.Type != "html" || !strings.Contains(e.Content.Body, "<p>") {
					t.Errorf("entry %d content is not HTML: %+v", i, e.Content)
				}
				if len(e.Links) == 0 || e.Links[0].Href != "https://regpulse.test/circulars/"+tc.slugs[i] {
					t.Errorf("entry %d links %+v, want /circulars/%s", i, e.Links, tc.slugs[i])
				}
			}
		})
		t.Run("JSONFeed/"+tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(out, "feeds", tc.file+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var f struct {
				Version string `json:"version"`
				Title   string `json:"title"`
				FeedURL string `json:"feed_url"`
				Items   []struct {
					ID            string `json:"id"`
					URL           string `json:"url"`
					ContentHTML   string `json:"content_html"`
					DatePublished string `json:"date_published"`
				} `json:"items"`
			}
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatal(err)
			}
			if f.Version != "https://jsonfeed.org/version/1.1" || f.Title == "" || f.Items == nil {
				t.Errorf("not a JSON Feed 1.1: version %q title %q items %v", f.Version, f.Title, f.Items)
			}
			if len(f.Items) != len(tc.slugs) {
				t.Fatalf("%d items, want %d", len(f.Items), len(tc.slugs))
			}
			for i, it := range f.Items {
				if it.ID == "" || it.ContentHTML == "" || it.DatePublished == "" || !strings.HasSuffix(it.URL, "/circulars/"+tc.slugs[i]) {
					t.Errorf("item %d incomplete: %+v", i, it)
				}
			}
		})
	}
}

// copyTree copies a fixture so a test can break one file of it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestBuild_Errors(t *testing.T) {
	build := func(content, templates string) error {
		_, err := Build(t.Context(), Options{ContentDir: content, TemplatesDir: templates,
			AssetsDir: fixtureAssets, OutDir: filepath.Join(t.TempDir(), "public")})
		return err
	}
	t.Run("ErrContent", func(t *testing.T) {
		content := copyTree(t, fixtureContent)
		os.WriteFile(filepath.Join(content, "circulars", "npci-2024-03-28-upi-ids.md"), []byte("---\ntitle: x\nsource: XYZ\n---\nbody\n"), 0o644)
		err := build(content, templatesDir)
		if err == nil || !strings.Contains(err.Error(), "circulars/npci-2024-03-28-upi-ids.md:3: source: unknown value \"XYZ\"") {
			t.Errorf("err = %v; want it to name the file, line and field", err)
		}
	})
	t.Run("ErrTemplate", func(t *testing.T) {
		templates := copyTree(t, templatesDir)
		os.WriteFile(filepath.Join(templates, "news.html"), []byte("{{ define \"main\" }}{{ .Nope.Field }}{{ end }}"), 0o644)
		err := build(fixtureContent, templates)
		if err == nil || !strings.Contains(err.Error(), "news.html") {
			t.Errorf("err = %v; want it to name the template", err)
		}
	})
	t.Run("ErrMissingTemplate", func(t *testing.T) {
		templates := copyTree(t, templatesDir)
		os.Remove(filepath.Join(templates, "news.html"))
		if err := build(fixtureContent, templates); err == nil {
			t.Error("a page without its template built; Hugo's warning must fail the build")
		}
	})
	t.Run("ErrNoAssets", func(t *testing.T) {
		_, err := Build(t.Context(), Options{ContentDir: fixtureContent, TemplatesDir: templatesDir,
			AssetsDir: t.TempDir(), OutDir: filepath.Join(t.TempDir(), "public")})
		if err == nil || !strings.Contains(err.Error(), "manifest") {
			t.Errorf("err = %v; want a missing manifest error", err)
		}
	})
	t.Run("FailedBuildKeepsPreviousSite", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "public")
		opts := Options{ContentDir: fixtureContent, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out}
		if _, err := Build(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		broken := copyTree(t, fixtureContent)
		os.WriteFile(filepath.Join(broken, "news", "bad.md"), []byte("no front matter"), 0o644)
		opts.ContentDir = broken
		if _, err := Build(t.Context(), opts); err == nil {
			t.Fatal("broken content built")
		}
		if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
			t.Errorf("previous site gone after a failed build: %v", err)
		}
		leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".regpulse-build-*"))
		if len(leftovers) > 0 {
			t.Errorf("temporary build folders left behind: %v", leftovers)
		}
	})
	t.Run("StalePagesRemoved", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "public")
		content := copyTree(t, fixtureContent)
		opts := Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out}
		if _, err := Build(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(content, "circulars", "rbi-2021-09-07-tokenisation.md"))
		os.WriteFile(filepath.Join(content, "bodies", "rbi.md"), []byte("---\nname: Reserve Bank of India\nshortName: RBI\nkeyFunctions: [x]\n---\n"), 0o644)
		if _, err := Build(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(out, "circulars", "rbi-2021-09-07-tokenisation")); err == nil {
			t.Error("a deleted circular's page survived the rebuild")
		}
	})
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "regpulse-builds-")
	if err != nil {
		panic(err)
	}
	shared.dir = dir
	code := m.Run()
	os.RemoveAll(fixtureAssets)
	os.RemoveAll(dir)
	os.Exit(code)
}

// readOut returns the built file at p (slash-separated) under out.
func readOut(t *testing.T, out, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
