package main

import (
	"path/filepath"
	"strings"
	"testing"

	"regpulse/internal/auth"
	"regpulse/internal/store"
)

func TestUsers(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(t.Context(), filepath.Join(dir, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"asha", "ravi"} {
		if _, err := db.CreateUser(t.Context(), auth.NewUser{Username: name, Email: name + "@example.com", PasswordHash: "$argon2id$x", FirstName: "F", LastName: "L"}); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	out, _, err := runCmd(t, "users", "promote", "--data", dir, "ASHA")
	if err != nil || out != "asha is now an admin\n" {
		t.Fatalf("promote = %q, %v", out, err)
	}
	out, _, err = runCmd(t, "users", "list", "--data", dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "asha") || !strings.Contains(lines[1], "admin") || !strings.Contains(lines[2], "user") || !strings.Contains(lines[2], "never") {
		t.Errorf("list:\n%s", out)
	}
	if !strings.Contains(lines[0], "CMS ROLE") || strings.Contains(lines[1], "editor") {
		t.Errorf("list before any CMS role:\n%s", out)
	}

	if strings.Contains(out, "argon2id") {
		t.Error("list shows password hashes")
	}

	// CMS roles: flags before or after the arguments.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"users", "cms-role", "--data", dir, "asha", "editor"}, "asha is now a CMS editor\n"},
		{[]string{"users", "cms-role", "Ravi", "reviewer", "--data", dir}, "ravi is now a CMS reviewer\n"},
		{[]string{"users", "cms-role", "asha", "reviewer", "--data", dir}, "asha is now a CMS reviewer\n"},
		{[]string{"users", "cms-role", "asha", "none", "--data", dir}, "asha has no CMS role now\n"},
		{[]string{"users", "cms-role", "asha", "editor", "--data", dir}, "asha is now a CMS editor\n"},
	} {
		if out, _, err := runCmd(t, tc.args...); err != nil || out != tc.want {
			t.Errorf("%v = %q, %v; want %q", tc.args, out, err, tc.want)
		}
	}
	out, _, err = runCmd(t, "users", "list", "--data", dir)
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], " editor ") || !strings.Contains(lines[2], " reviewer ") {
		t.Errorf("list with CMS roles:\n%s", out)
	}
	for _, args := range [][]string{{"users"}, {"users", "promote", "--data", dir, "nobody"}, {"users", "promote", "--data", dir}, {"users", "delete", "asha"},
		{"users", "cms-role", "--data", dir, "asha", "admin"}, {"users", "cms-role", "--data", dir, "asha"}, {"users", "cms-role", "--data", dir, "nobody", "editor"},
		{"users", "cms-role", "--data", dir, "asha", "editor", "extra"}} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
}

func TestServe_BadAuthFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--login-limit", "0"}, {"--limit-window", "1ms"}, {"--hash-memory", "1"}, {"--trusted-proxies", "not-a-cidr"}, {"--token-ttl", "1s"},
	} {
		_, _, err := runCmd(t, append([]string{"serve", "--data", t.TempDir(), "--public", t.TempDir()}, args...)...)
		if err == nil {
			t.Errorf("serve %v started", args)
		}
	}
}
