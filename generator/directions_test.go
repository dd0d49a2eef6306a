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

// The directions' ties to circulars on the repository's content: the
// 2016 KYC circular names the directions its rules are now in (from the
// KYC direction's successors), and the payment aggregators' obligation
// that rests on paragraphs 15(a)(i) and (ii) is marked "changed: review"
// since their amendment of 28 Nov 2025, with the comparison linked. The
// build is as of 2021, so the KYC circular is still in force until then.
func TestDirectionTies_Circulars(t *testing.T) {
	out, _ := buildSite(t, "../content", templatesDir)
	kyc := parseFile(t, filepath.Join(out, "circulars", "rbi-2016-02-25-kyc-master-direction", "index.html"))
	note := strings.Join(strings.Fields(text(find(t, kyc, "data-lifecycle", "ending"))), " ")
	if !strings.HasPrefix(note, "In force until 28 November 2025") || !strings.Contains(note, "Its rules are now in: Reserve Bank of India (Commercial Banks – Know Your Customer) Directions, 2025") {
		t.Errorf("the KYC circular's lifecycle note: %q", note)
	}

	pa := parseFile(t, filepath.Join(out, "circulars", "rbi-2025-09-15-payment-aggregators-master-direction", "index.html"))
	cites := strings.Join(strings.Fields(text(find(t, pa, "data-obligation-cites", "*"))), " ")
	if cites != "Rests on Payment Aggregator Directions, 2025, paragraphs 15(a)(i), 15(a)(ii)." {
		t.Errorf("cites %q", cites)
	}
	review := find(t, pa, "data-obligation-review", "*")
	if got := strings.Join(strings.Fields(text(review)), " "); !strings.HasPrefix(got, "Changed: review. Paragraphs 15(a)(i), 15(a)(ii) changed from 28 November 2025") {
		t.Errorf("review %q", got)
	}
	href := "/master-directions/payment-aggregators-2025/compare/2025-09-15/2025-11-28/"
	if len(findAll(review, "href", href)) != 1 {
		t.Errorf("the review does not link %s", href)
	}
	if _, err := os.Stat(filepath.Join(out, strings.Trim(href, "/"), "index.html")); err != nil {
		t.Errorf("the linked comparison is not built: %v", err)
	}
}
