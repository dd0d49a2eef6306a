// Command write writes the files generated from the API's declarations
// (package openapigen): api/openapi.json and islands/src/lib/rules.gen.ts.
// `go generate ./api` runs it from api/; it finds the repository's root
// from there.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"regpulse/api/openapigen"
)

func main() {
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
	files, err := openapigen.Files()
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
	for path, body := range files {
		if err := os.WriteFile(filepath.Join(root, path), body, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "openapigen:", err)
			os.Exit(1)
		}
	}
}

// repoRoot is the nearest folder up from here holding go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working folder")
		}
		dir = parent
	}
}
