package generator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"regpulse/internal/i18n"
)

// Assets are the islands' built files, in each language of the site.
// The islands are built once per language (islands/scripts/build.mjs), so
// that a page ships its language's strings only: each build's manifest,
// the default language's dist/.vite/manifest.json and another's
// dist/.vite/manifest.{code}.json, names the files of its language, all
// in the one folder (a chunk the same in every language is one file).
// The templates' data (hugo.Data.site) is one for every language's runs,
// so the templates read a language's files as
// (index hugo.Data.site.assets site.Params.lang).
type Assets struct {
	Dir   string                 // islands/dist, copied to public/assets
	Langs map[string]*LangAssets // by language code (internal/i18n)
}

// MarshalJSON is the templates' view: each language's files by its code.
func (a *Assets) MarshalJSON() ([]byte, error) { return json.Marshal(a.Langs) }

// LangAssets are one language's built files as its pages reference them.
// Vite writes hashed names into the manifest; the entry names (shell,
// loader, userMenu, newsletterFooter, styles) are the contract with
// islands/vite.config.ts.
type LangAssets struct {
	Shell  string `json:"shell"`
	Loader string `json:"loader"`
	// UserMenu is the header's user menu, which the shell loads only when
	// a sign-in token is kept (header.html names it for the shell).
	UserMenu string `json:"userMenu"`
	// NewsletterFooter is the footer's newsletter island, which the shell
	// loads only when the reader first reaches for the footer's form
	// (footer.html names it for the shell).
	NewsletterFooter string   `json:"newsletterFooter"`
	CSS              []string `json:"css"`
	// Fonts are the stylesheet's web fonts (the Devanagari subset), which
	// Hindi pages preload (font-preload.html).
	Fonts []string `json:"fonts"`
	// Islands maps an island name to the files it needs, itself first, so
	// pages can preload exactly what they use.
	Islands map[string][]string `json:"islands"`
}

type manifestChunk struct {
	File           string   `json:"file"`
	Src            string   `json:"src"`
	IsEntry        bool     `json:"isEntry"`
	IsDynamicEntry bool     `json:"isDynamicEntry"`
	Imports        []string `json:"imports"`
	CSS            []string `json:"css"`
	Assets         []string `json:"assets"`
}

const assetsURL = "/assets/"

// LoadAssets reads the Vite manifests in dir (islands/dist), one for
// each language of the site.
func LoadAssets(dir string) (*Assets, error) {
	a := &Assets{Dir: dir, Langs: map[string]*LangAssets{}}
	for i, lang := range i18n.Languages {
		name := "manifest.json"
		if i > 0 {
			name = "manifest." + lang.Code + ".json"
		}
		la, err := loadManifest(filepath.Join(dir, ".vite", name))
		if err != nil {
			return nil, err
		}
		a.Langs[lang.Code] = la
	}
	return a, nil
}

// loadManifest reads one language's Vite manifest.
func loadManifest(path string) (*LangAssets, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("islands manifest: %w (run `npm run build` in islands/)", err)
	}
	var m map[string]manifestChunk
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a := &LangAssets{Islands: map[string][]string{}}
	entry := func(src string) (manifestChunk, error) {
		c, ok := m[src]
		if !ok || !c.IsEntry {
			return c, fmt.Errorf("%s: no entry %q", path, src)
		}
		return c, nil
	}
	shell, err := entry("src/shell/shell.ts")
	if err != nil {
		return nil, err
	}
	loader, err := entry("src/runtime/loader.ts")
	if err != nil {
		return nil, err
	}
	userMenu, err := entry("src/shell/user-menu.tsx")
	if err != nil {
		return nil, err
	}
	footer, err := entry("src/shell/newsletter-footer-island.tsx")
	if err != nil {
		return nil, err
	}
	styles, err := entry("src/styles.css")
	if err != nil {
		return nil, err
	}
	a.Shell, a.Loader, a.UserMenu = assetsURL+shell.File, assetsURL+loader.File, assetsURL+userMenu.File
	a.NewsletterFooter = assetsURL + footer.File
	a.CSS = []string{assetsURL + styles.File}
	for _, f := range styles.Assets {
		if strings.HasSuffix(f, ".woff2") {
			a.Fonts = append(a.Fonts, assetsURL+f)
		}
	}
	for src, c := range m {
		if !c.IsDynamicEntry || !strings.HasPrefix(src, "src/islands/") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
		files := []string{assetsURL + c.File}
		seen := map[string]bool{}
		var walk func(keys []string)
		walk = func(keys []string) {
			for _, k := range keys {
				if seen[k] {
					continue
				}
				seen[k] = true
				files = append(files, assetsURL+m[k].File)
				walk(m[k].Imports)
			}
		}
		walk(c.Imports)
		sort.Strings(files[1:])
		a.Islands[name] = files
	}
	return a, nil
}
