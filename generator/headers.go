package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// HeadersFile is written into the site's root in Netlify's _headers format;
// `regpulse serve` reads the same file, so both hosts send the same headers.
// It is the one place the site's security headers are written.
const HeadersFile = "_headers"

// headers is the _headers file, with a Content-Security-Policy that allows
// the inline scripts of the templates (hashes, templateScriptHashes).
func headers(hashes []string) []byte {
	scriptSrc := "'self'"
	for _, h := range hashes {
		scriptSrc += " '" + h + "'"
	}
	csp := strings.Join([]string{
		"default-src 'self'",
		"script-src " + scriptSrc,
		"style-src 'self'",
		"img-src 'self' data: https:",
		"font-src 'self'",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
	var b bytes.Buffer
	fmt.Fprintf(&b, "/*\n")
	fmt.Fprintf(&b, "  Content-Security-Policy: %s\n", csp)
	fmt.Fprintf(&b, "  X-Content-Type-Options: nosniff\n")
	fmt.Fprintf(&b, "  Referrer-Policy: strict-origin-when-cross-origin\n")
	fmt.Fprintf(&b, "  X-Frame-Options: DENY\n")
	fmt.Fprintf(&b, "  Permissions-Policy: camera=(), microphone=(), geolocation=()\n")
	// Browsers heed it over HTTPS only, so plain-HTTP local serving is unaffected.
	fmt.Fprintf(&b, "  Strict-Transport-Security: max-age=31536000; includeSubDomains\n")
	// The CMS (Decap) runs under a policy of its own, which the rule's
	// place after /* gives it (a later rule's header replaces an
	// earlier's). Its files are not hashed: always revalidated; never
	// indexed.
	fmt.Fprintf(&b, "%s*\n", AdminPath)
	fmt.Fprintf(&b, "  Content-Security-Policy: %s\n", adminCSP)
	fmt.Fprintf(&b, "  Cache-Control: no-cache\n")
	fmt.Fprintf(&b, "  X-Robots-Tag: noindex, nofollow\n")
	// Decap reads its configuration as YAML by this type (hosts do not all know .yml)
	fmt.Fprintf(&b, "%sconfig.yml\n", AdminPath)
	fmt.Fprintf(&b, "  Content-Type: text/yaml; charset=utf-8\n")
	fmt.Fprintf(&b, "/assets/*\n")
	fmt.Fprintf(&b, "  Cache-Control: public, max-age=31536000, immutable\n")
	// Static hosts do not all know .ics; calendar apps want text/calendar.
	for _, p := range CalendarPaths() {
		fmt.Fprintf(&b, "%s\n", p)
		fmt.Fprintf(&b, "  Content-Type: text/calendar; charset=utf-8\n")
	}
	return b.Bytes()
}

// adminCSP is /admin's Content-Security-Policy: what Decap 3.16 needs to
// run, found in Chromium (its console shows a violation for each
// missing part), and no more. 'unsafe-eval': its configuration's schema
// is checked by code it compiles (ajv), which also lets its image
// encoder's WebAssembly compile; 'unsafe-inline' styles: its styles are
// inserted at run time (emotion); blob: and data: images: its previews
// of media; connect-src blob:: an upload reads the chosen file back.
var adminCSP = strings.Join([]string{
	"default-src 'self'",
	"script-src 'self' 'unsafe-eval'",
	"style-src 'self' 'unsafe-inline'",
	"img-src 'self' data: blob: https:",
	"font-src 'self'",
	"connect-src 'self' blob:",
	"object-src 'none'",
	"base-uri 'self'",
	"form-action 'self'",
	"frame-ancestors 'none'",
}, "; ")

// templateScriptHashes returns the CSP hash of every distinct inline
// script in the templates (the theme script that must run before first
// paint). They are known before the build, so the policy never drifts from
// the templates and no built page has to be read again to find them. An
// inline script holding a template action could differ page by page, so it
// is refused, naming its file and line.
func templateScriptHashes(templatesDir string) ([]string, error) {
	set := map[string]bool{}
	err := filepath.WalkDir(templatesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		z := html.NewTokenizer(bytes.NewReader(src))
		inScript, offset := false, 0
		for {
			tt := z.Next()
			at := offset
			offset += len(z.Raw())
			switch tt {
			case html.ErrorToken:
				return nil
			case html.StartTagToken:
				name, hasAttr := z.TagName()
				inScript = string(name) == "script" && !hasSrc(z, hasAttr)
			case html.TextToken:
				if !inScript {
					continue
				}
				script := z.Text()
				if bytes.Contains(script, []byte("{{")) {
					rel, _ := filepath.Rel(filepath.Dir(templatesDir), p)
					return fmt.Errorf("%s:%d: an inline script holds a template action, so its CSP hash is not known before the build; move the code to a module in islands/src",
						filepath.ToSlash(rel), 1+bytes.Count(src[:at], []byte("\n")))
				}
				sum := sha256.Sum256(script)
				set["sha256-"+base64.StdEncoding.EncodeToString(sum[:])] = true
			case html.EndTagToken:
				inScript = false
			}
		}
	})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(set))
	for h := range set {
		out = append(out, h)
	}
	sort.Strings(out)
	return out, nil
}

func hasSrc(z *html.Tokenizer, more bool) bool {
	for more {
		var k []byte
		k, _, more = z.TagAttr()
		if string(k) == "src" {
			return true
		}
	}
	return false
}
