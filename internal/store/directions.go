package store

import (
	"context"
	"fmt"
	"strconv"

	"regpulse/internal/catalog"
)

// The Master Directions: the directions, their versions, and every text
// each provision has had (provision_spans), from which the text in force
// on a day and what changed between two days are read.

var (
	directionColumns = columnsOf[catalog.MasterDirection]()
	versionColumns   = columnsOf[catalog.DirectionVersion]()
	spanColumns      = columnsOf[spanRow]()
)

// spanRow is how provision_spans keeps a catalog.ProvisionSpan: with its
// direction, and its version by date (the catalog's is an index into the
// direction's versions, drafts included, which the store does not keep).
type spanRow struct {
	ID        string           `json:"id"`
	Direction string           `json:"direction"`
	Lineage   int              `json:"lineage"`
	Position  int              `json:"position"`
	Provision string           `json:"provision"`
	Chapter   string           `json:"chapter"`
	Heading   string           `json:"heading"`
	Text      string           `json:"text"`
	Wording   string           `json:"wording"`
	ValidFrom catalog.Date     `json:"validFrom"`
	ValidTo   *catalog.Date    `json:"validTo"`
	Version   *catalog.Date    `json:"version"`
	Change    string           `json:"change"`
	Touches   catalog.TextList `json:"touches"`
}

var directionTable = table[catalog.MasterDirection]{name: "master_directions", cols: directionColumns}

var versionTable = table[catalog.DirectionVersion]{name: "direction_versions", cols: versionColumns}

var spanTable = table[spanRow]{name: "provision_spans", cols: spanColumns}

// publishedVersions are the directions' versions but drafts, which no
// reader sees.
func publishedVersions(ds []catalog.MasterDirection) []catalog.DirectionVersion {
	var out []catalog.DirectionVersion
	for _, d := range ds {
		for _, v := range d.Versions {
			if !v.Draft {
				out = append(out, v)
			}
		}
	}
	return out
}

// spanRows are the directions' spans as provision_spans keeps them.
func spanRows(ds []catalog.MasterDirection) []spanRow {
	var out []spanRow
	for _, d := range ds {
		for _, s := range d.History {
			r := spanRow{ID: d.ID + "/" + strconv.Itoa(s.Key) + "/" + s.From.String(), Direction: d.Slug,
				Lineage: s.Key, Position: s.Position, Provision: s.ID, Chapter: string(s.Chapter), Heading: string(s.Heading),
				Text: s.Text, Wording: s.Wording, ValidFrom: s.From, ValidTo: s.To, Change: string(s.Change), Touches: s.Touches}
			if s.Version >= 0 {
				r.Version = &d.Versions[s.Version].Date
			}
			out = append(out, r)
		}
	}
	return out
}

// ListDirections returns every Master Direction, newest issued first,
// each with its versions (their effects left out: a list names them).
func (s *DB) ListDirections(ctx context.Context) (_ []catalog.MasterDirection, err error) {
	defer wrap(&err, "ListDirections")
	ds, err := scanAll(ctx, s.db, directionColumns, `SELECT `+directionColumns.selectList("", nil)+
		` FROM master_directions ORDER BY issued_date DESC, slug`)
	if err != nil {
		return nil, err
	}
	vs, err := scanAll(ctx, s.db, versionColumns, `SELECT `+versionColumns.selectList("", map[string]string{"effects": "'[]'"})+
		` FROM direction_versions ORDER BY direction, date`)
	if err != nil {
		return nil, err
	}
	by := map[string][]catalog.DirectionVersion{}
	for _, v := range vs {
		by[v.Direction] = append(by[v.Direction], v)
	}
	for i := range ds {
		ds[i].Versions = by[ds[i].Slug]
	}
	return ds, nil
}

// Direction returns the direction with slug and its versions, oldest
// first; ErrNotFound when there is none.
func (s *DB) Direction(ctx context.Context, slug string) (_ catalog.MasterDirection, err error) {
	defer wrap(&err, "Direction")
	return direction(ctx, s.db, slug)
}

func direction(ctx context.Context, q querier, slug string) (catalog.MasterDirection, error) {
	ds, err := scanAll(ctx, q, directionColumns, `SELECT `+directionColumns.selectList("", nil)+
		` FROM master_directions WHERE slug = ?`, slug)
	if err != nil {
		return catalog.MasterDirection{}, err
	}
	if len(ds) == 0 {
		return catalog.MasterDirection{}, ErrNotFound
	}
	d := ds[0]
	d.Versions, err = scanAll(ctx, q, versionColumns, `SELECT `+versionColumns.selectList("", nil)+
		` FROM direction_versions WHERE direction = ? ORDER BY date`, slug)
	return d, err
}

// DirectionBetween returns the direction with slug, its versions, and as
// its History the spans in force at some time from one day to a later
// one: what its text on either day, and what changed between them, are
// made of (directions.Compare). from and to may be the same day.
func (s *DB) DirectionBetween(ctx context.Context, slug string, from, to catalog.Date) (_ catalog.MasterDirection, err error) {
	defer wrap(&err, "DirectionBetween")
	return directionBetween(ctx, s.db, slug, from, to)
}

// directionBetween is DirectionBetween read through q (a sync's
// transaction: reopen.go).
func directionBetween(ctx context.Context, q querier, slug string, from, to catalog.Date) (catalog.MasterDirection, error) {
	d, err := direction(ctx, q, slug)
	if err != nil {
		return d, err
	}
	if to.Before(from.Time) {
		from, to = to, from
	}
	rows, err := scanAll(ctx, q, spanColumns, `SELECT `+spanColumns.selectList("", nil)+
		` FROM provision_spans WHERE direction = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)
		ORDER BY position, valid_from`, slug, to.String(), from.String())
	if err != nil {
		return d, err
	}
	version := map[string]int{}
	for i, v := range d.Versions {
		version[v.Date.String()] = i
	}
	d.History = make([]catalog.ProvisionSpan, len(rows))
	for i, r := range rows {
		sp := catalog.ProvisionSpan{Key: r.Lineage, Position: r.Position,
			Provision: catalog.Provision{ID: r.Provision, Chapter: catalog.OptString(r.Chapter), Heading: catalog.OptString(r.Heading),
				Text: r.Text, Wording: r.Wording},
			From: r.ValidFrom, To: r.ValidTo, Version: -1, Change: catalog.OptString(r.Change), Touches: r.Touches}
		if r.Version != nil {
			vi, ok := version[r.Version.String()]
			if !ok {
				return d, fmt.Errorf("provision %s of %s: no version of %s", r.Provision, slug, r.Version)
			}
			sp.Version = vi
		}
		d.History[i] = sp
	}
	return d, nil
}
