package cmsconfig

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"regpulse/internal/cms"
)

func TestValidator(t *testing.T) {
	content := os.DirFS("../catalog/testdata/good")
	v := Validator(content, "content", "media", nil)
	const circ = "content/circulars/rbi-2019-08-13-regulatory-sandbox-framework.md"
	orig, err := os.ReadFile("../catalog/testdata/good/circulars/rbi-2019-08-13-regulatory-sandbox-framework.md")
	if err != nil {
		t.Fatal(err)
	}
	bad := []byte(strings.Replace(string(orig), "publishedDate: 2019-08-13", "publishedDate: 2024-13-01", 1))
	tests := []struct {
		name    string
		changes map[string][]byte
		status  int    // 0: accepted
		message string // the *cms.Error's message holds it
	}{
		{"unchanged", map[string][]byte{circ: orig}, 0, ""},
		{"media only", map[string][]byte{"media/a.png": []byte("png")}, 0, ""},
		{"a bad date", map[string][]byte{circ: bad}, 422, circ + `:5: publishedDate: bad date "2024-13-01" (want YYYY-MM-DD)`},
		{"another file broken", map[string][]byte{circ: nil}, 422, "content/news/2019-08-13-rbi-regulatory-sandbox-framework.md:9: circular: refers to unknown circular"},
		{"outside", map[string][]byte{"README.md": orig}, 400, "README.md is outside content/ and media/"},
		{"dot-dot", map[string][]byte{"content/../x.md": orig}, 400, "not a path in the repository"},
		{"absolute", map[string][]byte{"/content/x.md": orig}, 400, "not a path in the repository"},
		{"git", map[string][]byte{".git/config": orig}, 400, "outside"},
		{"content itself", map[string][]byte{"content": orig}, 400, "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.Validate(context.Background(), tt.changes)
			if tt.status == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ce *cms.Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want a *cms.Error", err, err)
			}
			if ce.Status != tt.status || !strings.Contains(ce.Message, tt.message) {
				t.Errorf("= %d %q, want %d with %q", ce.Status, ce.Message, tt.status, tt.message)
			}
		})
	}
}
