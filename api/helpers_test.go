package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

var discardLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// fixture is an API over a store holding a catalog, on the fixture clock.
type fixture struct {
	db  *store.DB
	api http.Handler
}

func newFixture(t testing.TB, cat *catalog.Catalog) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, ":memory:", store.WithClock(storetest.Clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if cat != nil {
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{db: db, api: New(db, discardLog, WithClock(storetest.Clock))}
}

// response is a recorded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// get serves GET target (a path under /api's mount point, e.g.
// "/circulars?limit=1"); headers are name, value pairs.
func (f *fixture) get(t testing.TB, target string, headers ...string) response {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	f.api.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// decode unmarshals a 200 JSON body, failing the test otherwise.
func decode[T any](t testing.TB, target string, res response) T {
	t.Helper()
	var v T
	if res.status != http.StatusOK {
		t.Fatalf("GET %s = %d %s, want 200", target, res.status, res.body)
	}
	if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("GET %s: Content-Type %q", target, ct)
	}
	if err := json.Unmarshal(res.body, &v); err != nil {
		t.Fatalf("GET %s: %v in %s", target, err, res.body)
	}
	return v
}

// slugs lists the "slug" of each object of a JSON array body.
func slugs(t testing.TB, target string, res response) []string {
	t.Helper()
	items := decode[[]struct{ Slug string }](t, target, res)
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Slug
	}
	return out
}

// listCase is a call expected to answer 200 with these slugs, in order.
type listCase struct {
	name, target string
	want         []string
}

func runListCases(t *testing.T, f *fixture, cases []listCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := slugs(t, tc.target, f.get(t, tc.target)); !slices.Equal(got, tc.want) {
				t.Errorf("GET %s:\n got %v\nwant %v", tc.target, got, tc.want)
			}
		})
	}
}

// errCase is a call expected to fail with status, its error message and
// fields naming exactly these parameters.
type errCase struct {
	name, target string
	status       int
	fields       []string
}

func runErrCases(t *testing.T, f *fixture, cases []errCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.get(t, tc.target)
			if res.status != tc.status {
				t.Fatalf("GET %s = %d %s, want %d", tc.target, res.status, res.body, tc.status)
			}
			var e Error
			if err := json.Unmarshal(res.body, &e); err != nil || e.Message == "" {
				t.Fatalf("GET %s: body %s is not a JSON error (%v)", tc.target, res.body, err)
			}
			var got []string
			for name, msg := range e.Fields {
				got = append(got, name)
				if msg == "" {
					t.Errorf("field %s has no message", name)
				}
				if !strings.Contains(e.Message, name) {
					t.Errorf("message %q does not name %s", e.Message, name)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.fields) {
				t.Errorf("GET %s: fields %v, want %v (%s)", tc.target, got, tc.fields, res.body)
			}
			if res.header.Get("ETag") != "" {
				t.Errorf("error response carries an ETag")
			}
		})
	}
}

func idOf(kind, slug string) string { return catalog.IDForPath(kind + "/" + slug + ".md") }
