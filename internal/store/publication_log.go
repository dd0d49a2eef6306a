package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/indian"
)

// The publication log (issue 45, migration 00042): every change a catalog
// sync makes to what readers see (a circular, a Master Direction or one
// of its versions published, revised in place, withdrawn, superseded,
// removed, republished) is appended in the sync's own transaction, so
// the log and the catalog never disagree. seq is the consumers' cursor:
// syncs are serialised (SQLite has one writer; PostgreSQL's sync takes
// syncLock before it writes), so a seq becomes visible only after every
// smaller one and a consumer reading after the last seq it saw misses
// nothing and sees nothing twice.
//
// What changed is decided against publication_state, the log's own
// memory of each item, not against the rows the sync overwrites: only
// items whose row content_hash moved since the log last looked are
// compared (a join, cheap when little changed), and they are compared by
// the log's own hash of their text (textHash), so a change that rewrites
// every row without changing any text (a new column, a re-index forcing
// content_hash = '') logs nothing.
//
// Baseline: the log starts empty. The first sync that finds it empty (the
// first after migration 00042, or a new store's first) logs one baseline
// entry naming how much the catalog held and records every item's state
// silently: the archive is not replayed as "published". A consumer
// starting from nothing reads the catalog (GET /api/circulars,
// /api/master-directions) and the log from the baseline's seq.

// publicationItem is one item of the catalog as the log compares it.
type publicationItem struct {
	kind, id, slug, source, title, path, changes string
	// text is what textHash covers: what readers read of the item.
	text         any
	withdrawnOn  string // a date, "withdrawn" when it has none, or ""
	supersededBy []string
}

// publicationTables are the catalog's tables the log follows, each with
// its kind and the items of a catalog it holds.
var publicationTables = []struct {
	table, kind string
	items       func(*catalog.Catalog) []publicationItem
	// stats is what the sync did to the table: one it did not touch
	// holds the rows the log compared at the last sync, so it is not
	// looked at (the steady state's cost is then nothing).
	stats func(SyncStats) KindStats
}{
	{"circulars", "circular", circularItems, func(s SyncStats) KindStats { return s.Circulars }},
	{"master_directions", "direction", directionItems, func(s SyncStats) KindStats { return s.Directions }},
	{"direction_versions", "direction-version", versionItems, func(s SyncStats) KindStats { return s.Versions }},
}

func circularItems(cat *catalog.Catalog) []publicationItem {
	out := make([]publicationItem, 0, len(cat.Circulars))
	for _, c := range cat.Circulars {
		it := publicationItem{kind: "circular", id: c.ID, slug: c.Slug, source: c.Source, title: c.Heading(),
			path: "/circulars/" + c.Slug, supersededBy: c.SupersededBy,
			text: struct {
				Number, Title, Summary, Content, Source, Category, Type string
				Published                                               catalog.Date
				Effective                                               *catalog.Date
				Dates                                                   []catalog.ComplianceDate
				Supersedes                                              []string
			}{string(c.CircularNumber), c.Title, string(c.Summary), c.Content, c.Source, c.Category, c.DocumentType,
				c.PublishedDate, c.EffectiveDate, c.ComplianceDates, c.Supersedes}}
		if c.WithdrawnOn != nil {
			it.withdrawnOn = c.WithdrawnOn.String()
		}
		out = append(out, it)
	}
	return out
}

func directionItems(cat *catalog.Catalog) []publicationItem {
	out := make([]publicationItem, 0, len(cat.Directions))
	for _, d := range cat.Directions {
		it := publicationItem{kind: "direction", id: d.ID, slug: d.Slug, source: d.Source, title: d.Title,
			path: catalog.DirectionPath(d.Slug), supersededBy: d.ReplacedBy,
			text: struct {
				Title, Number, About string
				Issued               catalog.Date
				Chapters             []catalog.Chapter
				Provisions           []catalog.Provision
			}{d.Title, string(d.Number), d.About, d.IssuedDate, d.Chapters, d.Provisions}}
		if d.Status != "" && d.Status != "in-force" {
			it.withdrawnOn = "withdrawn"
			if d.StatusDate != nil {
				it.withdrawnOn = d.StatusDate.String()
			}
		}
		out = append(out, it)
	}
	return out
}

func versionItems(cat *catalog.Catalog) []publicationItem {
	var out []publicationItem
	for _, d := range cat.Directions {
		for vi, v := range d.Versions {
			if v.Draft {
				continue // as the store keeps them (publishedVersions)
			}
			out = append(out, publicationItem{kind: "direction-version", id: v.ID, slug: d.Slug, source: d.Source,
				title: d.Title + ": text as amended on " + v.Date.String(), path: catalog.DirectionAsOfPath(d.Slug, v.Date),
				changes: catalog.DirectionComparePath(d.Slug, d.TextBefore(vi), v.Date),
				text: struct {
					Date      catalog.Date
					Circulars []string
					Amending  *catalog.AmendingCircular
					Note      string
					Effects   []catalog.Effect
				}{v.Date, v.Circulars, v.Amending, v.Note, v.Effects}})
		}
	}
	return out
}

// textHash is the log's hash of an item's text: SHA-256 of its JSON,
// shortened (it tells versions apart, it guards nothing).
func textHash(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16]), nil
}

// publicationState is a row of publication_state.
type publicationState struct {
	textHash, withdrawnOn, supersededBy string
	present                             bool
}

// publicationDetail is the JSON of a log entry's detail column.
type publicationDetail struct {
	Path         string   `json:"path,omitempty"`
	Changes      string   `json:"changes,omitempty"`
	SupersededBy []string `json:"supersededBy,omitempty"`
	WithdrawnOn  string   `json:"withdrawnOn,omitempty"`
	Note         string   `json:"note,omitempty"`
}

// logPublications appends to the publication log, in tx, what the sync of
// cat changed (stats), and brings publication_state in step. It runs after
// the catalog's tables are written.
//
// pub, when not nil, publishes the webhooks' events of the entries
// (webhook_producers.go), in tx too.
func logPublications(ctx context.Context, tx *txConn, st *txStmts, cat *catalog.Catalog, stats SyncStats, now time.Time, pub *syncEvents) error {
	at := now.UTC().Format(time.RFC3339)
	var first int64
	err := tx.QueryRowContext(ctx, `SELECT seq FROM publication_log ORDER BY seq LIMIT 1`).Scan(&first)
	baseline := errors.Is(err, sql.ErrNoRows)
	if err != nil && !baseline {
		return err
	}
	states := st.batch(func(n int) string {
		return upsertRowsSQL("publication_state", []string{"kind", "entry_id", "slug", "source", "title", "path", "store_hash", "text_hash", "withdrawn_on", "superseded_by", "present"}, 2, n)
	}, 11)
	entry := func(event string, it publicationItem, before, after string, d publicationDetail) error {
		if event != "removed" { // its page is gone
			d.Path = it.path
		}
		js, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if err := st.exec(ctx, `INSERT INTO publication_log (at, event, kind, entry_id, slug, source, title, before_hash, after_hash, detail)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, at, event, it.kind, it.id, it.slug, it.source, it.title, before, after, string(js)); err != nil {
			return err
		}
		if pub == nil {
			return nil
		}
		return pub.logged(ctx, event, it, after)
	}
	counts := map[string]int{}
	for _, t := range publicationTables {
		ks := t.stats(stats)
		if !baseline && !ks.touched() {
			continue
		}
		items := t.items(cat)
		counts[t.kind] = len(items)
		byID := make(map[string]*publicationItem, len(items))
		for i := range items {
			byID[items[i].id] = &items[i]
		}
		// Rows move only where the sync added or changed some; items
		// leave only where it removed some.
		var changed []loggedRow
		if baseline || ks.Added+ks.Changed > 0 {
			if changed, err = changedSinceLogged(ctx, tx, t.table, t.kind); err != nil {
				return fmt.Errorf("%s: %w", t.table, err)
			}
		}
		for _, c := range changed {
			it := byID[c.id]
			if it == nil {
				return fmt.Errorf("%s: row %s is not in the catalog synced", t.table, c.id)
			}
			h, err := textHash(it.text)
			if err != nil {
				return fmt.Errorf("%s: %w", it.id, err)
			}
			sup := strings.Join(it.supersededBy, " ")
			if !baseline {
				if err := logChange(it, c.state, h, sup, entry); err != nil {
					return err
				}
			}
			if err := states.add(ctx, it.kind, it.id, it.slug, it.source, it.title, it.path, c.storeHash, h, it.withdrawnOn, sup, 1); err != nil {
				return err
			}
		}
		if err := states.flush(ctx); err != nil {
			return err
		}
		var gone []publicationItem
		if baseline || ks.Removed > 0 {
			if gone, err = removedSinceLogged(ctx, tx, t.table, t.kind); err != nil {
				return fmt.Errorf("%s: %w", t.table, err)
			}
		}
		for _, g := range gone {
			if !baseline {
				if err := entry("removed", g, "", "", publicationDetail{}); err != nil {
					return err
				}
			}
			if err := st.exec(ctx, `UPDATE publication_state SET present = 0 WHERE kind = ? AND entry_id = ?`, g.kind, g.id); err != nil {
				return err
			}
		}
	}
	if baseline {
		note := fmt.Sprintf("The log begins here. The catalog held %s circulars, %s Master Directions and %s of their versions; each change from now on is logged.",
			indian.Int(counts["circular"]), indian.Int(counts["direction"]), indian.Int(counts["direction-version"]))
		return entry("baseline", publicationItem{kind: "catalog"}, "", "", publicationDetail{Note: note})
	}
	return nil
}

// logChange logs what happened to item it since the log last saw it as
// was (nil: never), its text hash now h and its replacements now sup.
func logChange(it *publicationItem, was *publicationState, h, sup string, entry func(string, publicationItem, string, string, publicationDetail) error) error {
	switch {
	case was == nil:
		return entry("published", *it, "", h, publicationDetail{Changes: it.changes})
	case !was.present:
		return entry("republished", *it, was.textHash, h, publicationDetail{})
	}
	if was.textHash != h {
		if err := entry("revised", *it, was.textHash, h, publicationDetail{Changes: it.changes}); err != nil {
			return err
		}
	}
	withdrawnOn := it.withdrawnOn
	if withdrawnOn == "withdrawn" {
		withdrawnOn = ""
	}
	switch {
	case was.supersededBy == "" && sup != "":
		return entry("superseded", *it, "", "", publicationDetail{SupersededBy: it.supersededBy, WithdrawnOn: withdrawnOn})
	case was.withdrawnOn == "" && it.withdrawnOn != "":
		return entry("withdrawn", *it, "", "", publicationDetail{WithdrawnOn: withdrawnOn})
	}
	return nil
}

// loggedRow is a row of a catalog table the log has to look at, with
// what the log last knew of it (nil: nothing).
type loggedRow struct {
	id, storeHash string
	state         *publicationState
}

// changedSinceLogged are the rows of table whose content hash moved since
// the log last looked (new ones, and those back after a removal,
// included), by id.
func changedSinceLogged(ctx context.Context, tx *txConn, table, kind string) ([]loggedRow, error) {
	rows, err := tx.QueryContext(ctx, `SELECT c.id, c.content_hash, p.entry_id, p.text_hash, p.withdrawn_on, p.superseded_by, p.present
FROM `+table+` c LEFT JOIN publication_state p ON p.kind = ? AND p.entry_id = c.id
WHERE p.entry_id IS NULL OR p.store_hash <> c.content_hash OR p.present = 0
ORDER BY c.id`, kind)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []loggedRow
	for rows.Next() {
		var r loggedRow
		var known, th, wd, sup sql.NullString
		var present sql.NullInt64
		if err := rows.Scan(&r.id, &r.storeHash, &known, &th, &wd, &sup, &present); err != nil {
			return nil, err
		}
		if known.Valid {
			r.state = &publicationState{textHash: th.String, withdrawnOn: wd.String, supersededBy: sup.String, present: present.Int64 == 1}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// removedSinceLogged are the items the log knows present that table no
// longer holds, named as the log last knew them.
func removedSinceLogged(ctx context.Context, tx *txConn, table, kind string) ([]publicationItem, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.entry_id, p.slug, p.source, p.title, p.path FROM publication_state p
WHERE p.kind = ? AND p.present = 1 AND NOT EXISTS (SELECT 1 FROM `+table+` c WHERE c.id = p.entry_id)
ORDER BY p.entry_id`, kind)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []publicationItem
	for rows.Next() {
		it := publicationItem{kind: kind}
		if err := rows.Scan(&it.id, &it.slug, &it.source, &it.title, &it.path); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// maxPublicationLimit bounds a page of the log.
const maxPublicationLimit = 500

// PublicationLog reads a page of the publication log: after q.AfterSeq
// oldest first, or before q.Before newest first (catalog.PublicationQuery),
// at most q.Limit entries (at most maxPublicationLimit). more says whether
// entries follow the page in its direction.
func (s *DB) PublicationLog(ctx context.Context, q catalog.PublicationQuery) (_ []catalog.PublicationEntry, more bool, err error) {
	defer wrap(&err, "PublicationLog")
	limit := q.Limit
	if limit <= 0 || limit > maxPublicationLimit {
		limit = maxPublicationLimit
	}
	var where []string
	var args []any
	order := "ASC"
	if q.Before > 0 {
		where, args, order = append(where, "seq < ?"), append(args, q.Before), "DESC"
	} else {
		where, args = append(where, "seq > ?"), append(args, q.AfterSeq)
	}
	if q.From != nil {
		where, args = append(where, "at >= ?"), append(args, q.From.String())
	}
	if q.To != nil {
		// RFC 3339 UTC text sorts as time: every time of the day To is
		// below the next day.
		where, args = append(where, "at < ?"), append(args, catalog.Date{Time: q.To.AddDate(0, 0, 1)}.String())
	}
	if q.Source != "" {
		where, args = append(where, "source = ?"), append(args, q.Source)
	}
	if q.Event != "" {
		where, args = append(where, "event = ?"), append(args, q.Event)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, at, event, kind, entry_id, slug, source, title, before_hash, after_hash, detail
FROM publication_log WHERE `+strings.Join(where, " AND ")+` ORDER BY seq `+order+` LIMIT ?`, append(args, limit+1)...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	out := []catalog.PublicationEntry{}
	for rows.Next() {
		var e catalog.PublicationEntry
		var at, detail string
		if err := rows.Scan(&e.Seq, &at, &e.Event, &e.Kind, &e.ID, &e.Slug, &e.Source, &e.Title, &e.BeforeHash, &e.AfterHash, &detail); err != nil {
			return nil, false, err
		}
		if e.At, err = time.Parse(time.RFC3339, at); err != nil {
			return nil, false, fmt.Errorf("seq %d: %w", e.Seq, err)
		}
		var d publicationDetail
		if err := json.Unmarshal([]byte(detail), &d); err != nil {
			return nil, false, fmt.Errorf("seq %d: %w", e.Seq, err)
		}
		e.Path, e.Changes, e.Note = d.Path, d.Changes, d.Note
		e.SupersededBy = catalog.TextList(d.SupersededBy)
		if d.WithdrawnOn != "" {
			var day catalog.Date
			if err := day.UnmarshalText([]byte(d.WithdrawnOn)); err != nil {
				return nil, false, fmt.Errorf("seq %d: %w", e.Seq, err)
			}
			e.WithdrawnOn = &day
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}
