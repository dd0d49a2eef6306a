package main

import (
	"path/filepath"
	"strings"
	"testing"

	"regpulse/internal/newsletter"
	"regpulse/internal/store"
)

func TestDigest(t *testing.T) {
	data := t.TempDir()
	db, err := store.Open(t.Context(), filepath.Join(data, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	sub, _, err := db.Subscribe(t.Context(), newsletter.Signup{Email: "reader@example.com"})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(SMTPURLEnv, "")
	args := []string{"digest", "--month", "2021-09", "--data", data, "--content", "../../generator/testdata/content", "--base-url", "https://regpulse.example/"}
	steps := []struct {
		name  string
		extra []string
		want  string
		files int
	}{
		{"DryRun", []string{"--dry-run"}, "dry run: digest 2021-09: 1 sent, 0 already sent (skipped), 0 failed", 0},
		{"Sent", nil, "digest 2021-09: 1 sent, 0 already sent (skipped), 0 failed", 1},
		{"Again", nil, "digest 2021-09: 0 sent, 1 already sent (skipped), 0 failed", 1},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			out, stderr, err := runCmd(t, append(args, st.extra...)...)
			if err != nil || strings.TrimSpace(out) != st.want {
				t.Fatalf("= %q, %v (stderr %s), want %q", out, err, stderr, st.want)
			}
			files, _ := filepath.Glob(filepath.Join(data, "outbox", "2021-09", "*.eml"))
			if len(files) != st.files || (st.files == 1 && filepath.Base(files[0]) != sub.ID+".eml") {
				t.Errorf("outbox holds %v", files)
			}
		})
	}
	t.Run("ErrMonth", func(t *testing.T) {
		if _, _, err := runCmd(t, "digest", "--month", "2021-13", "--data", data); err == nil || !strings.Contains(err.Error(), "YYYY-MM") {
			t.Errorf("err = %v", err)
		}
	})
}
