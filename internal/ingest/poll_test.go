package ingest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"regpulse/internal/metrics"
	"regpulse/internal/schedule"
)

// memState is a State in memory, updating a source from a poll as the
// store does (internal/store/ingest_sources.go).
type memState struct {
	mu      sync.Mutex
	sources map[string]SourceState
	polls   []Poll
}

func newMemState() *memState { return &memState{sources: map[string]SourceState{}} }

func (m *memState) IngestSource(_ context.Context, name string) (SourceState, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sources[name]
	return s, ok, nil
}

func (m *memState) SaveIngestPoll(_ context.Context, p Poll) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sources[p.Name]
	s.Name, s.Source, s.Kind, s.URL = p.Name, p.Source, p.Kind, p.URL
	s.Validators, s.LastPoll, s.NextPoll, s.LastStatus, s.LastError = p.Validators, p.At, p.NextPoll, p.Outcome, p.Err
	s.StaleReported, s.ShapeReported = p.StaleReported, p.ShapeReported
	if p.Outcome == Failed || p.Outcome == ShapeChanged {
		s.ConsecutiveErrors++
	} else {
		s.ConsecutiveErrors, s.LastSuccess = 0, p.At
	}
	m.sources[p.Name] = s
	m.polls = append(m.polls, p)
	return nil
}

func (m *memState) last() Poll { m.mu.Lock(); defer m.mu.Unlock(); return m.polls[len(m.polls)-1] }

// operator keeps what it is told.
type operator struct{ told []string }

func (o *operator) Tell(_ context.Context, subject, text string) error {
	o.told = append(o.told, subject+"\n"+text)
	return nil
}

// midRand makes every jitter nothing (Float64 = 0.5): exact waits.
type midSource struct{}

func (midSource) Uint64() uint64 { return 1 << 52 }

var midRand = rand.New(midSource{})

// clock is a settable Options.Now, from Monday 30 Nov 2026 10:00 IST
// (busy hours: a 15-minute cadence).
type clock struct{ t time.Time }

func newClock() *clock          { return &clock{time.Date(2026, 11, 30, 10, 0, 0, 0, schedule.IST)} }
func (c *clock) now() time.Time { return c.t }

// server is a fixture source whose answer the test sets; it counts the
// requests and keeps the last one's headers.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	body     []byte
	etag, lm string
	status   int
	header   http.Header // extra response headers
	requests int
	last     http.Header
}

func newServer(t testing.TB, body []byte) *server {
	s := &server{body: body, status: http.StatusOK}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.requests++
		s.last = r.Header.Clone()
		for k, v := range s.header {
			w.Header()[k] = v
		}
		if s.status != http.StatusOK {
			w.WriteHeader(s.status)
			return
		}
		if s.etag != "" {
			w.Header().Set("ETag", s.etag)
			if r.Header.Get("If-None-Match") == s.etag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		if s.lm != "" {
			w.Header().Set("Last-Modified", s.lm)
		}
		w.Write(s.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) set(f func(s *server)) { s.mu.Lock(); defer s.mu.Unlock(); f(s) }
func (s *server) lastHeader(k string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last.Get(k)
}

// countingParse is parseFeed, counted.
func countingParse(n *atomic.Int32) func([]byte) (*gofeed.Feed, error) {
	return func(b []byte) (*gofeed.Feed, error) { n.Add(1); return parseFeed(b) }
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// polls counts the metric of feed's polls with outcome.
func polls(feed, outcome string) float64 {
	return testutil.ToFloat64(metrics.IngestPolls.WithLabelValues(feed, outcome))
}

// TestPoll_Conditional: the second poll sends the first answer's
// validators; a 304 parses nothing and writes nothing; a server that
// ignores validators but sends the same body is "unchanged", nothing
// parsed; a new body is parsed. Each poll waits for its cadence.
func TestPoll_Conditional(t *testing.T) {
	for _, tt := range []struct {
		name       string
		etag, lm   string
		second     Outcome
		secondCode int
	}{
		{"ETag", `"v1"`, "", NotModified, http.StatusNotModified},
		{"NoValidators", "", "", Unchanged, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, readFixture(t, "sebi.xml"))
			srv.set(func(s *server) { s.etag, s.lm = tt.etag, "Mon, 30 Nov 2026 04:00:00 GMT" })
			state, clk := newMemState(), newClock()
			var parses atomic.Int32
			feed := Feed{Name: "cond-" + tt.name, URL: srv.URL + "/rss.xml", Source: "SEBI"}
			opts := Options{ContentDir: newContent(t), Now: clk.now, State: state, Rand: midRand, parse: countingParse(&parses)}
			run := func() Report {
				t.Helper()
				rep, err := Run(t.Context(), []Feed{feed}, opts)
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}

			rep := run()
			if len(rep.Written) != 2 || parses.Load() != 1 || srv.lastHeader("If-None-Match") != "" || srv.lastHeader("If-Modified-Since") != "" {
				t.Fatalf("first poll: wrote %d, parsed %d times, sent %q %q", len(rep.Written), parses.Load(),
					srv.lastHeader("If-None-Match"), srv.lastHeader("If-Modified-Since"))
			}
			first := state.last()
			if first.Outcome != Parsed || first.Items != 3 || first.New != 2 || first.Validators.BodySHA256 == "" ||
				first.Validators.ETag != tt.etag || !first.NextPoll.Equal(clk.t.Add(15*time.Minute)) {
				t.Fatalf("first poll recorded %+v", first)
			}

			// Not due yet: no request; the gauges still say how it is
			// (as after a restart).
			metrics.IngestLastSuccess.DeleteLabelValues(feed.Name)
			clk.t = clk.t.Add(10 * time.Minute)
			if rep := run(); len(rep.Polls) != 0 || len(rep.NotDue) != 1 || srv.requests != 1 {
				t.Fatalf("before its next poll: %d polls, %d not due, %d requests", len(rep.Polls), len(rep.NotDue), srv.requests)
			}
			if got := testutil.ToFloat64(metrics.IngestLastSuccess.WithLabelValues(feed.Name)); got != float64(first.At.Unix()) {
				t.Errorf("last success gauge %v, want %d", got, first.At.Unix())
			}

			// A poll that reads nothing reads no content either: a file
			// ingest cannot read would fail the run were it read.
			broken := filepath.Join(opts.ContentDir, "circulars", "zz-unreadable.md")
			if err := os.WriteFile(broken, []byte("---\ntitle: [\n---\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			clk.t = clk.t.Add(5 * time.Minute)
			rep = run()
			if err := os.Remove(broken); err != nil {
				t.Fatal(err)
			}
			if got := srv.lastHeader("If-None-Match"); got != tt.etag {
				t.Errorf("second poll sent If-None-Match %q, want %q", got, tt.etag)
			}
			if got := srv.lastHeader("If-Modified-Since"); got != "Mon, 30 Nov 2026 04:00:00 GMT" {
				t.Errorf("second poll sent If-Modified-Since %q", got)
			}
			second := state.last()
			if second.Outcome != tt.second || second.HTTPStatus != tt.secondCode || parses.Load() != 1 || len(rep.Written) != 0 ||
				second.Validators != first.Validators {
				t.Errorf("second poll: %+v, parsed %d times, wrote %d; want %s and no parse", second, parses.Load(), len(rep.Written), tt.second)
			}
			if f := rep.Figures(); f.Polls != 1 || f.NotModified+f.Unchanged != 1 {
				t.Errorf("figures %s", f)
			}
			if got := polls(feed.Name, strings.ReplaceAll(string(tt.second), "-", "_")); got != 1 {
				t.Errorf("metric of %s polls = %v, want 1", tt.second, got)
			}

			// A changed body is read.
			srv.set(func(s *server) {
				s.body = readFixture(t, "rbi-press-releases.xml")
				if s.etag != "" {
					s.etag = `"v2"`
				}
			})
			clk.t = clk.t.Add(time.Hour)
			rep = run()
			if third := state.last(); third.Outcome != Parsed || parses.Load() != 2 || len(rep.Written) != 2 || third.Validators.BodySHA256 == first.Validators.BodySHA256 {
				t.Errorf("changed body: %+v, parsed %d times, wrote %d", third, parses.Load(), len(rep.Written))
			}

			// --force: no validators sent, read whole, at once.
			rep, err := Run(t.Context(), []Feed{feed}, func() Options { o := opts; o.Force = true; return o }())
			if err != nil || srv.lastHeader("If-None-Match") != "" || parses.Load() != 3 || state.last().Outcome != Parsed {
				t.Errorf("forced: %v, sent %q, parsed %d times, %s", err, srv.lastHeader("If-None-Match"), parses.Load(), state.last().Outcome)
			}
			if f := rep.Figures(); f.Polls != 1 || f.NotDue != 0 {
				t.Errorf("forced figures %s", f)
			}
		})
	}
}

// TestPoll_RetryAfter: a 429 or 503 is an error, whose next poll waits
// as long as the server asked when that is longer than the back-off;
// the validators are kept.
func TestPoll_RetryAfter(t *testing.T) {
	// An HTTP date is read on the real clock, the test's is another.
	date := func(d time.Duration) string { return time.Now().Add(d).UTC().Format(http.TimeFormat) }
	for _, tt := range []struct {
		name   string
		status int
		header func() string
		wait   time.Duration
	}{
		{"503Seconds", http.StatusServiceUnavailable, func() string { return "7200" }, 2 * time.Hour},
		{"429Date", http.StatusTooManyRequests, func() string { return date(3 * time.Hour) }, 3 * time.Hour},
		{"503Short", http.StatusServiceUnavailable, func() string { return "60" }, 15 * time.Minute},
		{"503Huge", http.StatusServiceUnavailable, func() string { return "99999999" }, maxRetryAfter},
		{"500Ignored", http.StatusInternalServerError, func() string { return "7200" }, 15 * time.Minute},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, readFixture(t, "sebi.xml"))
			srv.set(func(s *server) { s.etag = `"v1"` })
			state, clk := newMemState(), newClock()
			feed := Feed{Name: "retry-" + tt.name, URL: srv.URL, Source: "SEBI"}
			opts := Options{ContentDir: newContent(t), Now: clk.now, State: state, Rand: midRand}
			if _, err := Run(t.Context(), []Feed{feed}, opts); err != nil {
				t.Fatal(err)
			}
			good := state.last().Validators
			clk.t = clk.t.Add(time.Hour)
			srv.set(func(s *server) {
				s.status = tt.status
				s.header = http.Header{"Retry-After": {tt.header()}}
			})
			_, err := Run(t.Context(), []Feed{feed}, opts)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprint(tt.status)) {
				t.Fatalf("err = %v", err)
			}
			p := state.last()
			wait := p.NextPoll.Sub(clk.t)
			if p.Outcome != Failed || p.HTTPStatus != tt.status || wait < tt.wait-2*time.Second || wait > tt.wait+2*time.Second || p.Validators != good {
				t.Errorf("recorded %s %d, next poll in %s (want %s), validators %+v (want %+v)", p.Outcome, p.HTTPStatus, wait, tt.wait, p.Validators, good)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"120", 2 * time.Minute}, {" 5 ", 5 * time.Second}, {"-5", 0}, {"soon", 0},
		{"Mon, 30 Nov 2026 05:00:00 GMT", time.Hour}, {"Mon, 30 Nov 2026 03:00:00 GMT", 0}, {"86401", maxRetryAfter},
	} {
		if got := retryAfter(tt.in, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestPoll_Backoff: consecutive failures double the wait (15 min, 30,
// 1 h …); a success resets it to the cadence.
func TestPoll_Backoff(t *testing.T) {
	srv := newServer(t, readFixture(t, "sebi.xml"))
	state, clk := newMemState(), newClock()
	feed := Feed{Name: "backoff", URL: srv.URL, Source: "SEBI"}
	opts := Options{ContentDir: newContent(t), Now: clk.now, State: state, Rand: midRand}
	srv.set(func(s *server) { s.status = http.StatusBadGateway })
	for i, want := range []time.Duration{15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 4 * time.Hour, 6 * time.Hour, 6 * time.Hour} {
		if _, err := Run(t.Context(), []Feed{feed}, opts); err == nil {
			t.Fatal("no error from a 502")
		}
		p := state.last()
		if got := p.NextPoll.Sub(clk.t); got != want {
			t.Errorf("failure %d: next poll in %s, want %s", i+1, got, want)
		}
		if n := state.sources[feed.Name].ConsecutiveErrors; n != i+1 {
			t.Errorf("failure %d: %d consecutive errors", i+1, n)
		}
		clk.t = p.NextPoll
	}
	srv.set(func(s *server) { s.status = http.StatusOK })
	clk.t = time.Date(2026, 12, 1, 11, 0, 0, 0, schedule.IST) // a busy hour
	if _, err := Run(t.Context(), []Feed{feed}, opts); err != nil {
		t.Fatal(err)
	}
	if p := state.last(); p.Outcome != Parsed || p.NextPoll.Sub(clk.t) != 15*time.Minute || state.sources[feed.Name].ConsecutiveErrors != 0 {
		t.Errorf("after a success: %s, next in %s, %d errors", p.Outcome, p.NextPoll.Sub(clk.t), state.sources[feed.Name].ConsecutiveErrors)
	}
}

// TestPoll_Stale: a source with no success for catalog.StaleAfter is
// stale (metric, report); the operator is told once per spell: not at
// each poll of the spell, and again after a success and a new spell.
func TestPoll_Stale(t *testing.T) {
	srv := newServer(t, readFixture(t, "sebi.xml"))
	state, clk, op := newMemState(), newClock(), &operator{}
	feed := Feed{Name: "stale", URL: srv.URL, Source: "SEBI"}
	opts := Options{ContentDir: newContent(t), Now: clk.now, State: state, Rand: midRand, Operator: op}
	stale := func() float64 { return testutil.ToFloat64(metrics.IngestStale.WithLabelValues(feed.Name)) }
	poll := func(at time.Duration) Report {
		t.Helper()
		clk.t = newClock().t.Add(at)
		rep, _ := Run(t.Context(), []Feed{feed}, opts)
		if len(rep.Polls) != 1 {
			t.Fatalf("at +%s: %d polls", at, len(rep.Polls))
		}
		return rep
	}
	steps := []struct {
		at     time.Duration
		ok     bool
		stale  bool
		told   int
		spells bool // the report says a new spell began
	}{
		{0, true, false, 0, false},
		{time.Hour, false, false, 0, false},
		{23 * time.Hour, false, false, 0, false},
		{25 * time.Hour, false, true, 1, true},
		{31 * time.Hour, false, true, 1, false},
		{37 * time.Hour, false, true, 1, false},
		{41 * time.Hour, true, false, 1, false},
		{50 * time.Hour, false, false, 1, false},
		{63 * time.Hour, false, false, 1, false},
		{66 * time.Hour, false, true, 2, true},
		{70 * time.Hour, false, true, 2, false},
	}
	for _, s := range steps {
		srv.set(func(sv *server) {
			sv.status = http.StatusOK
			if !s.ok {
				sv.status = http.StatusInternalServerError
			}
		})
		rep := poll(s.at)
		if got := stale(); got != map[bool]float64{true: 1}[s.stale] {
			t.Errorf("+%s: stale metric %v, want stale %v", s.at, got, s.stale)
		}
		if len(rep.Stale) != map[bool]int{true: 1}[s.stale] || (s.stale && rep.Stale[0].New != s.spells) {
			t.Errorf("+%s: report's stale %+v", s.at, rep.Stale)
		}
		if len(op.told) != s.told {
			t.Errorf("+%s: operator told %d times, want %d", s.at, len(op.told), s.told)
		}
	}
	if len(op.told) > 0 && (!strings.Contains(op.told[0], `ingest source stale is stale`) || !strings.Contains(op.told[0], "last read successfully at 2026-11-30T04:30:00Z") ||
		!strings.Contains(op.told[0], "500 Internal Server Error")) {
		t.Errorf("the operator's message:\n%s", op.told[0])
	}
}

// TestPoll_UserAgent: the contact goes into the named User-Agent.
func TestPoll_UserAgent(t *testing.T) {
	srv := newServer(t, readFixture(t, "sebi.xml"))
	if _, err := Run(t.Context(), []Feed{{Name: "ua", URL: srv.URL, Source: "SEBI"}}, Options{ContentDir: newContent(t), Contact: "ops@example.org"}); err != nil {
		t.Fatal(err)
	}
	if got, want := srv.lastHeader("User-Agent"), "RegPulse-ingest/1.0 (+https://regpulse.in; ops@example.org)"; got != want {
		t.Errorf("User-Agent %q, want %q", got, want)
	}
}

// benchFeed is a made-up feed of n items, as large as a regulator's.
func benchFeed(n int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Fixture feed</title>`)
	for i := range n {
		fmt.Fprintf(&b, "<item><title>Fixture notification %d on a made-up subject</title><link>https://example.org/notification/%d</link>"+
			"<description>%s</description><pubDate>Mon, 30 Nov 2026 10:%02d:00 +0530</pubDate></item>",
			i, i, strings.Repeat("Project-made text of a fixture item. ", 12), i%60)
	}
	b.WriteString("</channel></rss>")
	return []byte(b.String())
}

// BenchmarkPoll_NotModified is a poll answered 304; BenchmarkPoll_Parse
// the same feed (100 items, all already known) read and parsed whole,
// as every poll was before validators. Both poll one source on a runner
// made once (a run's walk of the content tree is not counted).
func BenchmarkPoll_NotModified(b *testing.B) { benchPoll(b, false) }
func BenchmarkPoll_Parse(b *testing.B)       { benchPoll(b, true) }

func benchPoll(b *testing.B, force bool) {
	body := benchFeed(100)
	srv := newServer(b, body)
	srv.set(func(s *server) { s.etag = `"bench"` })
	content := b.TempDir()
	state, clk := newMemState(), newClock()
	feed := Feed{Name: "bench", URL: srv.URL, Source: "RBI"}
	opts := Options{ContentDir: content, Now: clk.now, State: state, Rand: midRand, Force: true}
	if _, err := Run(b.Context(), []Feed{feed}, opts); err != nil {
		b.Fatal(err)
	}
	opts.Force = force
	r, err := newRunner(b.Context(), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		clk.t = clk.t.Add(24 * time.Hour)
		r.report = Report{}
		if err := r.feed(b.Context(), feed); err != nil || len(r.report.Polls) != 1 || (r.report.Polls[0].Outcome == NotModified) == force {
			b.Fatalf("%v %+v", err, r.report.Polls)
		}
	}
	b.ReportMetric(float64(len(body)), "feed-bytes")
}
