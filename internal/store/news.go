package store

import (
	"context"
	"fmt"
	"strings"
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
	if q.Limit < 1 {
		return nil, fmt.Errorf("store: ListNews: limit %d, want at least 1", q.Limit)
	}
	var (
		b    strings.Builder
		args []any
	)
	b.WriteString(`SELECT id, slug, title, content, excerpt, source, category, region, published_date, source_url
FROM news WHERE 1 = 1`)
	if q.Category != "" {
		b.WriteString(" AND category = ?")
		args = append(args, q.Category)
	}
	if q.Region != "" {
		b.WriteString(" AND region = ?")
		args = append(args, q.Region)
	}
	if term := searchTerm(q.Search); term != "" {
		b.WriteString(` AND search_lc LIKE ? ESCAPE '\'`)
		args = append(args, likeContains(term))
	}
	b.WriteString(" ORDER BY published_date DESC, slug LIMIT ?")
	args = append(args, q.Limit)

	rows, err := s.db.QueryContext(ctx, b.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("store: ListNews: %w", err)
	}
	defer rows.Close()
	list := []NewsItem{}
	for rows.Next() {
		var n NewsItem
		var published string
		if err := rows.Scan(&n.ID, &n.Slug, &n.Title, &n.Content, &n.Excerpt, &n.Source, &n.Category,
			&n.Region, &published, &n.SourceURL); err != nil {
			return nil, fmt.Errorf("store: ListNews: %w", err)
		}
		if n.PublishedDate, err = parseDate(published); err != nil {
			return nil, fmt.Errorf("store: ListNews: %w", err)
		}
		list = append(list, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: ListNews: %w", err)
	}
	return list, nil
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
