package store

import (
	"context"

	"regpulse/internal/catalog"
)

var newsColumns = columnsOf[catalog.NewsItem]()

// ListNews returns the page of news items q selects, newest first, and
// how many it selects in all.
func (s *DB) ListNews(ctx context.Context, q catalog.NewsQuery) ([]catalog.NewsItem, int, error) {
	lq := listQuery{op: "ListNews", sel: newsColumns.selectList("", nil), from: "news",
		order: "published_date DESC, slug"}
	lq.where.eq("category", q.Category)
	lq.where.eq("region", q.Region)
	if term := searchTerm(q.Search); term != "" {
		lq.where.add(`search_lc LIKE ? ESCAPE '\'`, likeContains(term))
		lq.countEach = true
	}
	return listPage(ctx, s.db, newsColumns, lq, q.Page)
}

// newsTable keeps the news items, with the lower-cased text search reads.
var newsTable = table[catalog.NewsItem]{
	name:  "news",
	cols:  newsColumns,
	extra: []string{"search_lc"},
	extraValues: func(n catalog.NewsItem) []any {
		return []any{searchText(n.Title, n.Excerpt, n.Category)}
	},
}
