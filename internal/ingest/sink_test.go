package ingest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"regpulse/internal/catalog"
)

// memItems is Items in memory: the store's ingest_items.
type memItems struct {
	mu   sync.Mutex
	rows []Item
}

func (m *memItems) IngestItems(context.Context) ([]Item, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Item(nil), m.rows...), nil
}

// IngestCandidates gives every row: a superset, as the interface allows.
func (m *memItems) IngestCandidates(ctx context.Context, _ Identity) ([]Item, error) {
	return m.IngestItems(ctx)
}

func (m *memItems) HasIngestItems(context.Context) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.rows) > 0, nil
}

func (m *memItems) AddIngestItems(_ context.Context, items []Item) ([]int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]int64, len(items))
	for i, it := range items {
		dup := false
		for _, r := range m.rows {
			dup = dup || (it.Link != "" && r.Link == it.Link)
		}
		if dup {
			continue
		}
		it.ID = int64(len(m.rows) + 1)
		m.rows = append(m.rows, it)
		ids[i] = it.ID
	}
	return ids, nil
}

func (m *memItems) row(id int64) (*Item, error) {
	if id < 1 || int(id) > len(m.rows) {
		return nil, errors.New("no such row")
	}
	return &m.rows[id-1], nil
}

func (m *memItems) SetIngestDraft(_ context.Context, id int64, draft string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.row(id)
	if err == nil {
		r.Draft = draft
	}
	return err
}

func (m *memItems) MarkIngestWritten(_ context.Context, id int64, path string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.row(id)
	if err == nil {
		r.Status, r.FilePath = StatusWritten, path
	}
	return err
}

// copiesFeed serves a feed of made-up items: an English notification and
// its Hindi text (भारिबैं and Devanagari digits), then its press release.
func copiesFeed(t *testing.T, items ...string) Feed {
	t.Helper()
	all := map[string]string{
		"en": `<item><title>RBI/2025-26/901 Fixture Directions on made-up wallets</title><link>https://rbi.example.org/en/901</link>` +
			`<pubDate>Mon, 24 Nov 2025 18:00:00 +0530</pubDate><description>Fixture text of the directions.</description></item>`,
		"hi": `<item><title>भारिबैं/२०२५-२६/९०१ फिक्स्चर निदेश</title><link>https://rbi.example.org/hi/901</link>` +
			`<pubDate>Mon, 24 Nov 2025 18:00:00 +0530</pubDate><description>फिक्स्चर पाठ</description></item>`,
		"pr": `<item><title>Fixture press release: RBI issues directions on made-up wallets</title><link>https://rbi.example.org/pressrelease/77</link>` +
			`<pubDate>Mon, 24 Nov 2025 19:00:00 +0530</pubDate><description>Ref. RBI/2025-26/901. The Reserve Bank issued fixture directions.</description></item>`,
	}
	var b strings.Builder
	for _, k := range items {
		b.WriteString(all[k])
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture</title>%s</channel></rss>`, b.String())
	}))
	t.Cleanup(srv.Close)
	// Filed under "other": the links are example.org's, and an RBI draft's
	// official link must be on rbi.org.in, which the fixtures do not invent.
	return Feed{Name: "fixture-rbi", Source: catalog.SourceOther, URL: srv.URL}
}

func TestMergeAlsoPublished(t *testing.T) {
	content := newContent(t)
	rep, err := Run(t.Context(), []Feed{copiesFeed(t, "en", "hi", "pr")}, Options{ContentDir: content, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Written) != 1 || len(rep.Merged) != 2 {
		t.Fatalf("wrote %v, merged %v: want one draft and two copies", rep.Written, rep.Merged)
	}
	for i, want := range []Merged{
		{Feed: "fixture-rbi", Title: "भारिबैं/२०२५-२६/९०१ फिक्स्चर निदेश", Link: "https://rbi.example.org/hi/901", Of: rep.Written[0].Path, Rule: ByRef, As: "hindi", Added: true},
		{Feed: "fixture-rbi", Title: "Fixture press release: RBI issues directions on made-up wallets", Link: "https://rbi.example.org/pressrelease/77", Of: rep.Written[0].Path, Rule: ByRef, As: "press-release", Added: true},
	} {
		if rep.Merged[i] != want {
			t.Errorf("merged[%d] = %+v, want %+v", i, rep.Merged[i], want)
		}
	}
	// The draft names both copies, and loads.
	cat, err := catalog.Load(content)
	var problems catalog.Problems
	if errors.As(err, &problems) {
		t.Fatalf("problems: %v", problems)
	}
	if err != nil || len(cat.Unpublished) != 1 {
		t.Fatalf("load: %v, %d unpublished", err, len(cat.Unpublished))
	}
	var labels []string
	for _, l := range cat.Unpublished[0].Links {
		labels = append(labels, l.As+"|"+l.Label)
	}
	if want := "|View on rbi.example.org hindi|Hindi version on rbi.example.org press-release|Press release on rbi.example.org"; strings.Join(labels, " ") != want {
		t.Errorf("links %q, want %q", strings.Join(labels, " "), want)
	}

	// Again: every copy is known by its link; nothing new.
	rep, err = Run(t.Context(), []Feed{copiesFeed(t, "en", "hi", "pr")}, Options{ContentDir: content, Now: fixedNow})
	if err != nil || len(rep.Written)+len(rep.Merged) != 0 || len(rep.Skipped) != 3 {
		t.Errorf("second run: wrote %d, merged %d, skipped %d, err %v", len(rep.Written), len(rep.Merged), len(rep.Skipped), err)
	}
}

// An edited draft is never rewritten: the copy waits for the editor.
func TestMergeEditedFileQueued(t *testing.T) {
	content := newContent(t)
	items := &memItems{}
	rep, err := Run(t.Context(), []Feed{copiesFeed(t, "en")}, Options{ContentDir: content, Now: fixedNow, Items: items})
	if err != nil || len(rep.Written) != 1 {
		t.Fatalf("wrote %v, err %v", rep.Written, err)
	}
	path := filepath.Join(filepath.Dir(content), rep.Written[0].Path)
	edited := append(must(os.ReadFile(path)), "An editor's sentence.\n"...)
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Run(t.Context(), []Feed{copiesFeed(t, "en", "hi")}, Options{ContentDir: content, Now: fixedNow, Items: items})
	if err != nil || len(rep.Merged) != 1 || rep.Merged[0].Added {
		t.Fatalf("merged %+v, err %v: want one copy waiting", rep.Merged, err)
	}
	if got := must(os.ReadFile(path)); string(got) != string(edited) {
		t.Errorf("the edited file was rewritten:\n%s", got)
	}
	rows, _ := items.IngestItems(t.Context())
	if len(rows) != 2 || rows[1].Status != StatusPending || rows[1].CanonicalID != rows[0].ID || rows[1].Variant != "hindi" {
		t.Errorf("rows %+v", rows)
	}
}

// With no content directory (a function), drafts are queued in the store;
// pull writes them as files.
func TestQueueAndPull(t *testing.T) {
	items := &memItems{}
	rep, err := Run(t.Context(), []Feed{copiesFeed(t, "en", "hi")}, Options{Now: fixedNow, Items: items})
	if err != nil || len(rep.Written) != 1 || rep.Written[0].Path != "" || len(rep.Merged) != 1 || !rep.Merged[0].Added {
		t.Fatalf("wrote %+v, merged %+v, err %v", rep.Written, rep.Merged, err)
	}
	rows, _ := items.IngestItems(t.Context())
	if rows[0].Status != StatusQueued || !strings.Contains(rows[0].Draft, "as: hindi") || rows[1].Status != StatusMerged {
		t.Fatalf("rows %+v", rows)
	}
	content := newContent(t)
	written, err := Pull(t.Context(), items, content)
	if err != nil || len(written) != 1 {
		t.Fatalf("pull: %v, %v", written, err)
	}
	if got := must(os.ReadFile(filepath.Join(filepath.Dir(content), written[0].Path))); string(got) != rows[0].Draft {
		t.Errorf("file %s is not the queued draft", got)
	}
	if again, err := Pull(t.Context(), items, content); err != nil || len(again) != 0 {
		t.Errorf("second pull wrote %v, %v", again, err)
	}
	// The next run knows the pulled draft and its copy.
	rep, err = Run(t.Context(), []Feed{copiesFeed(t, "en", "hi", "pr")}, Options{ContentDir: content, Now: fixedNow, Items: items})
	if err != nil || len(rep.Written) != 0 || len(rep.Merged) != 1 || !rep.Merged[0].Added {
		t.Errorf("after pull: wrote %v, merged %+v, err %v", rep.Written, rep.Merged, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
