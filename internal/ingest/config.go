package ingest

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"regpulse/internal/catalog"
	"regpulse/internal/schedule"
)

// Feed is one regulator feed the editors follow.
type Feed struct {
	// Name identifies the feed in warnings, errors and --only.
	Name string `yaml:"name"`
	// URL is an http(s) URL or a local file path; a relative path is
	// relative to the folder of the file that lists the feed.
	URL string `yaml:"url"`
	// Source is the catalog source its items are written under (RBI, SEBI…).
	Source string `yaml:"source"`
	// Listing makes the source a listing page read by selectors (NPCI,
	// IRDAI: no feed); its url is the feed's url when it has none.
	Listing *Listing `yaml:"listing"`
	// Backfill is the regulator's paged listing page read when every
	// item of the feed's window is new: the items the window dropped.
	Backfill *Listing `yaml:"backfill"`
	// Kind is "feed" (RSS or Atom, the default) or "listing" (a web page
	// read through selectors).
	Kind string `yaml:"kind"`
	// Cadence, when set, is how often the source is polled instead of
	// schedule.DefaultBusy and DefaultQuiet.
	Cadence *CadenceConfig `yaml:"cadence"`
}

// CadenceConfig is a source's polling interval in the busy hours (09:00
// to 22:00 IST on working days) and otherwise: cadence: {busy: 15m,
// quiet: 1h}. Either may be left out.
type CadenceConfig struct {
	Busy  time.Duration `yaml:"busy"`
	Quiet time.Duration `yaml:"quiet"`
}

// minInterval is the shortest interval feeds.yaml may ask for: the
// regulators' servers are not ours to hammer.
const minInterval = 5 * time.Minute

// Feed kinds.
const (
	KindFeed    = "feed"
	KindListing = "listing"
)

// kind is f's kind, "feed" when unset.
func (f Feed) kind() string { return cmp.Or(f.Kind, KindFeed) }

// cadence is f's polling cadence, with the default jitter.
func (f Feed) cadence() schedule.Cadence {
	c := schedule.Cadence{Jitter: schedule.DefaultJitter}
	if f.Cadence != nil {
		c.Busy, c.Quiet = f.Cadence.Busy, f.Cadence.Quiet
	}
	return c
}

// LoadFeeds reads the list of feeds from a YAML file:
//
//	feeds:
//	  - name: rbi-notifications
//	    url: https://www.rbi.org.in/notifications_rss.xml
//	    source: RBI
//	    cadence: {busy: 15m, quiet: 1h}   # optional
func LoadFeeds(path string) ([]Feed, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Feeds []Feed `yaml:"feeds"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // a misspelt key would silently drop a feed's source
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Feeds) == 0 {
		return nil, fmt.Errorf("%s: no feeds listed", path)
	}
	seen := map[string]bool{}
	for i, f := range doc.Feeds {
		if f.URL == "" && f.Listing != nil {
			f.URL = f.Listing.URL
			doc.Feeds[i].URL = f.URL
		}
		switch {
		case f.Name == "":
			return nil, fmt.Errorf("%s: feed %d: name is missing", path, i+1)
		case seen[f.Name]:
			return nil, fmt.Errorf("%s: feed %q: listed twice", path, f.Name)
		case f.URL == "":
			return nil, fmt.Errorf("%s: feed %q: url is missing", path, f.Name)
		case !slices.Contains(catalog.Sources, f.Source):
			return nil, fmt.Errorf("%s: feed %q: source %q is not one of %s", path, f.Name, f.Source, strings.Join(catalog.Sources, ", "))
		case f.Kind != "" && f.Kind != KindFeed && f.Kind != KindListing:
			return nil, fmt.Errorf("%s: feed %q: kind %q is not %s or %s", path, f.Name, f.Kind, KindFeed, KindListing)
		case (f.Kind == KindListing) != (f.Listing != nil):
			return nil, fmt.Errorf("%s: feed %q: a listing (kind: listing) is read by its listing: selectors, and only a listing has them", path, f.Name)
		}
		if c := f.Cadence; c != nil {
			for _, d := range []struct {
				name string
				d    time.Duration
			}{{"busy", c.Busy}, {"quiet", c.Quiet}} {
				if d.d != 0 && d.d < minInterval {
					return nil, fmt.Errorf("%s: feed %q: cadence %s %s is shorter than %s", path, f.Name, d.name, d.d, minInterval)
				}
			}
		}
		seen[f.Name] = true
		f = doc.Feeds[i]
		if f.Listing != nil && f.Listing.URL == "" {
			f.Listing.URL = f.URL
		}
		for field, l := range map[string]*Listing{"listing": f.Listing, "backfill": f.Backfill} {
			if l == nil {
				continue
			}
			if err := l.check(field); err != nil {
				return nil, fmt.Errorf("%s: feed %q: %w", path, f.Name, err)
			}
			if !isURL(l.URL) && !filepath.IsAbs(l.URL) {
				l.URL = filepath.Join(filepath.Dir(path), l.URL)
			}
		}
		if !isURL(f.URL) && !filepath.IsAbs(f.URL) {
			doc.Feeds[i].URL = filepath.Join(filepath.Dir(path), f.URL)
		}
	}
	return doc.Feeds, nil
}

// Select keeps the feed named name; "" keeps them all.
func Select(feeds []Feed, name string) ([]Feed, error) {
	if name == "" {
		return feeds, nil
	}
	for _, f := range feeds {
		if f.Name == name {
			return []Feed{f}, nil
		}
	}
	names := make([]string, len(feeds))
	for i, f := range feeds {
		names[i] = f.Name
	}
	return nil, fmt.Errorf("no feed named %q (feeds: %s)", name, strings.Join(names, ", "))
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}
