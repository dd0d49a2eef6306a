package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecutableHash holds the program's identity to the go command's
// build ID of the executable, and to the bytes of a file without one.
func TestExecutableHash(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if got, want := goBuildID(exe), strings.TrimSpace(string(out)); got != want {
		t.Errorf("goBuildID = %q, want go tool buildid's %q", got, want)
	}
	id, err := ExecutableHash(exe)
	if err != nil {
		t.Fatal(err)
	}
	bytes, err := fileHex(exe)
	if err != nil {
		t.Fatal(err)
	}
	if id == bytes {
		t.Errorf("ExecutableHash of a Go executable is the hash of its bytes, not of its build ID")
	}

	// without a build ID: the file's bytes
	for name, data := range map[string]string{
		"script":    "#!/bin/sh\necho hello\n",
		"not ELF":   "\x7fELG not an executable at all",
		"cut ELF":   "\x7fELF\x02\x01\x01",
		"empty":     "",
		"other ELF": "",
	} {
		path := filepath.Join(t.TempDir(), "prog")
		if name == "other ELF" { // an ELF executable whose note is cut off
			whole, err := os.ReadFile(exe)
			if err != nil {
				t.Fatal(err)
			}
			data = string(whole[:64])
		}
		if err := os.WriteFile(path, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
		got, err := ExecutableHash(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want, _ := fileHex(path); got != want {
			t.Errorf("%s: ExecutableHash = %s, want its bytes' hash %s", name, got, want)
		}
	}
}
