package main

import (
	"context"
	"fmt"
	"io"

	"regpulse/internal/app"
	"regpulse/internal/ingest"
)

// cmdIngestPull writes the drafts queued in the store as files: a run
// with no content directory (a function on a static host) keeps its
// drafts there, and an editor's machine pulls them into content/. It
// also lists the copies whose "also published as" link waits for an
// editor (their first copy's file was edited, so ingest left it alone).
func cmdIngestPull(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ingest pull", stderr)
	content := fs.String("content", "content", "content directory (drafts go to its circulars/)")
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database holding the queued drafts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("ingest pull takes no arguments (got %q)", fs.Args())
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	written, err := ingest.Pull(ctx, db, *content)
	for _, w := range written {
		fmt.Fprintf(stdout, "wrote %s (feed %q: %q)\n", w.Path, w.Feed, w.Title)
	}
	if err != nil {
		return err
	}
	pending, err := db.PendingIngestCopies(ctx)
	if err != nil {
		return err
	}
	for _, p := range pending {
		fmt.Fprintf(stdout, "also published as: %s (%s) for %s: add it to additionalSourceUrls with as: %s\n",
			p.URL, p.Variant, p.FilePath, p.Variant)
	}
	fmt.Fprintf(stdout, "ingest pull: %d drafts written, %d links waiting for an editor\n", len(written), len(pending))
	return nil
}
