package main

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"regpulse/internal/audit"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
)

// TestAuditVerify runs `regpulse audit verify` on each kind of store: two
// whole chains, then one with a row rewritten behind the triggers' back,
// which it names (organisation, row, id, why) and fails on.
func TestAuditVerify(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			var flags []string
			var target, driver string
			var tamper []string
			if kind == "sqlite" {
				dir := t.TempDir()
				flags = []string{"--data", dir, "--database-url", ""}
				target, driver = filepath.Join(dir, "regpulse.db"), "sqlite"
				tamper = []string{"DROP TRIGGER audit_log_no_update", "UPDATE audit_log SET actor_id = 'mallory' WHERE org_id = 'org-b' AND seq = 2"}
			} else {
				url := pgtest.URL(t)
				flags = []string{"--database-url", url}
				target, driver = url, "pgx"
				tamper = []string{"ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change", "UPDATE audit_log SET actor_id = 'mallory' WHERE org_id = 'org-b' AND seq = 2"}
			}
			verify := func(args ...string) (string, error) {
				out, _, err := runCmd(t, append(append([]string{"audit", "verify"}, flags...), args...)...)
				return out, err
			}
			db, err := store.Open(t.Context(), target)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := verify(); err != nil || out != "no audit rows\n" {
				t.Errorf("empty store: %q, %v", out, err)
			}
			var ids []string
			for i := range 5 {
				org := []string{"org-a", "org-b"}[i%2]
				r, err := db.AppendAudit(t.Context(), audit.Entry{OrgID: org, ActorID: "u1", Action: "decision.update", After: map[string]int{"i": i}})
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, r.ID)
			}
			db.Close()

			out, err := verify()
			if err != nil || !regexp.MustCompile(`^organisation org-a: 3 rows OK, head row 3 hash [0-9a-f]{64}\norganisation org-b: 2 rows OK, head row 2 hash [0-9a-f]{64}\n$`).MatchString(out) {
				t.Errorf("whole chains: %q, %v", out, err)
			}
			if out, err := verify("--org", "org-b"); err != nil || !strings.HasPrefix(out, "organisation org-b: 2 rows OK") || strings.Contains(out, "org-a") {
				t.Errorf("--org org-b: %q, %v", out, err)
			}
			if out, err := verify("--org", "org-none"); err != nil || out != fmt.Sprintf("organisation org-none: 0 rows OK, head row 0 hash %s\n", audit.Genesis) {
				t.Errorf("--org of no rows: %q, %v", out, err)
			}

			raw, err := sql.Open(driver, target)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range tamper {
				if _, err := raw.ExecContext(t.Context(), q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			raw.Close()
			out, err = verify()
			if !errors.Is(err, errAuditBroken) || exitCode(err) != 1 {
				t.Errorf("broken chain: err %v", err)
			}
			want := fmt.Sprintf("organisation org-b: BROKEN at row 2 (id %s): hash does not match the row's contents (the row was changed)", ids[3])
			if !strings.Contains(out, "organisation org-a: 3 rows OK") || !strings.Contains(out, want) {
				t.Errorf("broken chain: %q\nwant a line %q", out, want)
			}
		})
	}
	for _, args := range [][]string{{"audit"}, {"audit", "check"}, {"audit", "verify", "extra", "--data", t.TempDir()}} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
}
