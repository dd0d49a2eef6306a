package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"regpulse/internal/app"
	"regpulse/internal/auth"
	"regpulse/internal/store"
)

// cmdUsers is the operator's account tool: the admin role and the CMS
// roles (editor, reviewer) are given here only, never through the API.
func cmdUsers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = "usage: regpulse users list | regpulse users promote USERNAME | regpulse users cms-role USERNAME editor|reviewer|none  [--data DIR]"
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
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	open := func() (*store.DB, error) { return sf.Open(ctx) }
	switch {
	case sub == "list" && len(pos) == 0:
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		users, err := db.ListUsers(ctx)
		if err != nil {
			return err
		}
		grants, err := db.ListCMSRoles(ctx)
		if err != nil {
			return err
		}
		cmsRole := map[string]string{}
		for _, g := range grants {
			cmsRole[g.UserID] = g.Role
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "USERNAME\tE-MAIL\tNAME\tROLE\tCMS ROLE\tCREATED\tLAST SIGN-IN")
		for _, u := range users {
			last := "never"
			if !u.LastLoginAt.IsZero() {
				last = u.LastLoginAt.UTC().Format(time.DateTime)
			}
			cr := cmsRole[u.ID]
			if cr == "" {
				cr = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\t%s\t%s\n", u.Username, u.Email, u.FirstName, u.LastName, u.Role, cr,
				u.CreatedAt.UTC().Format(time.DateOnly), last)
		}
		return tw.Flush()
	case sub == "promote" && len(pos) == 1:
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		u, err := db.SetRole(ctx, pos[0], auth.RoleAdmin)
		if errors.Is(err, auth.ErrNoUser) {
			return fmt.Errorf("no user named %q (regpulse users list shows them)", pos[0])
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is now an admin\n", u.Username)
		return nil
	case sub == "cms-role" && len(pos) == 2:
		role := pos[1]
		if role != "editor" && role != "reviewer" && role != "none" {
			return fmt.Errorf("a CMS role is editor, reviewer or none, not %q", role)
		}
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		grant := role
		if role == "none" {
			grant = ""
		}
		u, err := db.SetCMSRole(ctx, pos[0], grant, "regpulse users cms-role")
		if errors.Is(err, auth.ErrNoUser) {
			return fmt.Errorf("no user named %q (regpulse users list shows them)", pos[0])
		}
		if err != nil {
			return err
		}
		if role == "none" {
			fmt.Fprintf(stdout, "%s has no CMS role now\n", u.Username)
		} else {
			fmt.Fprintf(stdout, "%s is now a CMS %s\n", u.Username, role)
		}
		return nil
	}
	return errors.New(use)
}

// parseInterspersed parses fs's flags wherever they stand among args
// (users cms-role asha editor --data DIR, as the README writes it) and
// returns the other arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
