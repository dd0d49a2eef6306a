package directionstest

import (
	"fmt"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

// WriteContent writes gens as content files under dir/master-directions,
// as editors write them (index.md and one file per version), so that a
// build or a load reads them as it reads the real ones.
func WriteContent(dir string, gens []Generated) error {
	for _, g := range gens {
		d := g.Direction
		folder := filepath.Join(dir, catalog.DirectionsFolder, d.Slug)
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return err
		}
		index := map[string]any{"title": d.Title, "source": d.Source, "issuedDate": d.IssuedDate.String(),
			"reviewedOn": d.ReviewedOn.String(), "appliesTo": d.AppliesTo, "status": d.Status,
			"chapters": d.Chapters, "provisions": d.Provisions}
		if err := writeFile(filepath.Join(folder, "index.md"), index, d.Title+", generated for tests."); err != nil {
			return err
		}
		for _, v := range d.Versions {
			var es []directions.FileEffect
			for _, e := range v.Effects {
				es = append(es, directions.NewFileEffect(e))
			}
			front := map[string]any{"amending": map[string]string{"title": v.Amending.Title}, "effects": es}
			if err := writeFile(filepath.Join(folder, v.Date.String()+".md"), front, v.Note); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFile(path string, front any, body string) error {
	y, err := yaml.Marshal(front)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, []byte("---\n"+string(y)+"---\n"+body+"\n"), 0o644)
}
