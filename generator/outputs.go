package generator

import (
	"fmt"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

// writeOutputs adds what Hugo does not render: the feeds, the compliance
// calendar, the sitemaps and the security headers.
func writeOutputs(pub *render.Output, cat *catalog.Catalog, book *directions.Book, opts Options, txt texts, scripts []string) error {
	write := pub.Publish
	for _, f := range Feeds() {
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
		if err := write(f.JSON, js); err != nil {
			return err
		}
	}
	if err := writeDirectionFeeds(pub, book, opts.BaseURL); err != nil {
		return err
	}
	if err := write(CalendarPath, RenderCalendar(cat, opts.Now(), opts.BaseURL, "")); err != nil {
		return err
	}
	for _, t := range catalog.EntityTypes {
		if err := write(EntityCalendarPath(t), RenderCalendar(cat, opts.Now(), opts.BaseURL, t)); err != nil {
			return err
		}
	}
	sitemaps, err := renderSitemaps(sitemapURLs(cat, opts.Now(), opts.BaseURL), opts.BaseURL)
	if err != nil {
		return fmt.Errorf("sitemap: %w", err)
	}
	for name, data := range sitemaps {
		if err := write(name, data); err != nil {
			return err
		}
	}
	return write(HeadersFile, headers(scripts))
}
