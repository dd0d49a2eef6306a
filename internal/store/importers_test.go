package store

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImporters holds the store at the edge: only the wiring (cmd/ and
// internal/app) imports it. Domain packages declare what they need of a
// store as an interface in their own types, which the store implements
// (obligations.Store), so none of them depends on SQL.
func TestImporters(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "regpulse/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg := fields[0]
		wiring := strings.HasPrefix(pkg, "regpulse/cmd/") || pkg == "regpulse/internal/app"
		if slices.Contains(fields[1:], "regpulse/internal/store") && !wiring {
			t.Errorf("%s imports regpulse/internal/store: only cmd/ and internal/app may", pkg)
		}
	}
}
