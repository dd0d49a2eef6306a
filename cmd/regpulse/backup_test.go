package main

import (
	"path/filepath"
	"strings"
	"testing"

	"regpulse/internal/auth"
	"regpulse/internal/store"
)

// TestBackup_Restore moves a SQLite deployment's accounts to a new
// folder through the two commands.
func TestBackup_Restore(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	file := filepath.Join(t.TempDir(), "regpulse-backup.db")
	db, err := store.Open(t.Context(), filepath.Join(from, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateUser(t.Context(), auth.NewUser{Username: "asha", Email: "asha@example.com", PasswordHash: "$argon2id$x", FirstName: "F", LastName: "L"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, err := runCmd(t, "backup", "--out", file, "--data", from)
	if err != nil || !strings.Contains(out, "backed up the sqlite store to "+file) {
		t.Fatalf("backup = %q, %v", out, err)
	}
	out, _, err = runCmd(t, "restore", file, "--data", to)
	if err != nil || !strings.Contains(out, "restored "+file+" into the sqlite store") {
		t.Fatalf("restore = %q, %v", out, err)
	}
	if list, _, err := runCmd(t, "users", "list", "--data", to); err != nil || !strings.Contains(list, "asha") {
		t.Errorf("users after restore = %q, %v", list, err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"ErrNoOut", []string{"backup", "--data", from}, "--out FILE is required"},
		{"ErrOverwrite", []string{"backup", "--out", file, "--data", from}, "exists"},
		{"ErrNoFile", []string{"restore", "--data", t.TempDir()}, "name one backup file"},
		{"ErrNotEmpty", []string{"restore", file, "--data", to}, "not empty"},
		{"ErrNotABackup", []string{"restore", "backup_test.go", "--data", t.TempDir()}, "not a RegPulse backup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := runCmd(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want an error with %q", strings.Join(tc.args, " "), err, tc.want)
			}
		})
	}
}
