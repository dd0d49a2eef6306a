package ingest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"regpulse/internal/metrics"
)

// memOperator records what the operator was told of changed shapes
// (a source never read well is also stale: told apart, not kept here).
type memOperator struct{ told []string }

func (o *memOperator) Tell(_ context.Context, subject, text string) error {
	if strings.Contains(subject, "changed shape") {
		o.told = append(o.told, subject+"\n"+text)
	}
	return nil
}

// burst is a regulator the project makes up for the burst of 28 Nov 2025
// (244 Master Directions in a day on the real RBI site): n fictional
// items on one day, a feed showing only the newest window of them, and a
// listing page of pageSize rows a page, newest first, then the items
// known from before the burst.
type burst struct {
	n, window, pageSize, known int
	pages                      atomic.Int32
}

func (b *burst) title(k int) string {
	return fmt.Sprintf("Fixture Master Direction %d on a made-up topic", k)
}
func (b *burst) link(k int) string { return fmt.Sprintf("https://rbi.example.org/fixture/md/%d", k) }
func (b *burst) date(k int) string {
	if k <= 0 {
		return "27 Nov 2025" // before the burst
	}
	return "28 Nov 2025"
}

func (b *burst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/rss.xml":
		var items strings.Builder
		for k := b.n; k > b.n-b.window && k > 0; k-- {
			fmt.Fprintf(&items, "<item><title>%s</title><link>%s</link><pubDate>Fri, 28 Nov 2025 18:00:00 +0530</pubDate>"+
				"<description>Fixture text of direction %d.</description></item>\n", b.title(k), b.link(k), k)
		}
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture</title>%s</channel></rss>`, items.String())
	case "/list":
		b.pages.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("start"))
		fmt.Fprint(w, "<html><body><table class=\"notification-list\">\n")
		for i := (page - 1) * b.pageSize; i < page*b.pageSize; i++ {
			k := b.n - i // newest first, then 0, -1, … the known ones
			if k <= -b.known {
				break
			}
			fmt.Fprintf(w, "<tr class=\"row\"><td class=\"date\">%s</td><td class=\"title\"><a href=\"%s\">%s</a></td></tr>\n",
				b.date(k), b.link(k), b.title(k))
		}
		fmt.Fprint(w, "</table></body></html>")
	default:
		http.NotFound(w, r)
	}
}

// feed is the burst's feed, backfilled from its listing.
func (b *burst) feed(srv *httptest.Server, maxPages int) Feed {
	return Feed{Name: "fixture-rbi", Source: "RBI", URL: srv.URL + "/rss.xml", Backfill: &Listing{
		URL: srv.URL + "/list?delta=" + strconv.Itoa(b.pageSize) + "&start={page}", Item: "tr.row", Title: "td.title a",
		Link: "td.title a", Date: "td.date", DateLayout: "2 Jan 2006", PageSize: b.pageSize, MaxPages: maxPages}}
}

// knownContent is a content tree holding the items known before the burst.
func (b *burst) knownContent(t *testing.T) string {
	content := newContent(t)
	for k := 0; k > -b.known; k-- {
		writeFile(t, content, fmt.Sprintf("circulars/known-%d.md", -k), fmt.Sprintf("---\ntitle: %q\nsource: RBI\npublishedDate: 2025-11-27\n"+
			"officialUrl: %q\n---\n\nKnown before the burst.\n", b.title(k), b.link(k)))
	}
	return content
}

func TestBurstLosesNothing(t *testing.T) {
	b := &burst{n: 250, window: 10, pageSize: 50, known: 3}
	srv := httptest.NewServer(b)
	defer srv.Close()
	content := b.knownContent(t)
	state := newMemState()
	state.sources["fixture-rbi"] = SourceState{Name: "fixture-rbi", LastSuccess: fixedNow().Add(-time.Hour)}
	before := testutil.ToFloat64(metrics.IngestItems.WithLabelValues("fixture-rbi", "backfilled"))

	rep, err := Run(t.Context(), []Feed{b.feed(srv, 20)}, Options{ContentDir: content, Now: fixedNow, State: state})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, w := range rep.Written {
		got[w.Title] = true
	}
	lost := 0
	for k := 1; k <= b.n; k++ {
		if !got[b.title(k)] {
			lost++
		}
	}
	files, _ := filepath.Glob(filepath.Join(content, "circulars", "rbi-*.md"))
	t.Logf("burst %d through a %d-item window: drafts %d, lost %d, backfilled %d, listing pages read %d",
		b.n, b.window, len(files), lost, rep.Backfilled(), b.pages.Load())
	if lost != 0 || len(rep.Written) != b.n || len(files) != b.n {
		t.Errorf("lost %d, wrote %d drafts (%d files), want 0 lost and %d drafts", lost, len(rep.Written), len(files), b.n)
	}
	if rep.Backfilled() != b.n-b.window {
		t.Errorf("backfilled %d, want %d", rep.Backfilled(), b.n-b.window)
	}
	// Five pages of the burst, and the sixth reaches the known items.
	if p := b.pages.Load(); p != 6 {
		t.Errorf("read %d listing pages, want 6", p)
	}
	if d := testutil.ToFloat64(metrics.IngestItems.WithLabelValues("fixture-rbi", "backfilled")) - before; d != float64(b.n-b.window) {
		t.Errorf("metric backfilled grew by %v", d)
	}
	if len(state.polls) != 1 || state.polls[0].Backfilled != b.n-b.window || state.polls[0].New != b.n || state.polls[0].Outcome != Parsed {
		t.Errorf("polls saved: %+v", state.polls)
	}
	// Polled again: nothing new, no backfill.
	b.pages.Store(0)
	rep, err = Run(t.Context(), []Feed{b.feed(srv, 20)}, Options{ContentDir: content, Now: fixedNow, State: state})
	if err != nil || len(rep.Written) != 0 || b.pages.Load() != 0 {
		t.Errorf("second poll: wrote %d, read %d pages, err %v", len(rep.Written), b.pages.Load(), err)
	}
}

func TestBackfillStopsAtKnown(t *testing.T) {
	b := &burst{n: 30, window: 10, pageSize: 50, known: 40}
	srv := httptest.NewServer(b)
	defer srv.Close()
	state := newMemState()
	state.sources["fixture-rbi"] = SourceState{Name: "fixture-rbi", LastSuccess: fixedNow().Add(-time.Hour)}
	rep, err := Run(t.Context(), []Feed{b.feed(srv, 20)}, Options{ContentDir: b.knownContent(t), Now: fixedNow, State: state})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Written) != 30 || rep.Backfilled() != 20 || b.pages.Load() != 1 || rep.Warnings() != 0 {
		t.Errorf("wrote %d (backfilled %d) over %d pages with %d warnings, want 30 (20) over 1 page and none",
			len(rep.Written), rep.Backfilled(), b.pages.Load(), rep.Warnings())
	}

	t.Run("FirstPoll", func(t *testing.T) {
		// Never read before: the window is where the source starts.
		b := &burst{n: 30, window: 10, pageSize: 50, known: 1}
		srv := httptest.NewServer(b)
		defer srv.Close()
		rep, err := Run(t.Context(), []Feed{b.feed(srv, 20)}, Options{ContentDir: b.knownContent(t), Now: fixedNow, State: newMemState()})
		if err != nil || len(rep.Written) != 10 || b.pages.Load() != 0 {
			t.Errorf("wrote %d over %d pages, err %v; want the window's 10 and no backfill", len(rep.Written), b.pages.Load(), err)
		}
	})
	t.Run("MaxPages", func(t *testing.T) {
		b := &burst{n: 250, window: 10, pageSize: 50, known: 1}
		srv := httptest.NewServer(b)
		defer srv.Close()
		state := newMemState()
		state.sources["fixture-rbi"] = SourceState{Name: "fixture-rbi", LastSuccess: fixedNow().Add(-time.Hour)}
		cut := testutil.ToFloat64(metrics.IngestBackfillIncomplete.WithLabelValues("fixture-rbi"))
		rep, err := Run(t.Context(), []Feed{b.feed(srv, 2)}, Options{ContentDir: b.knownContent(t), Now: fixedNow, State: state})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Written) != 100 || rep.Warnings() != 1 || !strings.Contains(rep.Skipped[len(rep.Skipped)-1].Reason, "backfill stopped at page 2") {
			t.Errorf("wrote %d, skipped %v; want 100 and a warning", len(rep.Written), rep.Skipped)
		}
		if d := testutil.ToFloat64(metrics.IngestBackfillIncomplete.WithLabelValues("fixture-rbi")) - cut; d != 1 {
			t.Errorf("backfill_incomplete grew by %v, want 1", d)
		}
	})
}

// npciFeed is a listing source like NPCI's UPI page, on srv.
func npciFeed(srv *httptest.Server, page string) Feed {
	l := &Listing{URL: srv.URL + "/" + page, Item: "tr.circular-row", Title: "td.title", Link: "td.title a",
		Number: "td.oc", Date: "td.date", DateLayout: "2 Jan 2006", Skip: `(?i)get in touch with your bank`}
	if err := l.check("listing"); err != nil {
		panic(err)
	}
	return Feed{Name: "fixture-npci-upi", Source: "NPCI", Kind: KindListing, URL: l.URL, Listing: l}
}

func TestListingNotPublicRowsSkipped(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata/listing")))
	defer srv.Close()
	content := newContent(t)
	rep, err := Run(t.Context(), []Feed{npciFeed(srv, "npci-upi.html")}, Options{ContentDir: content, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, w := range rep.Written {
		titles = append(titles, w.Title)
	}
	// 908, 908A and 908B are three instruments; 911 is not public.
	want := []string{"Fixture limits for a made-up category", "Fixture addendum to OC 908",
		"Fixture addendum to OC 908", "Fixture mandates for made-up merchants"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("wrote %q, want %q", titles, want)
	}
	if rep.Warnings() != 0 || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "not public") {
		t.Errorf("skipped %v, want one note of a row that is not public", rep.Skipped)
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(content), rep.Written[1].Path))
	if err != nil || !strings.Contains(string(data), `circularNumber: "OC No. 908B"`) || !strings.Contains(string(data), "publishedDate: 2025-11-20") {
		t.Errorf("908B's draft: %s (%v)", data, err)
	}
}

func TestListingShapeChanged(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata/listing")))
	defer srv.Close()
	for _, tt := range []struct{ page, reason string }{
		{"npci-upi-redesigned.html", `the item selector "tr.circular-row" matches nothing`},
		{"npci-upi-dates.html", "4 of 4 dates cannot be read"},
	} {
		t.Run(tt.page, func(t *testing.T) {
			state, op := newMemState(), &memOperator{}
			f := npciFeed(srv, tt.page)
			before := testutil.ToFloat64(metrics.IngestPolls.WithLabelValues(f.Name, "shape_changed"))
			opts := Options{ContentDir: newContent(t), Now: fixedNow, State: state, Operator: op}
			rep, err := Run(t.Context(), []Feed{f}, opts)
			if err == nil || !strings.Contains(err.Error(), `feed "fixture-npci-upi"`) || !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("err = %v, want one naming the feed and saying %q", err, tt.reason)
			}
			if len(rep.Written) != 0 || len(rep.Polls) != 1 || rep.Polls[0].Outcome != ShapeChanged {
				t.Errorf("wrote %d, polls %+v: want nothing written and a shape-changed poll", len(rep.Written), rep.Polls)
			}
			if d := testutil.ToFloat64(metrics.IngestPolls.WithLabelValues(f.Name, "shape_changed")) - before; d != 1 {
				t.Errorf("shape_changed polls grew by %v, want 1", d)
			}
			if len(op.told) != 1 || !strings.Contains(op.told[0], "fixture-npci-upi") || !strings.Contains(op.told[0], tt.reason) {
				t.Errorf("operator told %q", op.told)
			}
			if st := state.sources[f.Name]; st.LastStatus != ShapeChanged || !st.ShapeReported.Equal(fixedNow()) {
				t.Errorf("source state %+v", st)
			}
			// The same day again (forced: its back-off would wait): failed
			// loudly again, told once only.
			opts.Force = true
			if _, err := Run(t.Context(), []Feed{f}, opts); err == nil || len(op.told) != 1 {
				t.Errorf("second run: err %v, operator told %d times", err, len(op.told))
			}
			opts.Now = func() time.Time { return fixedNow().Add(25 * time.Hour) }
			if _, err := Run(t.Context(), []Feed{f}, opts); err == nil || len(op.told) != 2 {
				t.Errorf("a day later: err %v, operator told %d times, want 2", err, len(op.told))
			}
		})
	}
}

// BenchmarkBackfill250 is the burst end to end: a feed's window, six
// listing pages over loopback HTTP, 250 identities and 250 draft files.
func BenchmarkBackfill250(b *testing.B) {
	bu := &burst{n: 250, window: 10, pageSize: 50, known: 3}
	srv := httptest.NewServer(bu)
	defer srv.Close()
	f := bu.feed(srv, 20)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		t := &testing.T{}
		content := filepath.Join(b.TempDir(), "content")
		for k := 0; k > -bu.known; k-- {
			writeFile(t, content, fmt.Sprintf("circulars/known-%d.md", -k), fmt.Sprintf("---\ntitle: %q\nsource: RBI\npublishedDate: 2025-11-27\n"+
				"officialUrl: %q\n---\n\nKnown before the burst.\n", bu.title(k), bu.link(k)))
		}
		state := newMemState()
		state.sources[f.Name] = SourceState{Name: f.Name, LastSuccess: fixedNow().Add(-time.Hour)}
		b.StartTimer()
		rep, err := Run(context.Background(), []Feed{f}, Options{ContentDir: content, Now: fixedNow, State: state})
		if err != nil || len(rep.Written) != 250 {
			b.Fatalf("wrote %d, %v", len(rep.Written), err)
		}
	}
}
