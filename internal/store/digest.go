package store

import (
	"context"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
)

// DigestContent is what month's digest is chosen from, read from the
// store rather than the content folder (a scheduled function has none):
// the circulars published in the month or taking effect in the weeks
// after it (newsletter.Window), the month's news, every Sibos edition.
// The catalog's events are not stored, so an issue made from this has
// none; newsletter.NewIssueFromList makes the choice itself, as
// newsletter.NewIssue does from the catalog.
func (s *DB) DigestContent(ctx context.Context, month time.Time) (_ newsletter.Content, err error) {
	defer wrap(&err, "DigestContent")
	start, end, ahead := newsletter.Window(month)
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	var c newsletter.Content
	lq := listQuery{op: "DigestContent", sel: circularSelect, from: circularsFrom, order: "c.published_date DESC, c.slug"}
	lq.where.add("((c.published_date >= ? AND c.published_date < ?) OR (c.effective_date >= ? AND c.effective_date < ?))",
		day(start), day(end), day(end), day(ahead))
	if c.Circulars, err = listAll(ctx, s, circularColumns, lq); err != nil {
		return c, err
	}
	nq := listQuery{op: "DigestContent", sel: newsColumns.selectList("", nil), from: "news", order: "published_date DESC, slug"}
	nq.where.add("published_date >= ? AND published_date < ?", day(start), day(end))
	if c.News, err = listAll(ctx, s, newsColumns, nq); err != nil {
		return c, err
	}
	for offset := 0; ; offset += catalog.MaxLimit {
		page, total, err := s.ListSibosEvents(ctx, catalog.Page{Limit: catalog.MaxLimit, Offset: offset})
		if err != nil {
			return c, err
		}
		c.Sibos = append(c.Sibos, page...)
		if len(page) == 0 || len(c.Sibos) >= total {
			return c, nil
		}
	}
}

// listAll is every row of q, read a page at a time.
func listAll[T any](ctx context.Context, s *DB, cols columns[T], q listQuery) ([]T, error) {
	var out []T
	for offset := 0; ; offset += catalog.MaxLimit {
		page, total, err := listPage(ctx, s.db, cols, q, catalog.Page{Limit: catalog.MaxLimit, Offset: offset})
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) == 0 || len(out) >= total {
			return out, nil
		}
	}
}
