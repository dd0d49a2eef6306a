package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/extract"
)

// DirectionRequest asks for a Master Direction's official text to be read
// and compared with the version RegPulse has in force.
type DirectionRequest struct {
	Content string // the content directory
	Slug    string // the direction's folder under content/master-directions
	From    string // the document: an http(s) URL or a file (PDF, HTML, DOCX, text)
	// URL is the regulator's address of a document read from a file (a
	// copy downloaded from it): the draft records it as its source.
	URL string
	// Date is when the read text is in force: the draft version's date,
	// and the text it is compared with is the one in force the day before.
	Date      catalog.Date
	Extractor *extract.Extractor
	Client    *http.Client
	Now       func() time.Time
}

// DirectionResult is what reading a direction's text found.
type DirectionResult struct {
	Path    string           // the draft written; "" when nothing changed
	Effects []catalog.Effect // what the draft records
	SHA256  string
}

// ErrVersionExists is returned when the direction already has a version
// file of the date.
var ErrVersionExists = errors.New("a version of that date exists")

// Direction reads the document, splits it into its numbered provisions
// (directions.Parse), compares them with the direction's text in force
// the day before req.Date, and writes the differences as a draft version
// (draft: true, with the document's address, SHA-256 and fetch date) for
// an editor to review. Nothing is written when nothing changed.
func Direction(ctx context.Context, req DirectionRequest) (DirectionResult, error) {
	var res DirectionResult
	cat, err := catalog.Load(req.Content)
	if err != nil {
		return res, err
	}
	var d *catalog.MasterDirection
	for i := range cat.Directions {
		if cat.Directions[i].Slug == req.Slug {
			d = &cat.Directions[i]
		}
	}
	if d == nil {
		return res, fmt.Errorf("no Master Direction %s in %s", req.Slug, filepath.Join(req.Content, catalog.DirectionsFolder))
	}
	if !req.Date.After(d.IssuedDate.Time) {
		return res, fmt.Errorf("--date %s is not after the direction's issue date %s", req.Date, d.IssuedDate)
	}
	if !isURL(req.From) && !isURL(req.URL) {
		return res, fmt.Errorf("%s is a file: give the regulator's address it was downloaded from (--url https://...)", req.From)
	}
	path := filepath.Join(req.Content, catalog.DirectionsFolder, req.Slug, req.Date.String()+".md")
	if _, err := os.Stat(path); err == nil {
		return res, fmt.Errorf("%s: %w", path, ErrVersionExists)
	}
	client := req.Client
	if client == nil {
		client = &http.Client{Timeout: DefaultTimeout}
	}
	data, err := fetch(ctx, client, req.From, extract.MaxUpload)
	if err != nil {
		return res, err
	}
	sum := sha256.Sum256(data)
	res.SHA256 = hex.EncodeToString(sum[:])
	text, err := req.Extractor.Extract(ctx, data)
	if err != nil {
		return res, fmt.Errorf("%s: %w", req.From, err)
	}
	parsed, err := directions.Parse(text.Text)
	if err != nil {
		return res, fmt.Errorf("%s: %w", req.From, err)
	}
	before := catalog.Date{Time: req.Date.AddDate(0, 0, -1)}
	var current []catalog.Provision
	for _, s := range d.At(before) {
		current = append(current, s.Provision)
	}
	res.Effects = directions.Effects(current, parsed.Provisions)
	if len(res.Effects) == 0 {
		return res, nil
	}
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	src := catalog.FetchedSource{URL: req.From, SHA256: res.SHA256, Fetched: catalog.Date{Time: catalog.Day(now())}}
	if !isURL(req.From) {
		src.URL = req.URL
	}
	file, err := directions.DraftVersion(res.Effects, parsed.Footnotes, src)
	if err != nil {
		return res, err
	}
	if err := os.WriteFile(path, file, 0o644); err != nil {
		return res, err
	}
	res.Path = path
	return res, nil
}
