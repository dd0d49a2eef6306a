package generator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Assets are the islands' built files as the pages reference them. Vite
// writes hashed names into dist/.vite/manifest.json; the entry names
// (shell, loader, userMenu, newsletterFooter, styles) are the contract with
// islands/vite.config.ts.
type Assets struct {
	Dir    string `json:"-"` // islands/dist, copied to public/assets
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

// LoadAssets reads the Vite manifest in dir (islands/dist).
func LoadAssets(dir string) (*Assets, error) {
	path := filepath.Join(dir, ".vite", "manifest.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("islands manifest: %w (run `npm run build` in islands/)", err)
	}
	var m map[string]manifestChunk
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a := &Assets{Dir: dir, Islands: map[string][]string{}}
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
