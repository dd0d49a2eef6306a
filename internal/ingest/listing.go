package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
)

// Listing pages: NPCI and IRDAI publish no feed, and RBI's feeds hold
// about ten items, so a regulator's paged listing page is read too, by a
// few CSS selectors kept in feeds.yaml (an editor fixes them when the
// regulator redesigns the page, without a release). A page that no longer
// matches its selectors fails loudly (ShapeError) rather than reading as
// "no new items".

// Listing is how one listing page is read.
type Listing struct {
	// URL is the page. For paging by number it holds {page} (the first
	// page is FirstPage, 1 unless set) or {offset} (0, PageSize, …).
	URL string `yaml:"url"`
	// Item selects each row; Title, Link (an element with href), Date and
	// Number are selected within it. Number is optional: its text is
	// read with the title for the reference number (NPCI prints "OC No.
	// 228" in a cell of its own). Date is optional too: without it an
	// item is dated the day it is first seen, and the editor checks it.
	Item   string `yaml:"item"`
	Title  string `yaml:"title"`
	Link   string `yaml:"link"`
	Date   string `yaml:"date"`
	Number string `yaml:"number"`
	// DateLayout is the date's Go layout ("2 Jan 2006", "02.01.2006").
	DateLayout string `yaml:"dateLayout"`
	// Skip matches the text of rows that are not public circulars (NPCI
	// shows "Please get in touch with your bank" in place of many): they
	// are passed over, not taken for a changed shape.
	Skip string `yaml:"skip"`
	// Next selects the link to the next page, for a page whose URL holds
	// no {page} or {offset}.
	Next string `yaml:"next"`
	// PageSize is the rows per page ({offset}'s step); MaxPages bounds a
	// backfill (default 20).
	PageSize  int `yaml:"pageSize"`
	MaxPages  int `yaml:"maxPages"`
	FirstPage int `yaml:"firstPage"`

	skip *regexp.Regexp
}

// defaultMaxPages bounds a backfill when the listing says nothing.
const defaultMaxPages = 20

// check says what is wrong with l, which feed name's field holds.
func (l *Listing) check(field string) error {
	need := map[string]string{"url": l.URL, "item": l.Item, "title": l.Title, "link": l.Link}
	for _, k := range []string{"url", "item", "title", "link"} {
		if strings.TrimSpace(need[k]) == "" {
			return fmt.Errorf("%s: %s is missing", field, k)
		}
	}
	for k, sel := range map[string]string{"item": l.Item, "title": l.Title, "link": l.Link, "date": l.Date,
		"number": l.Number, "next": l.Next} {
		if sel == "" {
			continue
		}
		if _, err := cascadia.Compile(sel); err != nil {
			return fmt.Errorf("%s: %s: %q is not a CSS selector: %v", field, k, sel, err)
		}
	}
	if l.Date != "" && l.DateLayout == "" {
		return fmt.Errorf("%s: dateLayout is missing (the Go layout of the dates, like \"2 Jan 2006\")", field)
	}
	if strings.Contains(l.URL, "{offset}") && l.PageSize <= 0 {
		return fmt.Errorf("%s: pageSize is missing ({offset} steps by it)", field)
	}
	if l.MaxPages < 0 || l.PageSize < 0 {
		return fmt.Errorf("%s: pageSize and maxPages must not be negative", field)
	}
	if l.Skip != "" {
		re, err := regexp.Compile(l.Skip)
		if err != nil {
			return fmt.Errorf("%s: skip: %v", field, err)
		}
		l.skip = re
	}
	return nil
}

func (l *Listing) maxPages() int {
	if l.MaxPages > 0 {
		return l.MaxPages
	}
	return defaultMaxPages
}

// pageURL is the URL of page n (0 the first), or "" when the listing
// pages by its Next link or not at all.
func (l *Listing) pageURL(n int) string {
	first := l.FirstPage
	if first == 0 && strings.Contains(l.URL, "{page}") {
		first = 1
	}
	switch {
	case strings.Contains(l.URL, "{page}"):
		return strings.ReplaceAll(l.URL, "{page}", strconv.Itoa(first+n))
	case strings.Contains(l.URL, "{offset}"):
		return strings.ReplaceAll(l.URL, "{offset}", strconv.Itoa(n*l.PageSize))
	case n == 0:
		return l.URL
	}
	return ""
}

// ShapeError is a listing page that no longer matches its selectors.
type ShapeError struct {
	URL, Reason string
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("the page %s changed shape: %s (fix its selectors in feeds.yaml)", e.URL, e.Reason)
}

// row is one item of a listing page.
type row struct {
	title, link, number string
	date                time.Time
	dated               bool // the page gave the date
}

// page is what one listing page gave.
type page struct {
	rows    []row
	skipped int      // rows that are not public circulars
	bad     []string // rows whose date could not be read
	next    string   // the next page's URL by the Next link ("" none)
}

// readPage reads a listing page's rows. first says whether it is the
// listing's first page, where no rows at all means a changed shape (on a
// later page, the end of the listing).
func (l *Listing) readPage(data []byte, pageURL string, first bool, now time.Time) (page, error) {
	var p page
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(asUTF8(data)))
	if err != nil {
		return p, err
	}
	base, _ := url.Parse(pageURL)
	items := doc.Find(l.Item)
	if items.Length() == 0 {
		if first {
			return p, &ShapeError{URL: pageURL, Reason: fmt.Sprintf("the item selector %q matches nothing", l.Item)}
		}
		return p, nil
	}
	var missing []string
	for i, s := range items.EachIter() {
		text := squash(s.Text())
		if l.skip != nil && l.skip.MatchString(text) {
			p.skipped++
			continue
		}
		var r row
		r.title = squash(s.Find(l.Title).First().Text())
		href, _ := s.Find(l.Link).First().Attr("href")
		if href = strings.TrimSpace(href); href != "" && base != nil {
			if u, err := base.Parse(href); err == nil {
				href = u.String()
			}
		}
		r.link = href
		if l.Number != "" {
			r.number = squash(s.Find(l.Number).First().Text())
		}
		var lacks []string
		if r.title == "" {
			lacks = append(lacks, "title")
		}
		if r.link == "" {
			lacks = append(lacks, "link")
		}
		if l.Date == "" {
			r.date = now
		} else if raw := squash(s.Find(l.Date).First().Text()); raw == "" {
			lacks = append(lacks, "date")
		} else if t, err := time.Parse(l.DateLayout, raw); err != nil {
			p.bad = append(p.bad, fmt.Sprintf("row %d: date %q is not like %q", i+1, raw, l.DateLayout))
			continue
		} else {
			r.date, r.dated = t, true
		}
		if len(lacks) > 0 {
			missing = append(missing, fmt.Sprintf("row %d has no %s", i+1, strings.Join(lacks, ", ")))
			continue
		}
		p.rows = append(p.rows, r)
	}
	read := len(p.rows) + len(p.bad) + len(missing)
	switch {
	case len(missing) > 0:
		return p, &ShapeError{URL: pageURL, Reason: strings.Join(firstFew(missing), "; ")}
	case read > 0 && 2*len(p.bad) >= read:
		return p, &ShapeError{URL: pageURL, Reason: fmt.Sprintf("%d of %d dates cannot be read: %s",
			len(p.bad), read, strings.Join(firstFew(p.bad), "; "))}
	}
	if l.Next != "" {
		if href, ok := doc.Find(l.Next).First().Attr("href"); ok && base != nil {
			if u, err := base.Parse(strings.TrimSpace(href)); err == nil {
				p.next = u.String()
			}
		}
	}
	return p, nil
}

// firstFew keeps an error short.
func firstFew(s []string) []string {
	if len(s) > 3 {
		return append(s[:3:3], fmt.Sprintf("and %d more", len(s)-3))
	}
	return s
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// fetchPage reads one listing page within the run's time limit.
func (r *runner) fetchPage(ctx context.Context, u string) ([]byte, error) {
	fctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	data, err := fetch(fctx, r.opts.Client, u, r.opts.MaxBytes)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return nil, fmt.Errorf("no answer within %s: %w", r.opts.Timeout, err)
	}
	return data, err
}
