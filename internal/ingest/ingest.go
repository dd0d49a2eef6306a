// Package ingest turns the regulators' RSS feeds and listing pages into
// unpublished circular drafts for editors to complete. It never
// overwrites or duplicates a file: an item that is a copy of an
// instrument already known (by its link, reference number, title and
// date, or text: identity.go) is not a second draft, so running it again
// writes nothing new; and when a feed's window overflowed, the regulator's
// listing pages are read back to the last known item (backfill), so a
// burst loses nothing.
package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
	"gopkg.in/yaml.v3"

	"regpulse/internal/catalog"
	"regpulse/internal/metrics"
)

// DefaultTimeout bounds the fetch of one feed.
const DefaultTimeout = 30 * time.Second

// slugWordCount is how many title words a slug keeps.
const slugWordCount = 8

// Options say where files go and how feeds are fetched.
type Options struct {
	// ContentDir is the content tree; files are written to its circulars/
	// ("" with Items: drafts are queued in the store only).
	ContentDir string
	// Timeout bounds each feed's fetch (0: DefaultTimeout).
	Timeout time.Duration
	// MaxBytes caps each feed's size (0: DefaultMaxBytes).
	MaxBytes int64
	// Client fetches http(s) feeds (nil: http.DefaultClient; Timeout
	// bounds each request through its context).
	Client *http.Client
	// Now dates the note in each written file (nil: time.Now).
	Now func() time.Time
	// State keeps each source's validators, schedule and polls (nil:
	// every source is polled unconditionally, as without a store).
	State State
	// Operator is told of stale sources and changed page shapes (nil:
	// only the log and the metrics say so).
	Operator Operator
	// Items keeps every instrument and copy seen, and the drafts queued
	// (nil: identities come from the content alone).
	Items Items
	// Force polls every source now, sending no validators: what it
	// answers is read whole (the store's state is still updated).
	Force bool
	// Contact is added to the User-Agent (an e-mail address), so a
	// regulator's webmaster can reach us.
	Contact string
	// Rand jitters the next polls (nil: seeded from the runtime).
	Rand *rand.Rand

	parse func([]byte) (*gofeed.Feed, error) // nil: parseFeed (tests count parses)
}

// Written is a draft ingest wrote.
type Written struct {
	Feed  string
	Path  string // the file, under ContentDir ("" when only queued)
	Title string
	// Backfilled is true for an item found on a listing page beyond the
	// feed's window.
	Backfilled bool
}

// Merged is another copy of a known instrument: "also published as".
type Merged struct {
	Feed, Title, Link string
	// Of names the first copy (its file, or its title when queued).
	Of string
	// Rule matched it; As is what it is (press-release, hindi, pdf, repost).
	Rule Rule
	As   string
	// Added is true when the link was added to the first copy's draft;
	// false when it waits for an editor (the file was edited).
	Added bool
}

// Skipped is a feed item ingest did not write.
type Skipped struct {
	Feed   string
	Item   string // the item's title and link, as far as it has them
	Reason string
	// Warning is true for an item that is malformed (no link, no date…),
	// false for one that is already in the content.
	Warning bool
}

func (s Skipped) String() string {
	return fmt.Sprintf("feed %q: item %s: %s", s.Feed, s.Item, s.Reason)
}

// Report is what one run did.
type Report struct {
	Written []Written
	Merged  []Merged
	Skipped []Skipped
	// Polls are the sources polled, NotDue those left for later (their
	// cadence), Stale those with no success for catalog.StaleAfter.
	Polls  []Poll
	NotDue []NotDue
	Stale  []Stale
}

// Warnings counts the skipped items that were malformed.
func (r Report) Warnings() int {
	n := 0
	for _, s := range r.Skipped {
		if s.Warning {
			n++
		}
	}
	return n
}

// Backfilled counts the drafts found on listing pages beyond a window.
func (r Report) Backfilled() int {
	n := 0
	for _, w := range r.Written {
		if w.Backfilled {
			n++
		}
	}
	return n
}

// Run reads each feed and writes a draft for each new item. A feed that
// cannot be fetched or parsed is an error naming it, with nothing written
// for it; the other feeds are still read. The report holds what was
// written and skipped either way.
func Run(ctx context.Context, feeds []Feed, opts Options) (Report, error) {
	r, err := newRunner(ctx, opts)
	if err != nil {
		return Report{}, err
	}
	var errs []error
	for _, f := range feeds {
		if err := r.feed(ctx, f); err != nil {
			errs = append(errs, fmt.Errorf("feed %q: %w", f.Name, err))
			if ctx.Err() != nil {
				break
			}
		}
	}
	return r.report, errors.Join(errs...)
}

type runner struct {
	opts   Options
	rnd    *rand.Rand
	dir    string // ContentDir/circulars
	index  *Index
	report Report
	// cur is the poll under way, seq its number in the run (Known.AddedIn).
	cur *poll
	seq int
	// loaded maps the store's rows already in the index to their places;
	// nil until the index is loaded (loadIndex), which waits for a poll
	// with items to match.
	loaded map[int64]int
}

func newRunner(ctx context.Context, opts Options) (*runner, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Client == nil {
		opts.Client = http.DefaultClient
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ContentDir != "" || opts.Items == nil {
		if st, err := os.Stat(opts.ContentDir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("content directory %q not found", opts.ContentDir)
		}
	}
	r := &runner{opts: opts, rnd: opts.Rand, index: NewIndex()}
	if r.rnd == nil {
		r.rnd = newRand()
	}
	if opts.ContentDir != "" {
		r.dir = filepath.Join(opts.ContentDir, "circulars")
	}
	return r, nil
}

// loadIndex builds the identity index from the content's circulars, once
// per run and only when a poll brought items to match: a tick where
// every source is not due or answers 304 reads no content file. The
// store's rows are looked up as items arrive (loadCandidates), so a run
// never reads the whole table. On the store's first run, the content
// seeds it, so that a run with no content directory still knows every
// instrument.
func (r *runner) loadIndex(ctx context.Context) error {
	if r.loaded != nil {
		return nil
	}
	loaded := map[int64]int{}
	var fromContent []Item
	if r.opts.ContentDir != "" {
		var err error
		if fromContent, err = knownInstruments(r.opts.ContentDir); err != nil {
			return err
		}
	}
	if r.opts.Items != nil && len(fromContent) > 0 {
		has, err := r.opts.Items.HasIngestItems(ctx)
		if err != nil {
			return err
		}
		if !has {
			if err := r.seed(ctx, fromContent); err != nil {
				return err
			}
		}
	}
	place := map[int64]int{}
	for _, it := range fromContent {
		canon := -1
		if it.CanonicalID != 0 {
			canon = place[it.CanonicalID]
		}
		place[it.ID] = r.index.Add(Known{Identity: it.Identity, Path: it.FilePath}, canon)
	}
	r.loaded = loaded // only now: a failed load is tried again, never taken as an empty index
	return nil
}

// loadCandidates adds to the index the store's rows id may match. A row
// for an instrument the content already gave lends it its id and draft.
func (r *runner) loadCandidates(ctx context.Context, id Identity) error {
	if r.opts.Items == nil {
		return nil
	}
	rows, err := r.opts.Items.IngestCandidates(ctx, id)
	if err != nil {
		return err
	}
	for _, it := range rows {
		if _, ok := r.loaded[it.ID]; ok {
			continue
		}
		var draft []byte
		if it.Status == StatusWritten || it.Status == StatusQueued {
			draft = []byte(it.Draft)
		}
		if at, rule, ok := r.index.Match(Identity{Link: it.Link}); ok && rule == ByLink && r.index.At(at).ID == 0 {
			k := r.index.At(at)
			k.ID, k.Draft = it.ID, draft
			if k.Path == "" {
				k.Path = it.FilePath
			}
			r.loaded[it.ID] = at
			continue
		}
		canon := -1
		if i, ok := r.loaded[it.CanonicalID]; ok && it.CanonicalID != 0 {
			canon = i
		}
		r.loaded[it.ID] = r.index.Add(Known{Identity: it.Identity, ID: it.ID, Path: it.FilePath, Draft: draft}, canon)
	}
	return nil
}

// seed stores the content's instruments as known rows, each file's
// other links as its copies.
func (r *runner) seed(ctx context.Context, items []Item) error {
	var firsts []Item
	for _, it := range items {
		if it.CanonicalID == 0 {
			firsts = append(firsts, it)
		}
	}
	ids, err := r.opts.Items.AddIngestItems(ctx, firsts)
	if err != nil {
		return err
	}
	byFake := map[int64]int64{}
	for i, it := range firsts {
		byFake[it.ID] = ids[i]
	}
	var copies []Item
	for _, it := range items {
		if it.CanonicalID != 0 && byFake[it.CanonicalID] != 0 {
			it.CanonicalID = byFake[it.CanonicalID]
			copies = append(copies, it)
		}
	}
	_, err = r.opts.Items.AddIngestItems(ctx, copies)
	return err
}

// tellShape tells the Operator, if any, that f's page changed shape.
func (r *runner) tellShape(ctx context.Context, f Feed, err error) error {
	if r.opts.Operator == nil {
		return nil
	}
	subject := fmt.Sprintf("RegPulse ingest: %s's page changed shape", f.Name)
	text := fmt.Sprintf("The source %q (%s) no longer reads as its selectors say:\n\n%v\n\n"+
		"Until its selectors in feeds.yaml are fixed, nothing new from it reaches the drafts. "+
		"You will be told again tomorrow if it is still so.\n", f.Name, f.Source, err)
	if terr := r.opts.Operator.Tell(ctx, subject, text); terr != nil {
		return fmt.Errorf("telling the operator its shape changed: %w", terr)
	}
	return nil
}

// feed fetches and parses one feed whole before writing any of it, so a
// broken feed writes nothing. The poll (poll.go) is skipped when the
// source is not due, reads nothing when it has not changed, and is
// recorded however it ends. A listing source is read by its selectors.
func (r *runner) feed(ctx context.Context, f Feed) (err error) {
	p, err := r.beginPoll(ctx, f)
	if err != nil || p == nil {
		return err // nil, nil: not due yet
	}
	r.seq++
	r.cur = p
	defer func() {
		r.cur = nil
		err = r.endPoll(ctx, p, err)
	}()
	if f.Listing != nil {
		return r.listing(ctx, f)
	}
	parsed, err := r.fetchFeed(ctx, p)
	if err != nil || parsed == nil {
		return err // nil, nil: not modified, or unchanged
	}
	var window []entry
	for i, it := range parsed.Items {
		if e, ok := r.feedEntry(f, i, it); ok {
			window = append(window, e)
		}
	}
	return r.window(ctx, f, window, f.Backfill, 0)
}

// feedEntry is a feed item as an entry, or false (and a warning) for one
// that is malformed.
func (r *runner) feedEntry(f Feed, i int, it *gofeed.Item) (entry, bool) {
	title := cleanTitle(it.Title)
	link := strings.TrimSpace(it.Link)
	skip := func(format string, args ...any) (entry, bool) {
		r.malformed(f, itemName(i, title, link), fmt.Sprintf(format, args...))
		return entry{}, false
	}
	if link == "" {
		return skip("no link")
	}
	if _, ok := catalog.NormaliseLink(link); !ok {
		return skip("link %q is not an absolute http(s) URL", link)
	}
	if title == "" {
		return skip("no title")
	}
	day, err := itemDate(it)
	if err != nil {
		return skip("%v", err)
	}
	e := entry{feed: f.Name, title: title, source: f.Source, date: day, number: CircularNumber(title),
		link: link, body: plainText(it.Description), documentType: f.DocumentType}
	if e.body == "" {
		e.body = plainText(it.Content)
	}
	return e, true
}

func (r *runner) malformed(f Feed, item, reason string) {
	r.report.Skipped = append(r.report.Skipped, Skipped{Feed: f.Name, Item: item, Reason: reason, Warning: true})
}

// result is what became of an item.
type result int

const (
	isNew result = iota
	isKnown
	isMerged
)

// window takes a feed's items (or a listing's first page); when every one
// is new and the source was read before, the window may have overflowed,
// and back is read from page next on until a known item.
func (r *runner) window(ctx context.Context, f Feed, items []entry, back *Listing, next int) error {
	if err := r.loadIndex(ctx); err != nil {
		return err
	}
	allNew := len(items) > 0
	for _, e := range items {
		res, _, err := r.take(ctx, f, e, false)
		if err != nil {
			return err
		}
		allNew = allNew && res == isNew
	}
	if !allNew || back == nil || !r.readBefore(ctx, f) {
		return nil
	}
	return r.backfill(ctx, f, back, next)
}

// readBefore reports whether f was read before this run: the State says
// it answered once; without a State, the content holds its source.
func (r *runner) readBefore(ctx context.Context, f Feed) bool {
	if r.opts.State != nil {
		st, ok, err := r.opts.State.IngestSource(ctx, f.Name)
		return err == nil && ok && !st.LastSuccess.IsZero()
	}
	for i := range r.index.Len() {
		if k := r.index.At(i); k.Source == f.Source && k.AddedIn != r.seq {
			return true
		}
	}
	return false
}

// backfill reads l's pages from page n on until an item known before
// this poll, taking every new item on the way. Reaching l's last page or its maxPages first is a warning: items
// may be lost, and the operator should widen maxPages.
func (r *runner) backfill(ctx context.Context, f Feed, l *Listing, n int) error {
	u := l.pageURL(n)
	for ; n < l.maxPages() && u != ""; n++ {
		data, err := r.fetchPage(ctx, u)
		if err != nil {
			return fmt.Errorf("backfill page %d: %w", n+1, err)
		}
		p, err := l.readPage(data, u, n == 0, r.opts.Now())
		if err != nil {
			return fmt.Errorf("backfill: %w", err)
		}
		r.notPublic(f, p)
		if len(p.rows) == 0 && len(p.bad) == 0 && p.skipped == 0 {
			break // past the listing's end
		}
		for _, row := range p.rows {
			res, at, err := r.take(ctx, f, r.rowEntry(f, row), true)
			if err != nil {
				return err
			}
			if res != isNew && r.index.At(at).AddedIn != r.seq {
				return nil // reached what was known
			}
		}
		if next := l.pageURL(n + 1); next != "" || l.Next == "" {
			u = next
		} else {
			u = p.next
		}
	}
	r.report.Skipped = append(r.report.Skipped, Skipped{Feed: f.Name, Item: "(backfill)", Warning: true,
		Reason: fmt.Sprintf("backfill stopped at page %d without reaching a known item: items may be lost (raise maxPages)", n)})
	metrics.IngestBackfillIncomplete.WithLabelValues(f.Name).Inc()
	return nil
}

// notPublic records a page's rows that are not public circulars and its
// rows with unreadable dates (fewer than half: more is a changed shape).
func (r *runner) notPublic(f Feed, p page) {
	for _, b := range p.bad {
		r.malformed(f, b, "date cannot be read")
	}
	if p.skipped > 0 {
		r.report.Skipped = append(r.report.Skipped, Skipped{Feed: f.Name, Item: fmt.Sprintf("(%d rows)", p.skipped),
			Reason: "not public circulars (the listing names no document)"})
	}
}

// rowEntry is a listing row as an entry: its number cell, when the
// listing has one, is the circular number the draft gives.
func (r *runner) rowEntry(f Feed, row row) entry {
	number := row.number
	if number == "" {
		number = CircularNumber(row.title)
	}
	return entry{feed: f.Name, title: row.title, source: f.Source, date: row.date, number: number, link: row.link, documentType: f.DocumentType}
}

// listing polls a listing source: its first page is its window, its
// next pages its backfill.
func (r *runner) listing(ctx context.Context, f Feed) error {
	l := f.Listing
	u := l.pageURL(0)
	data, err := r.fetchPage(ctx, u)
	if err != nil {
		return err
	}
	p, err := l.readPage(data, u, true, r.opts.Now())
	if err != nil {
		return err
	}
	r.notPublic(f, p)
	items := make([]entry, len(p.rows))
	for i, row := range p.rows {
		items[i] = r.rowEntry(f, row)
	}
	if l.pageURL(1) == "" && l.Next != "" && p.next != "" {
		// Paged by its Next link: the backfill starts there.
		next := *l
		next.URL, next.Next = p.next, l.Next
		return r.window(ctx, f, items, &next, 0)
	}
	return r.window(ctx, f, items, l, 1)
}

// take makes e a draft, a copy of a known instrument, or nothing (known):
// it returns which, and the index place of the item it matched.
func (r *runner) take(ctx context.Context, f Feed, e entry, backfilled bool) (result, int, error) {
	if r.cur != nil && (backfilled || f.Listing != nil) {
		r.cur.items++ // a feed's items are counted as parsed (fetchFeed)
	}
	id := identifyEntry(e)
	if err := r.loadCandidates(ctx, id); err != nil {
		return isNew, 0, err
	}
	at, rule, ok := r.index.Match(id)
	if ok && rule == ByLink && backfilled && r.index.At(at).AddedIn == r.seq {
		return isKnown, at, nil // the window, read again on a listing page
	}
	if ok && rule == ByLink {
		first := r.index.At(r.index.At(at).Canonical)
		r.report.Skipped = append(r.report.Skipped, Skipped{Feed: f.Name, Item: itemName(0, e.title, e.link),
			Reason: "already in " + describe(first)})
		return isKnown, at, nil
	}
	if ok {
		return isMerged, at, r.merge(ctx, f, e, id, at, rule)
	}
	path, rowID, text, err := r.draft(ctx, e, id)
	if err != nil {
		return isNew, 0, fmt.Errorf("item %s: %w", itemName(0, e.title, e.link), err)
	}
	r.index.Add(Known{Identity: id, ID: rowID, Path: path, Draft: text, AddedIn: r.seq}, -1)
	r.report.Written = append(r.report.Written, Written{Feed: f.Name, Path: path, Title: e.title, Backfilled: backfilled})
	if backfilled {
		metrics.IngestItems.WithLabelValues(f.Name, "backfilled").Inc()
	}
	return isNew, r.index.Len() - 1, nil
}

// merge keeps e as another copy of the instrument at: a row, and a link
// on the first copy's draft when it is still as ingest wrote it.
func (r *runner) merge(ctx context.Context, f Feed, e entry, id Identity, at int, rule Rule) error {
	canon := r.index.At(at).Canonical
	first := r.index.At(canon)
	firstLink := ""
	if k := r.index.At(canon); k != nil {
		firstLink = k.Link
	}
	as := variantOf(e.title, e.link, firstLink)
	added, err := r.alsoPublished(ctx, first, e.link, as)
	if err != nil {
		return fmt.Errorf("item %s: adding it to %s: %w", itemName(0, e.title, e.link), describe(first), err)
	}
	var rowID int64
	if r.opts.Items != nil {
		status := StatusPending
		if added {
			status = StatusMerged
		}
		ids, err := r.opts.Items.AddIngestItems(ctx, []Item{{Feed: f.Name, Identity: id, URL: e.link, Title: e.title,
			Variant: as, CanonicalID: first.ID, Status: status, FirstSeen: r.opts.Now()}})
		if err != nil {
			return err
		}
		rowID = ids[0]
	}
	r.index.Add(Known{Identity: id, ID: rowID, AddedIn: r.seq}, canon)
	r.report.Merged = append(r.report.Merged, Merged{Feed: f.Name, Title: e.title, Link: e.link, Of: describe(r.index.At(canon)),
		Rule: rule, As: as, Added: added})
	metrics.IngestItems.WithLabelValues(f.Name, "merged").Inc()
	return nil
}

// describe names a known instrument: its file, else its title and date.
func describe(k *Known) string {
	if k.Path != "" {
		return k.Path
	}
	if k.TitleDate != "" {
		return "the queued draft " + k.TitleDate
	}
	return "a known instrument (" + k.Link + ")"
}

// itemName names an item in warnings: its title and link, or its place
// in the feed when it has neither.
func itemName(i int, title, link string) string {
	switch {
	case title != "" && link != "":
		return fmt.Sprintf("%q (%s)", title, link)
	case title != "":
		return fmt.Sprintf("%q", title)
	case link != "":
		return link
	}
	return fmt.Sprintf("#%d", i+1)
}

// dateLayouts are the item dates the feeds write. SEBI writes
// "17 Oct, 2024 +0530", which the feed parser does not read.
var dateLayouts = []string{
	time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05", time.RFC3339, "2 Jan, 2006 -0700", "2 Jan 2006", "Jan 2, 2006", time.DateOnly,
}

// itemDate is the item's publication day, in the time zone the feed
// wrote it in: the regulators date in Indian time, and 00:30 IST is still
// the previous day in UTC.
func itemDate(it *gofeed.Item) (time.Time, error) {
	raw := strings.TrimSpace(it.Published)
	if raw == "" {
		raw = strings.TrimSpace(it.Updated)
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, raw); err == nil {
			return t, nil
		}
	}
	// Formats the parser knows and the list above does not, in UTC.
	if it.PublishedParsed != nil {
		return *it.PublishedParsed, nil
	}
	if it.UpdatedParsed != nil {
		return *it.UpdatedParsed, nil
	}
	if raw == "" {
		return time.Time{}, errors.New("no date")
	}
	return time.Time{}, fmt.Errorf("date %q cannot be read", raw)
}

// linkFields are the front matter fields that identify a circular.
type linkFields struct {
	Title          string       `yaml:"title"`
	Source         string       `yaml:"source"`
	CircularNumber string       `yaml:"circularNumber"`
	PublishedDate  string       `yaml:"publishedDate"`
	OfficialURL    string       `yaml:"officialUrl"`
	SourceURL      string       `yaml:"sourceUrl"`
	AdditionalURLs []sourceItem `yaml:"additionalSourceUrls"`
}

// sourceItem is one of additionalSourceUrls: a URL, or a map {url, kind}.
type sourceItem struct{ URL string }

func (s *sourceItem) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Decode(&s.URL)
	}
	var m struct {
		URL string `yaml:"url"`
	}
	err := n.Decode(&m)
	s.URL = m.URL
	return err
}

// knownInstruments are the instruments the content's circulars are,
// each file's first link its identity and its other links its copies
// (ID and CanonicalID number them within the list, for seeding). A file
// whose front matter cannot be read is an error: its link might be the
// one an item has.
func knownInstruments(contentDir string) ([]Item, error) {
	var out []Item
	dir := filepath.Join(contentDir, "circulars")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == dir {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(contentDir), path)
		rel = filepath.ToSlash(rel)
		var lf linkFields
		if err := yaml.Unmarshal(frontMatter(data), &lf); err != nil {
			return fmt.Errorf("%s: front matter: %w (regpulse check shows where)", rel, err)
		}
		links := []string{lf.OfficialURL, lf.SourceURL}
		for _, a := range lf.AdditionalURLs {
			links = append(links, a.URL)
		}
		date, _ := time.Parse(time.DateOnly, lf.PublishedDate)
		body := string(bodyOf(data))
		var first int64
		seen := map[string]bool{}
		for _, l := range links {
			key, ok := catalog.NormaliseLink(l)
			if !ok || seen[key] {
				continue
			}
			seen[key] = true
			it := Item{ID: int64(len(out) + 1), URL: l, Title: lf.Title, FilePath: rel, Status: StatusKnown, Variant: variantPrimary}
			if first == 0 {
				first = it.ID
				it.Identity = identifyEntry(entry{source: lf.Source, date: date, title: lf.Title, number: lf.CircularNumber, link: l, body: body})
			} else {
				it.CanonicalID = first
				it.Identity = Identity{Source: lf.Source, Date: date, Link: key}
				it.Variant = "repost"
			}
			out = append(out, it)
		}
		if first == 0 && lf.Title != "" {
			// No link at all: known by its number, title and text.
			out = append(out, Item{ID: int64(len(out) + 1), Title: lf.Title, FilePath: rel, Status: StatusKnown,
				Variant: variantPrimary, Identity: identifyEntry(entry{source: lf.Source, date: date, title: lf.Title, number: lf.CircularNumber, body: body})})
		}
		return nil
	})
	return out, err
}

// bodyOf is the text after a file's front matter.
func bodyOf(data []byte) []byte {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		return data
	}
	if _, body, ok := bytes.Cut(rest, []byte("\n---\n")); ok {
		return body
	}
	return nil
}

// frontMatter is the YAML between a file's opening and closing "---"
// lines (nil when there is none).
func frontMatter(data []byte) []byte {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		return nil
	}
	if bytes.HasPrefix(rest, []byte("---\n")) {
		return nil
	}
	front, _, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		front, _, _ = bytes.Cut(rest, []byte("\n---"))
	}
	return front
}

// entry is what ingest writes for an item.
type entry struct {
	feed, title, source, number, link, body string
	date                                    time.Time
	// documentType is the feed's, when it names one.
	documentType string
}

// slugBase is {source}-{yyyy}-{mm}-{dd}-{few words of the title}, the
// reference number left out of the words.
func (e entry) slugBase() string {
	words := e.title
	for _, re := range numberPatterns {
		words = re.ReplaceAllString(words, " ")
	}
	w := slugWords(words, slugWordCount)
	if w == "" {
		w = "item"
	}
	return strings.ToLower(e.source) + "-" + e.date.Format("2006-01-02") + "-" + w
}

// render is the file's text: the front matter with the editorial flag
// first and a note on what the editor has to do, then the body.
func (e entry) render(now time.Time) ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	}
	str := func(s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
	}
	add("published", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"})
	m.Content[0].HeadComment = fmt.Sprintf("Ingested from the feed %q on %s. Before publishing: add category,\n"+
		"impactLevel, entityImpact and documentType, write the body in your own words,\n"+
		"check the title and number against the official document, then delete\n"+
		"\"published: false\" and run make check.", e.feed, now.Format(time.DateOnly))
	if e.number != "" {
		add("circularNumber", str(e.number))
	}
	add("title", str(e.title))
	add("source", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.source})
	add("publishedDate", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: e.date.Format(time.DateOnly)})
	add("officialUrl", str(e.link))
	add("sourceUrl", str(e.link))
	if e.documentType != "" {
		add("documentType", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.documentType})
		if due, ok := CommentsDeadline(e.body); ok && catalog.Consultative(e.documentType) {
			add("commentsDue", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: due.String(),
				LineComment: "guessed from the text: check it against the paper"})
		}
	}

	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	b.WriteString("---\n\n")
	body := e.body
	if body == "" {
		body = "The feed gave no description: read the official document and write what it says and who must do what."
	}
	b.WriteString(body)
	b.WriteString("\n")
	return b.Bytes(), nil
}

// write writes data, e's text, under a free slug and returns its path relative to the
// content's parent (content/circulars/x.md).
func (r *runner) write(e entry, data []byte) (string, error) {
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return "", err
	}
	base := e.slugBase()
	if err := catalog.CheckSlug(base); err != nil {
		return "", err
	}
	for n := 1; ; n++ {
		slug := base
		if n > 1 {
			slug = fmt.Sprintf("%s-%d", base, n)
		}
		path := filepath.Join(r.dir, slug+".md")
		err := writeNew(path, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(filepath.Dir(r.opts.ContentDir), path)
		return filepath.ToSlash(rel), nil
	}
}

// writeNew writes path whole or not at all, and never replaces a file:
// the text goes to a temporary file that is then linked in, and a link,
// unlike a rename, fails when the name is taken (by an editor's file made
// meanwhile, say).
func writeNew(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ingest-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Link(tmp.Name(), path)
}
