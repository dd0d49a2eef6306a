package generator

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A direction's feed: one entry per version, newest first, each with the
// provisions it changed as redlines, or saying its changes are not known.
func TestDirectionFeed(t *testing.T) {
	out, _ := buildSite(t, "../content", templatesDir)
	data, err := os.ReadFile(filepath.Join(out, DirectionFeedPath("ppi-2021")))
	if err != nil {
		t.Fatal(err)
	}
	var feed struct {
		Entries []struct {
			Title   string `xml:"title"`
			Updated string `xml:"updated"`
			Content string `xml:"content"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(data, &feed); err != nil {
		t.Fatal(err)
	}
	if len(feed.Entries) != 5 {
		t.Fatalf("%d entries, want one per version (5)", len(feed.Entries))
	}
	first, last := feed.Entries[0], feed.Entries[len(feed.Entries)-1]
	if !strings.HasPrefix(first.Updated, "2025-11-28") || !strings.HasPrefix(last.Updated, "2021-11-12") {
		t.Errorf("entries from %s to %s, want newest first", first.Updated, last.Updated)
	}
	if !strings.Contains(first.Content, "<ins>") || !strings.Contains(first.Content, "<del>") || !strings.Contains(first.Title, "Compliance with Know Your Customer") {
		t.Errorf("the newest entry: %q, %q; want its amending circular and redlines", first.Title, first.Content)
	}
	if !strings.Contains(last.Content, "not recorded provision by provision") {
		t.Errorf("a version known by its date alone: %q", last.Content)
	}
}
