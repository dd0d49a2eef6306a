package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"regpulse/internal/auth"
	"regpulse/internal/decisions"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/teams"
)

// TestExport runs `regpulse export` on each kind of store: each format
// is written where -o says, its SHA-256 printed as sha256sum prints it
// and kept in the trail's export.create row; a bad format or an unknown
// organisation fails and writes nothing.
func TestExport(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			var flags []string
			var target string
			if kind == "sqlite" {
				dir := t.TempDir()
				flags, target = []string{"--data", dir, "--database-url", ""}, filepath.Join(dir, "regpulse.db")
			} else {
				target = pgtest.URL(t)
				flags = []string{"--database-url", target}
			}
			ctx := t.Context()
			db, err := store.Open(ctx, target)
			if err != nil {
				t.Fatal(err)
			}
			u, err := db.CreateUser(ctx, auth.NewUser{Username: "asha", Email: "asha@example.com", PasswordHash: "x", FirstName: "Asha", LastName: "Rao"})
			if err != nil {
				t.Fatal(err)
			}
			org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: u.ID}, "Asha Payments", nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.PutDecision(ctx, teams.Actor{UserID: u.ID, OrganisationID: org.ID},
				decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"}, Applicability: decisions.Applicable}); err != nil {
				t.Fatal(err)
			}
			db.Close()

			dir := t.TempDir()
			for _, c := range []struct{ format, magic string }{{"xlsx", "PK\x03\x04"}, {"pdf", "%PDF-"}} {
				path := filepath.Join(dir, "register."+c.format)
				out, errOut, err := runCmd(t, append([]string{"export", "--org", org.ID, "--format", c.format, "-o", path}, flags...)...)
				if err != nil {
					t.Fatalf("%s: %v\n%s", c.format, err, errOut)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(data)
				hexSum := hex.EncodeToString(sum[:])
				if out != hexSum+"  "+path+"\n" || !bytes.HasPrefix(data, []byte(c.magic)) || !strings.Contains(errOut, "1 items") {
					t.Errorf("%s: printed %q (%q), file starts %q; want %s", c.format, out, errOut, data[:4], hexSum)
				}
				db, err := store.Open(ctx, target)
				if err != nil {
					t.Fatal(err)
				}
				rows, err := db.AuditSubject(ctx, org.ID, "organisation", org.ID)
				db.Close()
				if err != nil {
					t.Fatal(err)
				}
				last := rows[len(rows)-1]
				if last.Action != "export.create" || last.ActorID != "" || !strings.Contains(last.After, `"sha256":"`+hexSum+`"`) ||
					!strings.Contains(last.After, `"format":"`+c.format+`"`) {
					t.Errorf("%s: the trail's row %+v", c.format, last)
				}
			}
			for _, args := range [][]string{
				{"export", "--org", org.ID, "--format", "csv", "-o", filepath.Join(dir, "x")},
				{"export", "--org", "no-such-org", "--format", "pdf", "-o", filepath.Join(dir, "x")},
				{"export", "--format", "pdf", "-o", filepath.Join(dir, "x")},
			} {
				if _, _, err := runCmd(t, append(args, flags...)...); err == nil {
					t.Errorf("%v: no error", args)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 2 {
				t.Errorf("files left: %v", left)
			}
		})
	}
}
