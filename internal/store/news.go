package store

import (
	"context"
	"database/sql"
	"time"

	"regpulse/internal/catalog"
)

// NewsItem is a fintech news item.
type NewsItem struct {
	ID            string
	Slug          string
	Title         string
	Content       string
	Excerpt       string
	Source        string
	Category      string
	Region        string
	PublishedDate time.Time
	SourceURL     string
}

// NewsQuery selects news items. Empty fields do not filter.
type NewsQuery struct {
	Category string
	Region   string
	Search   string // case-insensitive substring of title, excerpt or category
	Limit    int    // at least 1
}

// ListNews returns the news items q selects, newest first.
func (s *DB) ListNews(ctx context.Context, q NewsQuery) ([]NewsItem, error) {
	var w where
	w.eq("category", q.Category)
	w.eq("region", q.Region)
	if term := searchTerm(q.Search); term != "" {
		w.add(`search_lc LIKE ? ESCAPE '\'`, likeContains(term))
	}
	list := []NewsItem{}
	err := s.list(ctx, "ListNews", `SELECT id, slug, title, content, excerpt, source, category, region, published_date, source_url
FROM news`+w.sql()+` ORDER BY published_date DESC, slug`, w.args, q.Limit, func(rows *sql.Rows) error {
		var n NewsItem
		var published string
		if err := rows.Scan(&n.ID, &n.Slug, &n.Title, &n.Content, &n.Excerpt, &n.Source, &n.Category,
			&n.Region, &published, &n.SourceURL); err != nil {
			return err
		}
		var err error
		if n.PublishedDate, err = parseDate(published); err != nil {
			return err
		}
		list = append(list, n)
		return nil
	})
	return list, err
}

var newsTable = table[catalog.NewsItem]{
	name: "news",
	cols: []string{"id", "slug", "title", "content", "excerpt", "source", "category", "region",
		"published_date", "source_url", "search_lc", "content_hash"},
	id: func(n catalog.NewsItem) string { return n.ID },
	values: func(n catalog.NewsItem) ([]any, error) {
		return []any{n.ID, n.Slug, n.Title, n.Content, n.Excerpt, n.Source, n.Category, n.Region,
			n.PublishedDate.Format(dateLayout), n.SourceURL, searchText(n.Title, n.Excerpt, n.Category)}, nil
	},
}
