package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"regpulse/internal/app"
	"regpulse/internal/auth"
	"regpulse/internal/store"
)

// cmdUsers is the operator's account tool: the admin role is given here
// only, never through the API.
func cmdUsers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = "usage: regpulse users list | regpulse users promote USERNAME  [--data DIR]"
	if len(args) == 0 {
		return errors.New(use)
	}
	if isHelp(args[0]) {
		fmt.Fprintln(stdout, use)
		return nil
	}
	sub := args[0]
	fs := newFlagSet("users "+sub, stderr)
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	open := func() (*store.DB, error) { return sf.Open(ctx) }
	switch {
	case sub == "list" && fs.NArg() == 0:
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		users, err := db.ListUsers(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "USERNAME\tE-MAIL\tNAME\tROLE\tCREATED\tLAST SIGN-IN")
		for _, u := range users {
			last := "never"
			if !u.LastLoginAt.IsZero() {
				last = u.LastLoginAt.UTC().Format(time.DateTime)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\t%s\n", u.Username, u.Email, u.FirstName, u.LastName, u.Role,
				u.CreatedAt.UTC().Format(time.DateOnly), last)
		}
		return tw.Flush()
	case sub == "promote" && fs.NArg() == 1:
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		u, err := db.SetRole(ctx, fs.Arg(0), auth.RoleAdmin)
		if errors.Is(err, auth.ErrNoUser) {
			return fmt.Errorf("no user named %q (regpulse users list shows them)", fs.Arg(0))
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is now an admin\n", u.Username)
		return nil
	}
	return errors.New(use)
}
