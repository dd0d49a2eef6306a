package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/search/index"
)

// Writing the circulars' full-text index (migrations/00018): for each
// circular a sync adds or changes, or whose stored summary changes, its
// keys counted per column (index.Terms, encoded) in circular_terms and
// its words in search_words, stamped with the transaction's
// search_version; a removed circular's row keeps only the stamp. Reading
// it into memory and searching it is search.go.

// circularIndex is the search index's work for one sync (a rowIndex):
// the circulars' keys are counted on every core a few chunks ahead of
// their rows, so that tokenising overlaps with writing, and the terms are
// written once the rows (and their keys) are.
type circularIndex struct {
	st      *txStmts
	cs      []catalog.Circular
	version int64
	docs    *ahead[indexedDoc]
	terms   *rowBatch
	words   *rowBatch
	seen    map[string]bool // words written
}

// indexAhead is how many chunks are counted ahead of the rows written.
const indexAhead = 4

// beginCircularIndex starts indexing cs, the circulars a sync writes.
func beginCircularIndex(ctx context.Context, st *txStmts, cs []catalog.Circular) (rowIndex, error) {
	version, err := st.searchVersion(ctx)
	if err != nil {
		return nil, err
	}
	summaries, err := storedSummaries(ctx, st, cs)
	if err != nil {
		return nil, err
	}
	return &circularIndex{st: st, cs: cs, version: version, seen: map[string]bool{},
		docs: startAhead(ctx, cs, syncChunk, indexAhead, func(c catalog.Circular) (indexedDoc, error) {
			return indexDoc(c, summaries[c.ID]), nil
		}),
		terms: st.batch(func(n int) string {
			return upsertRowsSQL("circular_terms", []string{"rid", "version", "source", "category", "published_date", "slug", "terms"}, 1, n)
		}, 7),
		words: st.batch(func(n int) string {
			return insertRowsSQL("search_words", []string{"word", "key", "version"}, n) + " ON CONFLICT (word) DO NOTHING"
		}, 3)}, nil
}

func (ix *circularIndex) written(ctx context.Context, start, end int) error {
	docs, err := ix.docs.take(ctx, start/syncChunk)
	if err != nil {
		return err
	}
	chunk := ix.cs[start:end]
	rids, err := circularRids(ctx, ix.st, chunk)
	if err != nil {
		return err
	}
	for i, c := range chunk {
		d := docs[i]
		if d.err != nil {
			return fmt.Errorf("%s: index: %w", c.ID, d.err)
		}
		if err := ix.terms.add(ctx, rids[c.ID], ix.version, c.Source, c.Category,
			dateText(c.PublishedDate.Time), c.Slug, d.terms); err != nil {
			return err
		}
		for _, w := range d.words {
			if !ix.seen[w.Word] {
				ix.seen[w.Word] = true
				if err := ix.words.add(ctx, w.Word, w.Key, ix.version); err != nil {
					return err
				}
			}
		}
	}
	if end < len(ix.cs) {
		return nil
	}
	if err := ix.terms.flush(ctx); err != nil {
		return err
	}
	return ix.words.flush(ctx)
}

func (ix *circularIndex) stop() { ix.docs.stop() }

// indexCirculars indexes cs, whose rows are written.
func indexCirculars(ctx context.Context, st *txStmts, cs []catalog.Circular) error {
	ix, err := beginCircularIndex(ctx, st, cs)
	if err != nil {
		return err
	}
	defer ix.stop()
	for start := 0; start < len(cs); start += syncChunk {
		if err := ix.written(ctx, start, min(len(cs), start+syncChunk)); err != nil {
			return err
		}
	}
	return nil
}

// indexedDoc is what indexDoc makes of a circular.
type indexedDoc struct {
	terms []byte
	words []search.Word
	err   error
}

// indexDoc counts c's keys, with the summaries pages show (the editors'
// and a stored one, both found), and encodes them.
func indexDoc(c catalog.Circular, stored string) indexedDoc {
	d := search.Index(c, search.Summaries(string(c.Summary), stored))
	b, err := index.Count(d).AppendBinary(nil)
	return indexedDoc{terms: b, words: d.Words, err: err}
}

// inChunks runs query, whose IN list takes the ids of cs, a few hundred
// ids at a time, calling row to scan each row.
func inChunks(ctx context.Context, st *txStmts, query string, cs []catalog.Circular, row func(*sql.Rows) error) error {
	for start := 0; start < len(cs); start += batchRows {
		part := cs[start:min(len(cs), start+batchRows)]
		args := make([]any, len(part))
		for i, c := range part {
			args[i] = c.ID
		}
		rows, err := st.tx.QueryContext(ctx, strings.Replace(query, "(?)", "("+placeholders(len(args))+")", 1), args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := row(rows); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// storedSummaries are the stored summaries of cs, by circular id.
func storedSummaries(ctx context.Context, st *txStmts, cs []catalog.Circular) (map[string]string, error) {
	out := map[string]string{}
	err := inChunks(ctx, st, `SELECT circular_id, summary FROM circular_summaries WHERE circular_id IN (?)`, cs,
		func(rows *sql.Rows) error {
			var id, summary string
			if err := rows.Scan(&id, &summary); err != nil {
				return err
			}
			out[id] = summary
			return nil
		})
	return out, err
}

// circularRids are the index keys (rowid) of the stored cs, by id.
func circularRids(ctx context.Context, st *txStmts, cs []catalog.Circular) (map[string]int64, error) {
	out := make(map[string]int64, len(cs))
	err := inChunks(ctx, st, `SELECT c.id, c.rowid FROM circulars c WHERE c.id IN (?)`, cs,
		func(rows *sql.Rows) error {
			var id string
			var rid int64
			if err := rows.Scan(&id, &rid); err != nil {
				return err
			}
			out[id] = rid
			return nil
		})
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if _, ok := out[c.ID]; !ok {
			return nil, fmt.Errorf("%s: index: %w", c.ID, ErrNotFound)
		}
	}
	return out, nil
}

// placeholders is n comma-separated ? placeholders.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// unindexCirculars marks the index rows of the circulars with ids, about
// to be removed, as removed.
func unindexCirculars(ctx context.Context, st *txStmts, ids []string) error {
	version, err := st.searchVersion(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := st.exec(ctx, `UPDATE circular_terms SET terms = NULL, version = ?
WHERE rid = (SELECT c.rowid FROM circulars c WHERE c.id = ?)`, version, id); err != nil {
			return err
		}
	}
	return nil
}

// reindexCircular indexes the stored circular with id again (its summary
// changed).
func reindexCircular(ctx context.Context, tx *txConn, id string) error {
	st := newTxStmts(tx)
	defer st.close()
	c, err := scanOne(ctx, tx, circularTable.cols, `SELECT `+circularTable.cols.selectList("", nil)+` FROM circulars WHERE id = ?`, id)
	if err != nil {
		return err
	}
	return indexCirculars(ctx, st, []catalog.Circular{c})
}

// searchVersion is the search_version of the transaction's changes to the
// index: the next one, taken once per transaction. The row's lock keeps
// transactions that change the index in the order of their versions.
func (t *txStmts) searchVersion(ctx context.Context) (int64, error) {
	if t.indexVersion == 0 {
		row, err := t.queryRow(ctx, `UPDATE search_version SET version = version + 1 WHERE id = 1 RETURNING version`)
		if err != nil {
			return 0, err
		}
		if err := row.Scan(&t.indexVersion); err != nil {
			return 0, fmt.Errorf("search version: %w", err)
		}
	}
	return t.indexVersion, nil
}
