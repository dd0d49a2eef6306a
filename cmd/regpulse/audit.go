package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"

	"regpulse/internal/app"
	"regpulse/internal/audit"
)

const auditUsage = `usage: regpulse audit verify [--org ID] [--data DIR] [--database-url URL]

verify  check every organisation's audit chain (or --org's): each row
        numbered after the one before, chained to its hash, its own hash
        its contents'. Prints, per organisation, the rows checked and the
        head (last row's number and hash: keep it, a chain cut short at
        its end is found only against a head recorded before), or the
        first broken row and why; exits 1 if any chain is broken.
`

// errAuditBroken is verify's failure when a chain is broken (each broken
// row is printed).
var errAuditBroken = errors.New("audit trail broken")

// cmdAudit is the operator's and the inspector's check of the audit
// trail (issue 44).
func cmdAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, auditUsage)
		return errors.New("no subcommand")
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, auditUsage)
		return nil
	}
	if args[0] != "verify" {
		fmt.Fprint(stderr, auditUsage)
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	fs := newFlagSet("audit verify", stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), auditUsage); fs.PrintDefaults() }
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database")
	org := fs.String("org", "", "verify this organisation's chain only (its id)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("audit verify takes no arguments (got %q)", fs.Args())
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	orgs := []string{*org}
	if *org == "" {
		if orgs, err = db.AuditOrganisations(ctx); err != nil {
			return err
		}
		if len(orgs) == 0 {
			fmt.Fprintln(stdout, "no audit rows")
			return nil
		}
	}
	reports, err := audit.VerifyAll(orgs, func(org string) iter.Seq2[audit.Row, error] { return db.AuditRows(ctx, org) }, runtime.GOMAXPROCS(0))
	if err != nil {
		return err
	}
	broken := 0
	for _, r := range reports {
		if b := r.Broken; b != nil {
			broken++
			fmt.Fprintf(stdout, "organisation %s: BROKEN at row %d (id %s): %s\n", r.OrgID, b.Row.Seq, b.Row.ID, b.Reason)
			continue
		}
		fmt.Fprintf(stdout, "organisation %s: %d rows OK, head row %d hash %s\n", r.OrgID, r.Rows, r.Head.Seq, r.Head.Hash)
	}
	if broken > 0 {
		return fmt.Errorf("%w: %d of %d organisations", errAuditBroken, broken, len(reports))
	}
	return nil
}
