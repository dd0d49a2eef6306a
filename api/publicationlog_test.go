package api

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

var updateGolden = flag.Bool("update", false, "rewrite api/testdata/*.golden from this run")

// logFixture is the API over a real store whose catalog went through a
// few syncs: a baseline, then a circular published and another revised,
// then one superseded (project-made fixture items).
func logFixture(t *testing.T) *authFixture {
	t.Helper()
	f := newAuthFixture(t, AuthConfig{})
	cat := storetest.Catalog()
	sync := func() {
		t.Helper()
		if _, err := f.db.SyncCatalog(t.Context(), cat); err != nil {
			t.Fatal(err)
		}
		f.advance(time.Hour)
	}
	sync()
	cat.Circulars = append(cat.Circulars, storetest.Circular("rbi-2025-07-01-fixture-17", "RBI", "UPI", "2025-07-01", "low"))
	cat.Circulars[2].Content = "UPI Lite wallet limits rise again (fixture text)."
	sync()
	cat.Circulars[4].SupersededBy = catalog.TextList{storetest.SlugUPIFraud}
	cat.Circulars[4].WithdrawnOn = new(storetest.Date("2025-06-20"))
	sync()
	return f
}

func decodeLog(t *testing.T, res response) []catalog.PublicationEntry {
	t.Helper()
	if res.status != http.StatusOK {
		t.Fatalf("status %d: %s", res.status, res.body)
	}
	var out []catalog.PublicationEntry
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func eventsOf(es []catalog.PublicationEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Event+" "+e.Slug)
	}
	return out
}

var linkNext = regexp.MustCompile(`^<([^>]+)>; rel="next"$`)

func TestPublicationLog_JSON(t *testing.T) {
	t.Parallel()
	f := logFixture(t)
	want := []string{
		"baseline ",
		"revised " + storetest.SlugUPILite, // within a sync, by the item's id
		"published rbi-2025-07-01-fixture-17",
		"superseded " + storetest.SlugTokenisation,
	}
	all := decodeLog(t, f.call(t, "GET", "/publication-log", ""))
	if diff := cmp.Diff(want, eventsOf(all)); diff != "" {
		t.Fatalf("the whole log (-want +got):\n%s", diff)
	}
	if e := all[1]; e.Path != "/circulars/"+storetest.SlugUPILite || e.BeforeHash == "" || e.AfterHash == e.BeforeHash {
		t.Errorf("revision %+v: want the circular's path and both hashes", e)
	}

	t.Run("paged by seq, Link naming the next page", func(t *testing.T) {
		var got []catalog.PublicationEntry
		target := "/publication-log?limit=1"
		for i := 0; target != ""; i++ {
			if i > len(want) {
				t.Fatal("the pages never end")
			}
			res := f.call(t, "GET", target, "")
			got = append(got, decodeLog(t, res)...)
			target = ""
			if l := res.header.Get("Link"); l != "" {
				m := linkNext.FindStringSubmatch(l)
				if m == nil {
					t.Fatalf("Link %q", l)
				}
				target = m[1]
			}
		}
		if diff := cmp.Diff(all, got); diff != "" {
			t.Errorf("paged (-whole +paged):\n%s", diff)
		}
	})
	t.Run("back in time", func(t *testing.T) {
		res := f.call(t, "GET", fmt.Sprintf("/publication-log?before=%d&limit=2", all[3].Seq), "")
		got := decodeLog(t, res)
		if diff := cmp.Diff([]string{want[2], want[1]}, eventsOf(got)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if l := res.header.Get("Link"); !strings.Contains(l, fmt.Sprintf("before=%d", all[1].Seq)) {
			t.Errorf("Link %q: want the page before seq %d", l, all[1].Seq)
		}
	})
	t.Run("filters", func(t *testing.T) {
		for target, want := range map[string][]string{
			"/publication-log?source=npci":                                            {want[1]},
			"/publication-log?event=published":                                        {want[2]},
			"/publication-log?from=2025-07-01&to=2025-07-01":                          nil,
			"/publication-log?source=all&from=" + storetest.Now.Format(time.DateOnly): want,
		} {
			if diff := cmp.Diff(want, eventsOf(decodeLog(t, f.call(t, "GET", target, "")))); diff != "" {
				t.Errorf("%s (-want +got):\n%s", target, diff)
			}
		}
	})
	t.Run("bad requests", func(t *testing.T) {
		for _, target := range []string{
			"/publication-log?after=1&before=3",
			"/publication-log?event=deleted",
			"/publication-log?from=yesterday",
			"/publication-log?after=-1",
			"/publication-log.atom?limit=5",
		} {
			if res := f.call(t, "GET", target, ""); res.status != http.StatusBadRequest {
				t.Errorf("%s: %d %s, want 400", target, res.status, res.body)
			}
		}
	})
	t.Run("not modified", func(t *testing.T) {
		for _, target := range []string{"/publication-log", "/publication-log.atom"} {
			res := f.call(t, "GET", target, "")
			again := f.call(t, "GET", target, "", "If-None-Match", res.header.Get("ETag"))
			if again.status != http.StatusNotModified {
				t.Errorf("%s with its ETag: %d, want 304", target, again.status)
			}
		}
	})
}

func TestPublicationLog_AtomGolden(t *testing.T) {
	t.Parallel()
	f := logFixture(t)
	res := f.call(t, "GET", "/publication-log.atom", "")
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "application/atom+xml; charset=utf-8" {
		t.Fatalf("%d %s: %s", res.status, res.header.Get("Content-Type"), res.body)
	}
	golden := filepath.Join("testdata", "publication-log.atom.golden")
	if *updateGolden {
		if err := os.WriteFile(golden, res.body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(res.body)); diff != "" {
		t.Errorf("feed differs from %s (go test ./api -run TestPublicationLog_AtomGolden -update; -want +got):\n%s", golden, diff)
	}
}

// atomDoc is what the archive test reads of a feed document.
type atomDoc struct {
	Links []struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	} `xml:"link"`
	Archive *struct{} `xml:"http://purl.org/syndication/history/1.0 archive"`
	Entries []struct {
		ID string `xml:"id"`
	} `xml:"entry"`
}

func (d atomDoc) link(rel string) string {
	for _, l := range d.Links {
		if l.Rel == rel {
			return l.Href
		}
	}
	return ""
}

// TestPublicationLog_AtomArchives: a consumer following prev-archive from
// the feed reads every entry once, and each archive document links back
// to the one after it.
func TestPublicationLog_AtomArchives(t *testing.T) {
	t.Parallel()
	f := logFixture(t)
	cat := storetest.Catalog()
	for i := range 45 {
		cat.Circulars = append(cat.Circulars, storetest.Circular(fmt.Sprintf("sebi-2025-08-%02d-fixture-%d", i%28+1, i), "SEBI", "Security", "2025-08-01", "low"))
	}
	if _, err := f.db.SyncCatalog(context.Background(), cat); err != nil {
		t.Fatal(err)
	}
	all := decodeLog(t, f.call(t, "GET", "/publication-log?limit=100", ""))
	get := func(href string) atomDoc {
		t.Helper()
		u, err := url.Parse(href)
		if err != nil {
			t.Fatal(err)
		}
		res := f.call(t, "GET", strings.TrimPrefix(u.RequestURI(), "/api"), "")
		if res.status != http.StatusOK {
			t.Fatalf("%s: %d %s", href, res.status, res.body)
		}
		var d atomDoc
		if err := xml.NewDecoder(bytes.NewReader(res.body)).Decode(&d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	doc := get("http://example.com/api/publication-log.atom")
	if doc.Archive != nil {
		t.Error("the feed itself is marked an archive")
	}
	var ids []string
	var docs []atomDoc
	for i := 0; ; i++ {
		if i > 10 {
			t.Fatal("prev-archive never ends")
		}
		docs = append(docs, doc)
		for _, e := range doc.Entries {
			ids = append(ids, e.ID)
		}
		prev := doc.link("prev-archive")
		if prev == "" {
			break
		}
		doc = get(prev)
		if doc.Archive == nil {
			t.Errorf("%s is not marked an archive (fh:archive)", prev)
		}
	}
	var want []string
	for i := len(all) - 1; i >= 0; i-- {
		want = append(want, fmt.Sprintf("tag:regpulse.in,2026:publication-log:%d", all[i].Seq))
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("entries read back through the archives (-want +got):\n%s", diff)
	}
	// Each archive's next-archive is the document before it in the walk.
	for i := 1; i < len(docs); i++ {
		next := docs[i].link("next-archive")
		if i == 1 {
			if next != docs[0].link("current") {
				t.Errorf("the newest archive's next-archive %s, want the feed %s", next, docs[0].link("current"))
			}
			continue
		}
		if next != docs[i-1].link("self") {
			t.Errorf("archive %d's next-archive %s, want %s", i, next, docs[i-1].link("self"))
		}
	}
	// NPCI's: the fixture's revision, and its text back as it was.
	if filtered := get("http://example.com/api/publication-log.atom?source=NPCI"); len(filtered.Entries) != 2 || filtered.link("prev-archive") != "" {
		t.Errorf("the NPCI feed: %d entries, prev-archive %q; want its two and no archive", len(filtered.Entries), filtered.link("prev-archive"))
	}
}

// sourcesStore answers IngestFreshness from a list, the rest as
// fakeStore does.
type sourcesStore struct {
	*fakeStore
	sources []catalog.SourceFreshness
}

func (s *sourcesStore) IngestFreshness(context.Context) ([]catalog.SourceFreshness, error) {
	return s.sources, nil
}

func TestSources(t *testing.T) {
	t.Parallel()
	last := storetest.Now.Add(-2 * time.Hour)
	s := &sourcesStore{fakeStore: newFakeStore(nil), sources: []catalog.SourceFreshness{
		{Source: "NPCI", Feeds: catalog.TextList{"npci-fixture"}, Stale: true},
		{Source: "RBI", Feeds: catalog.TextList{"rbi-fixture-a", "rbi-fixture-b"}, LastSuccess: last},
	}}
	f := &fixture{store: s.fakeStore, api: New(s, discardLog, WithNow(storetest.Clock), cheapAuth)}
	res := f.get(t, "/sources")
	if res.status != http.StatusOK {
		t.Fatalf("%d %s", res.status, res.body)
	}
	var got []catalog.SourceFreshness
	if err := json.Unmarshal(res.body, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.sources, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(string(res.body), `"lastSuccess":"`+last.Format(time.RFC3339)+`"`) {
		t.Errorf("body %s: want lastSuccess in RFC 3339", res.body)
	}
	if again := f.get(t, "/sources", "If-None-Match", res.header.Get("ETag")); again.status != http.StatusNotModified {
		t.Errorf("with its ETag: %d, want 304", again.status)
	}
	if bad := f.get(t, "/sources?source=RBI"); bad.status != http.StatusBadRequest {
		t.Errorf("an unknown parameter: %d, want 400", bad.status)
	}
	s.sources = nil // no feed polled yet
	if none := f.get(t, "/sources"); none.status != http.StatusOK || strings.TrimSpace(string(none.body)) != "[]" {
		t.Errorf("no sources: %d %s, want []", none.status, none.body)
	}
}
