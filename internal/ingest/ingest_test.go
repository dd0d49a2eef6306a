package ingest

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// fixedNow dates the note in the files the tests write.
func fixedNow() time.Time { return time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) }

// newContent is an empty content tree in a temporary folder.
func newContent(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "content")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixtureFeeds are the feeds of testdata/feeds.yaml.
func fixtureFeeds(t *testing.T) []Feed {
	t.Helper()
	feeds, err := LoadFeeds("testdata/feeds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return feeds
}

// writeFile writes a file under dir, making its folder.
func writeFile(t *testing.T, dir, rel, text string) {
	t.Helper()
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// frontFields are the fields ingest writes.
type frontFields struct {
	Published      *bool  `yaml:"published"`
	CircularNumber string `yaml:"circularNumber"`
	Title          string `yaml:"title"`
	Source         string `yaml:"source"`
	PublishedDate  string `yaml:"publishedDate"`
	OfficialURL    string `yaml:"officialUrl"`
	SourceURL      string `yaml:"sourceUrl"`
}

// ingested is what a written file holds.
type ingested struct {
	Front frontFields
	Body  string
}

// readTree reads every .md file under content/circulars, by path
// relative to content's parent.
func readTree(t *testing.T, content string) map[string]ingested {
	t.Helper()
	got := map[string]ingested{}
	err := filepath.WalkDir(filepath.Join(content, "circulars"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(content), path)
		var f frontFields
		if err := yaml.Unmarshal(frontMatter(data), &f); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		_, body, _ := strings.Cut(string(data), "\n---\n")
		got[filepath.ToSlash(rel)] = ingested{f, strings.TrimSpace(body)}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return got
}

var unpublished = new(bool)

// fixtureFiles are the files the fixture feeds give an empty tree.
var fixtureFiles = map[string]ingested{
	"content/circulars/rbi-2025-11-18-card-file-tokenisation-device-binding-amendment.md": {
		Front: frontFields{
			Published:      unpublished,
			CircularNumber: "RBI/2025-26/141 DPSS.CO.PD No.1810/02.14.008/2025-26",
			// Double-escaped entity and escaped markup in the title.
			Title:         "RBI/2025-26/141 DPSS.CO.PD No.1810/02.14.008/2025-26 - Card-on-File Tokenisation & Device Binding: Amendment",
			Source:        "RBI",
			PublishedDate: "2025-11-18",
			OfficialURL:   "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=13001&Mode=0",
			SourceURL:     "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=13001&Mode=0",
		},
		Body: "RBI/2025-26/141\n\nDPSS.CO.PD No.1810/02.14.008/2025-26\n\nNovember 18, 2025\n\n" +
			"All Payment System Providers and Participants\n\nMadam / Sir,\n\n" +
			"Please refer to the directions on card-on-file tokenisation. It has been decided to extend them to device binding – the details are in the Annex.\n\n" +
			"2. These directions take effect from April 1, 2026.",
	},
	// 00:15 IST on the 20th is the 19th in UTC: the feed's own day is kept.
	"content/circulars/rbi-2025-11-20-master-direction-know-your-customer-kyc-direction-2025.md": {
		Front: frontFields{
			Published:     unpublished,
			Title:         "Master Direction – Know Your Customer (KYC) Direction, 2025 (Updated)",
			Source:        "RBI",
			PublishedDate: "2025-11-20",
			OfficialURL:   "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=13002&Mode=0",
			SourceURL:     "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=13002&Mode=0",
		},
		Body: "The Master Direction has been updated.\n\nRegulated entities shall comply.",
	},
	"content/circulars/rbi-2025-11-19-reserve-bank-releases-draft-directions-payment-aggregators-cross.md": {
		Front: frontFields{
			Published:     unpublished,
			Title:         "Reserve Bank releases Draft Directions on Payment Aggregators – Cross-border",
			Source:        "RBI",
			PublishedDate: "2025-11-19",
			OfficialURL:   "https://www.rbi.org.in/Scripts/BS_PressReleaseDisplay.aspx?prid=61501",
			SourceURL:     "https://www.rbi.org.in/Scripts/BS_PressReleaseDisplay.aspx?prid=61501",
		},
		Body: "The Reserve Bank of India has today placed on its website the draft directions for comments.\n\n" +
			"Comments may be sent by December 31, 2025.\n\n(Puneet Pancholy)\n\nChief General Manager\n\nPress Release: 2025-2026/1520",
	},
	"content/circulars/rbi-2025-11-19-rbi-imposes-monetary-penalty-payment-system-operator.md": {
		Front: frontFields{
			Published:     unpublished,
			Title:         "RBI imposes monetary penalty on a payment system operator",
			Source:        "RBI",
			PublishedDate: "2025-11-19",
			OfficialURL:   "https://www.rbi.org.in/Scripts/BS_PressReleaseDisplay.aspx?prid=61502",
			SourceURL:     "https://www.rbi.org.in/Scripts/BS_PressReleaseDisplay.aspx?prid=61502",
		},
		Body: "The feed gave no description: read the official document and write what it says and who must do what.",
	},
	"content/circulars/sebi-2025-11-14-framework-upi-autopay-mandates-stock-brokers.md": {
		Front: frontFields{
			Published:      unpublished,
			CircularNumber: "SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/0000150",
			Title:          `Framework for UPI "AutoPay" mandates by stock brokers – SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/0000150`,
			Source:         "SEBI",
			PublishedDate:  "2025-11-14",
			OfficialURL:    "https://www.sebi.gov.in/legal/circulars/nov-2025/framework-for-upi-autopay-mandates-by-stock-brokers_98001.html",
			SourceURL:      "https://www.sebi.gov.in/legal/circulars/nov-2025/framework-for-upi-autopay-mandates-by-stock-brokers_98001.html",
		},
		Body: "Circulars",
	},
	"content/circulars/sebi-2025-11-05-consultation-paper-review-cyber-security-framework.md": {
		Front: frontFields{
			Published:     unpublished,
			Title:         "Consultation paper on review of the cyber security framework",
			Source:        "SEBI",
			PublishedDate: "2025-11-05",
			OfficialURL:   "https://www.sebi.gov.in/reports-and-statistics/reports/nov-2025/consultation-paper-on-review-of-the-cyber-security-framework_98002.html/",
			SourceURL:     "https://www.sebi.gov.in/reports-and-statistics/reports/nov-2025/consultation-paper-on-review-of-the-cyber-security-framework_98002.html/",
		},
		Body: "Consultation Papers",
	},
}

// fixtureWarnings are the malformed items of the fixture feeds.
var fixtureWarnings = []Skipped{
	{Feed: "rbi-notifications", Item: `"Item without a link"`, Reason: "no link", Warning: true},
	{Feed: "rbi-notifications", Item: `"Item without a date" (https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=13004&Mode=0)`, Reason: "no date", Warning: true},
	{Feed: "sebi", Item: `"Order in the matter of an unregistered investment adviser" (https://www.sebi.gov.in/enforcement/orders/nov-2025/order-in-the-matter-of-an-unregistered-investment-adviser_98003.html)`,
		Reason: `date "sometime in November" cannot be read`, Warning: true},
}

// warnings are the report's malformed items.
func warnings(rep Report) []Skipped {
	var w []Skipped
	for _, s := range rep.Skipped {
		if s.Warning {
			w = append(w, s)
		}
	}
	return w
}

func writtenPaths(rep Report) []string {
	var p []string
	for _, w := range rep.Written {
		p = append(p, w.Path)
	}
	return p
}

func TestRun_Fixtures(t *testing.T) {
	content := newContent(t)
	opts := Options{ContentDir: content, Now: fixedNow}
	rep, err := Run(t.Context(), fixtureFeeds(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fixtureFiles, readTree(t, content)); diff != "" {
		t.Errorf("files written (-want +got):\n%s", diff)
	}
	if len(rep.Written) != len(fixtureFiles) {
		t.Errorf("report lists %d written, want %d: %v", len(rep.Written), len(fixtureFiles), writtenPaths(rep))
	}
	if diff := cmp.Diff(fixtureWarnings, warnings(rep)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// The same link again in the feed (host case, fragment) is one file.
	wantDup := Skipped{Feed: "rbi-notifications",
		Item:   `"Master Direction – Know Your Customer (KYC) Direction, 2025 (Updated)" (https://WWW.RBI.ORG.IN/Scripts/NotificationUser.aspx?Id=13002&Mode=0#annex)`,
		Reason: "already in content/circulars/rbi-2025-11-20-master-direction-know-your-customer-kyc-direction-2025.md"}
	if diff := cmp.Diff([]Skipped{wantDup}, rep.Skipped[2:3]); diff != "" {
		t.Errorf("duplicate link in the feed (-want +got):\n%s", diff)
	}
	data, err := os.ReadFile(filepath.Join(content, "circulars", "rbi-2025-11-19-rbi-imposes-monetary-penalty-payment-system-operator.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "---\n# Ingested from the feed \"rbi-press-releases\" on 2026-11-24.") {
		t.Errorf("file does not open with the editor's note:\n%s", data)
	}

	t.Run("SecondRunWritesNothing", func(t *testing.T) {
		before := readTree(t, content)
		rep, err := Run(t.Context(), fixtureFeeds(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Written) != 0 {
			t.Errorf("second run wrote %v", writtenPaths(rep))
		}
		if diff := cmp.Diff(before, readTree(t, content)); diff != "" {
			t.Errorf("second run changed the tree (-before +after):\n%s", diff)
		}
		if got, want := len(rep.Skipped)-rep.Warnings(), len(fixtureFiles)+1; got != want {
			t.Errorf("second run: %d items already in the content, want %d", got, want)
		}
		entries, _ := os.ReadDir(filepath.Join(content, "circulars"))
		if len(entries) != len(fixtureFiles) {
			t.Errorf("%d entries in circulars/, want %d (no temporary files left)", len(entries), len(fixtureFiles))
		}
	})
}

func TestRun_ExistingFiles(t *testing.T) {
	content := newContent(t)
	// An editor's circular naming the KYC notification by http and a
	// trailing slash, one naming SEBI's paper without its trailing slash,
	// and one that holds the slug a new item would take, with another link.
	existing := map[string]string{
		"circulars/rbi-2025-11-20-kyc.md": "---\ntitle: \"KYC\"\nsourceUrl: \"https://example.org/kyc\"\nofficialUrl: \"http://www.rbi.org.in/Scripts/NotificationUser.aspx/?Id=13002&Mode=0\"\n---\n\nOur words.\n",
		"circulars/sebi/paper.md":         "---\ntitle: \"Paper\"\nsourceUrl: \"https://www.sebi.gov.in/reports-and-statistics/reports/nov-2025/consultation-paper-on-review-of-the-cyber-security-framework_98002.html\"\n---\n\nOur words.\n",
		"circulars/rbi-2025-11-19-rbi-imposes-monetary-penalty-payment-system-operator.md": "---\ntitle: \"Another\"\nsourceUrl: \"https://example.org/other\"\n---\n\nOur words.\n",
	}
	for rel, text := range existing {
		writeFile(t, content, rel, text)
	}
	rep, err := Run(t.Context(), fixtureFeeds(t), Options{ContentDir: content, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"content/circulars/rbi-2025-11-18-card-file-tokenisation-device-binding-amendment.md",
		"content/circulars/rbi-2025-11-19-reserve-bank-releases-draft-directions-payment-aggregators-cross.md",
		"content/circulars/rbi-2025-11-19-rbi-imposes-monetary-penalty-payment-system-operator-2.md",
		"content/circulars/sebi-2025-11-14-framework-upi-autopay-mandates-stock-brokers.md",
	}
	if diff := cmp.Diff(want, writtenPaths(rep)); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	for rel, text := range existing {
		if data, err := os.ReadFile(filepath.Join(content, rel)); err != nil || string(data) != text {
			t.Errorf("%s was changed: %q, %v", rel, data, err)
		}
	}
	var reasons []string
	for _, s := range rep.Skipped {
		if !s.Warning {
			reasons = append(reasons, s.Reason)
		}
	}
	wantReasons := []string{
		"already in content/circulars/rbi-2025-11-20-kyc.md",
		"already in content/circulars/rbi-2025-11-20-kyc.md",
		"already in content/circulars/sebi/paper.md",
	}
	if diff := cmp.Diff(wantReasons, reasons); diff != "" {
		t.Errorf("items already in the content (-want +got):\n%s", diff)
	}

	t.Run("ErrUnreadableFile", func(t *testing.T) {
		writeFile(t, content, "circulars/broken.md", "---\ntitle: [unclosed\n---\n")
		_, err := Run(t.Context(), fixtureFeeds(t), Options{ContentDir: content})
		if err == nil || !strings.Contains(err.Error(), "content/circulars/broken.md") {
			t.Errorf("err = %v, want one naming content/circulars/broken.md", err)
		}
	})
}

func TestRun_ErrFeed(t *testing.T) {
	press := Feed{Name: "rbi-press-releases", URL: "testdata/rbi-press-releases.xml", Source: "RBI"}
	tests := []struct {
		name string
		text string // the broken feed's file
		want string // in the error, after the feed's name
	}{
		{"Truncated", "", "XML syntax error"}, // testdata/broken.xml
		{"HTMLPage", "<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>", "not a feed"},
		{"Empty", " ", "not a feed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := newContent(t)
			src := "testdata/broken.xml"
			if tt.text != "" {
				src = filepath.Join(t.TempDir(), "feed.xml")
				writeFile(t, filepath.Dir(src), "feed.xml", tt.text)
			}
			broken := Feed{Name: "broken", URL: src, Source: "RBI"}
			rep, err := Run(t.Context(), []Feed{broken, press}, Options{ContentDir: content})
			if err == nil || !strings.Contains(err.Error(), `feed "broken": `) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one naming the feed and %q", err, tt.want)
			}
			// Nothing of the broken feed; the good feed is still read.
			for path := range readTree(t, content) {
				if !strings.HasPrefix(path, "content/circulars/rbi-2025-11-19-") {
					t.Errorf("wrote %s", path)
				}
			}
			if len(rep.Written) != 2 {
				t.Errorf("wrote %v, want the press releases' two files", writtenPaths(rep))
			}
		})
	}
	t.Run("MissingFile", func(t *testing.T) {
		_, err := Run(t.Context(), []Feed{{Name: "gone", URL: "testdata/nope.xml", Source: "RBI"}}, Options{ContentDir: newContent(t)})
		if err == nil || !strings.Contains(err.Error(), `feed "gone"`) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("MissingContent", func(t *testing.T) {
		_, err := Run(t.Context(), []Feed{press}, Options{ContentDir: filepath.Join(t.TempDir(), "nope")})
		if err == nil || !strings.Contains(err.Error(), "content directory") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestRun_HTTP(t *testing.T) {
	feed, err := os.ReadFile("testdata/sebi.xml")
	if err != nil {
		t.Fatal(err)
	}
	var gotUA string
	mux := http.NewServeMux()
	mux.HandleFunc("/sebirss.xml", func(w http.ResponseWriter, r *http.Request) {
		gotUA = r.Header.Get("User-Agent")
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write(feed)
	})
	mux.HandleFunc("/slow.xml", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // answers only when the client gives up
	})
	mux.HandleFunc("/huge.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>`))
		chunk := []byte(strings.Repeat("<!-- padding -->", 1024))
		for range DefaultMaxBytes/len(chunk) + 1 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/gone.xml", http.NotFound)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	tests := []struct {
		name    string
		path    string
		timeout time.Duration
		written int
		err     string // "" no error
	}{
		{"OK", "/sebirss.xml", time.Minute, 2, ""},
		{"ErrSlow", "/slow.xml", 50 * time.Millisecond, 0, "no answer within 50ms"},
		{"ErrHuge", "/huge.xml", time.Minute, 0, "larger than the size cap"},
		{"ErrStatus", "/gone.xml", time.Minute, 0, "404 Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := newContent(t)
			f := Feed{Name: "sebi", URL: srv.URL + tt.path, Source: "SEBI"}
			rep, err := Run(t.Context(), []Feed{f}, Options{ContentDir: content, Timeout: tt.timeout})
			if tt.err == "" && err != nil {
				t.Fatal(err)
			}
			if tt.err != "" && (err == nil || !strings.Contains(err.Error(), `feed "sebi": `) || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("err = %v, want one naming the feed and %q", err, tt.err)
			}
			if len(rep.Written) != tt.written || len(readTree(t, content)) != tt.written {
				t.Errorf("wrote %v, want %d files", writtenPaths(rep), tt.written)
			}
		})
	}
	if gotUA != UserAgent {
		t.Errorf("User-Agent = %q, want %q", gotUA, UserAgent)
	}
}

func TestRun_Cancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	feeds := []Feed{{Name: "a", URL: srv.URL, Source: "RBI"}, {Name: "b", URL: srv.URL, Source: "RBI"}}
	_, err := Run(ctx, feeds, Options{ContentDir: newContent(t)})
	if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), `feed "b"`) {
		t.Errorf("err = %v, want cancelled at the first feed", err)
	}
}
