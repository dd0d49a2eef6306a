package generator

import (
	"fmt"
	"os"
	"path/filepath"

	"regpulse/internal/catalog"
)

// writeOutputs adds what Hugo does not render: the feeds, the compliance
// calendar and the security headers.
func writeOutputs(outDir string, cat *catalog.Catalog, opts Options, txt texts, scripts []string) error {
	write := func(sitePath string, body []byte) error {
		p := filepath.Join(outDir, filepath.FromSlash(sitePath))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, body, 0o644)
	}
	for _, f := range Feeds() {
		atom, err := f.renderAtom(cat, opts.BaseURL, txt)
		if err != nil {
			return fmt.Errorf("feed %s: %w", f.Atom, err)
		}
		if err := write(f.Atom, atom); err != nil {
			return err
		}
		js, err := f.renderJSON(cat, opts.BaseURL, txt)
		if err != nil {
			return fmt.Errorf("feed %s: %w", f.JSON, err)
		}
		if err := write(f.JSON, js); err != nil {
			return err
		}
	}
	if err := write(CalendarPath, RenderCalendar(cat, opts.Now(), opts.BaseURL)); err != nil {
		return err
	}
	return writeHeaders(outDir, scripts)
}
