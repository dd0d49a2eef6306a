// Package ingest turns the regulators' RSS feeds into unpublished circular
// files for editors to complete. It never overwrites or duplicates a file:
// an item whose link a circular already names is skipped, so running it
// again writes nothing new.
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
)

// DefaultTimeout bounds the fetch of one feed.
const DefaultTimeout = 30 * time.Second

// slugWordCount is how many title words a slug keeps.
const slugWordCount = 8

// Options say where files go and how feeds are fetched.
type Options struct {
	// ContentDir is the content tree; files are written to its circulars/.
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

// Written is a file ingest wrote.
type Written struct {
	Feed  string
	Path  string // the file, under ContentDir
	Title string
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

// Run reads each feed and writes a file for each new item. A feed that
// cannot be fetched or parsed is an error naming it, with nothing written
// for it; the other feeds are still read. The report holds what was
// written and skipped either way.
func Run(ctx context.Context, feeds []Feed, opts Options) (Report, error) {
	r, err := newRunner(opts)
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
	dir    string            // ContentDir/circulars
	known  map[string]string // normalised link → file naming it, relative to ContentDir
	report Report
}

func newRunner(opts Options) (*runner, error) {
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
	if st, err := os.Stat(opts.ContentDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("content directory %q not found", opts.ContentDir)
	}
	r := &runner{opts: opts, rnd: opts.Rand, dir: filepath.Join(opts.ContentDir, "circulars")}
	if r.rnd == nil {
		r.rnd = newRand()
	}
	known, err := knownLinks(opts.ContentDir)
	if err != nil {
		return nil, err
	}
	r.known = known
	return r, nil
}

// feed fetches and parses one feed whole before writing any of it, so a
// broken feed writes nothing. The poll (poll.go) is skipped when the
// source is not due, reads nothing when it has not changed, and is
// recorded however it ends.
func (r *runner) feed(ctx context.Context, f Feed) (err error) {
	p, err := r.beginPoll(ctx, f)
	if err != nil || p == nil {
		return err // nil, nil: not due yet
	}
	defer func() { err = r.endPoll(ctx, p, err) }()
	parsed, err := r.fetchFeed(ctx, p)
	if err != nil || parsed == nil {
		return err // nil, nil: not modified, or unchanged
	}
	for i, it := range parsed.Items {
		if err := r.item(f, i, it); err != nil {
			return err
		}
	}
	return nil
}

// item writes one item's file, or records why it was skipped. Only a
// failure to write is an error.
func (r *runner) item(f Feed, i int, it *gofeed.Item) error {
	title := cleanTitle(it.Title)
	link := strings.TrimSpace(it.Link)
	skip := func(warn bool, format string, args ...any) error {
		r.report.Skipped = append(r.report.Skipped, Skipped{Feed: f.Name, Item: itemName(i, title, link),
			Reason: fmt.Sprintf(format, args...), Warning: warn})
		return nil
	}
	if link == "" {
		return skip(true, "no link")
	}
	key, ok := catalog.NormaliseLink(link)
	if !ok {
		return skip(true, "link %q is not an absolute http(s) URL", link)
	}
	if title == "" {
		return skip(true, "no title")
	}
	day, err := itemDate(it)
	if err != nil {
		return skip(true, "%v", err)
	}
	if path, ok := r.known[key]; ok {
		return skip(false, "already in %s", path)
	}
	e := entry{
		feed:   f.Name,
		title:  title,
		source: f.Source,
		date:   day,
		number: CircularNumber(title),
		link:   link,
		body:   plainText(it.Description),
	}
	if e.body == "" {
		e.body = plainText(it.Content)
	}
	path, err := r.write(e)
	if err != nil {
		return fmt.Errorf("item %s: %w", itemName(i, title, link), err)
	}
	r.known[key] = path
	r.report.Written = append(r.report.Written, Written{Feed: f.Name, Path: path, Title: title})
	return nil
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

// linkFields are the front matter fields that name a circular's document.
type linkFields struct {
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

// knownLinks maps the links every circular file names to that file. A
// file whose front matter cannot be read is an error: its link might be
// the one an item has.
func knownLinks(contentDir string) (map[string]string, error) {
	known := map[string]string{}
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
		var lf linkFields
		if err := yaml.Unmarshal(frontMatter(data), &lf); err != nil {
			return fmt.Errorf("%s: front matter: %w (regpulse check shows where)", rel, err)
		}
		links := []string{lf.OfficialURL, lf.SourceURL}
		for _, a := range lf.AdditionalURLs {
			links = append(links, a.URL)
		}
		for _, l := range links {
			if key, ok := catalog.NormaliseLink(l); ok {
				if _, dup := known[key]; !dup {
					known[key] = filepath.ToSlash(rel)
				}
			}
		}
		return nil
	})
	return known, err
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

// write writes e under a free slug and returns its path relative to the
// content's parent (content/circulars/x.md).
func (r *runner) write(e entry) (string, error) {
	data, err := e.render(r.opts.Now())
	if err != nil {
		return "", err
	}
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
