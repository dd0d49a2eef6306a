package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/extract"
	"regpulse/internal/ingest"
)

const ingestDirectionUsage = `usage: regpulse ingest direction SLUG --from URL|FILE [--url URL] --date YYYY-MM-DD [--content DIR]

Reads a Master Direction's official text (PDF, HTML, DOCX or text; a
scanned PDF through OCR when pdftoppm and tesseract are installed),
splits it into its numbered provisions, compares them with the text
content/master-directions/SLUG has in force the day before --date, and
writes the changes as a draft version (SLUG/DATE.md, draft: true) with
the document's address, SHA-256 and fetch date, for an editor to review.
A file needs --url, the regulator's address it was downloaded from.
`

func cmdIngestDirection(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ingest direction", stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), ingestDirectionUsage); fs.PrintDefaults() }
	content := fs.String("content", "content", "content directory")
	from := fs.String("from", "", "the official document: an http(s) URL or a file")
	url := fs.String("url", "", "the regulator's address of a document read from a file")
	date := fs.String("date", "", "the day the text read is in force from (YYYY-MM-DD)")
	var slug string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		slug, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if slug == "" && fs.NArg() > 0 {
		slug = fs.Arg(0)
	}
	if slug == "" || *from == "" || *date == "" {
		fs.Usage()
		return errors.New("ingest direction needs SLUG, --from and --date")
	}
	var day catalog.Date
	if err := day.UnmarshalText([]byte(*date)); err != nil {
		return fmt.Errorf("--date %q: want YYYY-MM-DD", *date)
	}
	res, err := ingest.Direction(ctx, ingest.DirectionRequest{Content: *content, Slug: slug, From: *from, URL: *url, Date: day,
		Extractor: extract.New(extract.FindTools(), extract.Config{})})
	if err != nil {
		return err
	}
	if res.Path == "" {
		fmt.Fprintf(stdout, "%s: the text read is the one in force; nothing written\n", slug)
		return nil
	}
	fmt.Fprintf(stdout, "wrote %s: %d change(s), draft for review (sha256 %s)\n", res.Path, len(res.Effects), res.SHA256)
	return nil
}
