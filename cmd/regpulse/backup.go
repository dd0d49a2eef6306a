package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"regpulse/internal/app"
)

// cmdBackup is `regpulse backup --out FILE`: a consistent copy of the
// store (SQLite or PostgreSQL) in one SQLite file, taken while the
// server runs.
func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("backup", stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: regpulse backup --out FILE [--data DIR | --database-url URL]\n\n"+
			"Writes a consistent copy of the store, while the server runs, to FILE (a SQLite database; never\n"+
			"overwritten). Restore it with regpulse restore, into SQLite or PostgreSQL.\n\nflags:")
		fs.PrintDefaults()
	}
	out := fs.String("out", "", "the backup file to write (required; must not exist)")
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database to back up")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("backup: --out FILE is required, and nothing else")
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	if err := db.Backup(ctx, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up the %s store to %s in %s\n", db.Dialect(), *out, time.Since(start).Round(time.Millisecond))
	return nil
}

// cmdRestore is `regpulse restore FILE`: a backup into an empty store of
// either kind.
func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("restore", stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: regpulse restore FILE [--data DIR | --database-url URL]\n\n"+
			"Copies a backup made by regpulse backup into an empty store: a new --data folder (SQLite) or a new\n"+
			"PostgreSQL database. A store that holds data is refused; nothing is merged.\n\nflags:")
		fs.PrintDefaults()
	}
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database to restore into (created)")
	// the file may come before or after the flags
	file := ""
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 || file == "" {
		fs.Usage()
		return errors.New("restore: name one backup file")
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	if err := db.Restore(ctx, file); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s into the %s store in %s\n", file, db.Dialect(), time.Since(start).Round(time.Millisecond))
	return nil
}
