package generator

import (
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

// writeOutputs adds what Hugo does not render: the feeds, the compliance
// calendar, the sitemaps and the security headers, each made on a core
// of its own (they only read the catalog and the texts; one after
// another they were most of a second of every build at 100,000
// circulars, the sitemaps' 230,000 URLs the most). extracted are the
// calendar's extracted obligations (complianceEvents).
func writeOutputs(pub *render.Output, cat *catalog.Catalog, extracted map[string][]catalog.Obligation, book *directions.Book, opts Options, txt texts, scripts []string) error {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	write := pub.Publish
	for _, f := range Feeds() {
		g.Go(func() error {
			atom, err := f.renderAtom(cat, opts.BaseURL, txt)
			if err != nil {
				return fmt.Errorf("feed %s: %w", f.Atom, err)
			}
			if err := write(f.Atom, atom); err != nil {
				return err
			}
			js, err := f.renderJSON(cat, opts.BaseURL, txt)
			if err != nil {
				return fmt.Errorf("feed %s: %w", f.JSON, err)
			}
			return write(f.JSON, js)
		})
	}
	g.Go(func() error { return writeDirectionFeeds(pub, book, opts.BaseURL) })
	g.Go(func() error { return write(CalendarPath, RenderCalendar(cat, extracted, opts.Now(), opts.BaseURL, "")) })
	for _, t := range catalog.EntityTypes {
		g.Go(func() error {
			return write(EntityCalendarPath(t), RenderCalendar(cat, extracted, opts.Now(), opts.BaseURL, t))
		})
	}
	g.Go(func() error {
		sitemaps, err := renderSitemaps(sitemapURLs(cat, opts.Now(), opts.BaseURL), opts.BaseURL)
		if err != nil {
			return fmt.Errorf("sitemap: %w", err)
		}
		for name, data := range sitemaps {
			if err := write(name, data); err != nil {
				return err
			}
		}
		return nil
	})
	g.Go(func() error { return write(HeadersFile, headers(scripts)) })
	return g.Wait()
}
