package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"regpulse/internal/app"
	"regpulse/internal/inspection"
	"regpulse/internal/teams"
)

const exportUsage = `usage: regpulse export --org ID --format xlsx|pdf [-o FILE] [--data DIR] [--database-url URL]

Writes the organisation's register for an inspection (every decision with
its owner, dates, comments, evidence hashes and audit rows) to FILE (by
default register-{organisation}-{time}.{format} here), records the export
in the organisation's audit trail (export.create, with no user: the
command line) and prints the file's SHA-256 as sha256sum does.
`

// cmdExport is the operator's inspection export (issue 44): what GET
// /api/organisations/{id}/export answers a member.
func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer, now func() time.Time) error {
	fs := newFlagSet("export", stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), exportUsage); fs.PrintDefaults() }
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database")
	org := fs.String("org", "", "the organisation's id (required)")
	format := fs.String("format", "", "xlsx or pdf (required)")
	out := fs.String("o", "", "the file to write (default: the export's own name, in the current directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0:
		return fmt.Errorf("export takes no arguments (got %q)", fs.Args())
	case *org == "":
		fs.Usage()
		return errors.New("--org is required")
	case !slices.Contains(inspection.Formats, *format):
		return fmt.Errorf("--format %q: use one of %s", *format, strings.Join(inspection.Formats, ", "))
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	reg, err := db.InspectionRegister(ctx, *org)
	if errors.Is(err, teams.ErrNoOrganisation) {
		return fmt.Errorf("no organisation has the id %q", *org)
	}
	if err != nil {
		return err
	}
	at := now().UTC()
	file, err := inspection.Make(*format, reg, inspection.Meta{GeneratedAt: at, GeneratedBy: "the command line (regpulse export)"})
	if err != nil {
		return err
	}
	path := *out
	if path == "" {
		path = inspection.FileName(reg.Organisation, *format, at)
	}
	// The file is written beside its place and renamed once the trail
	// has its row: no file without its row, no half-written file.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(file.Data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := db.RecordExport(ctx, teams.Actor{OrganisationID: reg.Organisation.ID}, *format, reg, file); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("the export is recorded in the trail (sha256 %s) but not written: %w", file.SHA256, err)
	}
	fmt.Fprintf(stderr, "%s: %d items, %d comments, %d evidence, %d audit rows, %d bytes\n", path, len(reg.Items),
		reg.Counts().Comments, reg.Counts().Evidence, reg.Counts().TrailRows, len(file.Data))
	fmt.Fprintf(stdout, "%s  %s\n", file.SHA256, path)
	return nil
}
