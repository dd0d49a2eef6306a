package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"regpulse/internal/app"
	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
)

const obligationsUsage = `usage: regpulse obligations extract [--force] [--content DIR] [--data DIR] [--database-url URL] [model flags]
       regpulse obligations accept CIRCULAR [--data DIR] [--database-url URL]

extract  propose the obligations of every circular without written ones
         (local rules, or the configured model held to the invention
         guard), storing them as machine-extracted; a circular is extracted
         again only when it changed (--force: all of them)
accept   mark the extracted obligations of CIRCULAR (its slug or id) as
         accepted by an editor: labelled accepted, never replaced
`

// cmdObligations is the editors' tool for the extracted obligations.
func cmdObligations(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, obligationsUsage)
		return errors.New("no subcommand")
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, obligationsUsage)
		return nil
	}
	sub := args[0]
	fs := newFlagSet("obligations "+sub, stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), obligationsUsage); fs.PrintDefaults() }
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database")
	var model app.AI
	var content string
	var force bool
	if sub == "extract" {
		model.RegisterModel(fs)
		fs.StringVar(&content, "content", "content", "content directory whose circulars are extracted")
		fs.BoolVar(&force, "force", false, "extract every circular again, changed or not (never over accepted ones)")
	}
	rest := args[1:]
	var circular []string
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		// accept CIRCULAR --data DIR: the circular may come first.
		circular, rest = rest[:1], rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return nil
		}
		return err
	}
	circular = append(circular, fs.Args()...)
	switch {
	case sub == "extract" && len(circular) == 0:
		cat, err := catalog.Load(content)
		if err != nil {
			return err
		}
		log := slog.New(slog.NewTextHandler(stderr, nil))
		svc, err := model.Service(os.Getenv, log)
		if err != nil {
			return err
		}
		db, err := sf.Open(ctx)
		if err != nil {
			return err
		}
		defer db.Close()
		// The extracted obligations are shown only for circulars the
		// store holds: sync first.
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			return err
		}
		st, err := obligations.Refresh(ctx, db, svc, cat.Circulars, force, log)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, st)
		return nil
	case sub == "accept" && len(circular) == 1:
		db, err := sf.Open(ctx)
		if err != nil {
			return err
		}
		defer db.Close()
		n, err := db.AcceptObligations(ctx, circular[0])
		if errors.Is(err, catalog.ErrNotFound) {
			return fmt.Errorf("no circular %q in the store", circular[0])
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d extracted obligations of %s accepted\n", n, circular[0])
		return nil
	}
	fmt.Fprint(stderr, obligationsUsage)
	return fmt.Errorf("bad arguments to obligations %s", sub)
}
