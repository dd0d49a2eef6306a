package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
	"regpulse/internal/impact"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

var discardLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// fakeStore answers the API from a catalog in memory: a list is the
// catalog's entries of that kind, paged, unfiltered (what a query selects
// is the store's business, tested there). It records the last query each
// call received, so tests check how the API read the request. When err is
// set every call fails with it. Calls it does not answer itself (the
// embedded Store is nil) are tested on the real store: the accounts,
// newsletter, alert and register calls (newAuthFixture).
type fakeStore struct {
	Store
	cat   *catalog.Catalog
	stats dashboard.Stats
	err   error

	circulars   catalog.CircularQuery
	news        catalog.NewsQuery
	companies   catalog.CompanyQuery
	regulations catalog.RegulationQuery
	page        catalog.Page // of ListNetworks or ListSibosEvents
	statsAt     time.Time
	search      search.Query
	obligations catalog.ObligationQuery

	// What the AI calls stored, by circular id.
	mu        sync.Mutex
	summaries map[string]catalog.GeneratedSummary
	analyses  []catalog.ImpactAnalysis
}

func newFakeStore(cat *catalog.Catalog) *fakeStore {
	if cat == nil {
		cat = &catalog.Catalog{}
	}
	return &fakeStore{cat: cat}
}

// paged is the page of all, and how many there are.
func paged[T any](all []T, p catalog.Page) ([]T, int) {
	from := min(p.Offset, len(all))
	return slices.Clone(all[from:min(from+p.Limit, len(all))]), len(all)
}

func fakeList[Q, T any](s *fakeStore, got *Q, q Q, all []T, p catalog.Page) ([]T, int, error) {
	*got = q
	if s.err != nil {
		return nil, 0, s.err
	}
	items, total := paged(all, p)
	return items, total, nil
}

func (s *fakeStore) Ping(context.Context) error { return s.err }

// Search answers every query with the catalog's circulars, ranked as
// they come, the way the store shapes a response.
func (s *fakeStore) Search(_ context.Context, q search.Query) (search.Response, error) {
	s.search = q
	if s.err != nil {
		return search.Response{}, s.err
	}
	if err := q.Check(); err != nil {
		return search.Response{}, err
	}
	var hits []search.Hit
	for _, c := range s.cat.Circulars {
		hits = append(hits, search.Hit{Circular: c, Tier: search.TierStrong})
	}
	page, total := paged(hits, catalog.Page{Limit: search.PageSize, Offset: (max(q.Page, 1) - 1) * search.PageSize})
	top, _ := paged(hits, catalog.Page{Limit: search.AnswerSources})
	p := search.Plan{Query: q}
	for _, w := range strings.Fields(strings.ToLower(q.Text)) {
		p.Terms = append(p.Terms, search.Term{Word: w, Keys: []string{search.Key(w)}})
	}
	return search.Respond(p, search.Results{Hits: page, Top: top, Total: total}), nil
}

func (s *fakeStore) ListCirculars(_ context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error) {
	return fakeList(s, &s.circulars, q, s.cat.Circulars, q.Page)
}

// ExportCirculars calls fn with the catalog's circulars, unfiltered.
func (s *fakeStore) ExportCirculars(_ context.Context, q catalog.CircularQuery, fn func(catalog.Circular) error) error {
	s.circulars = q
	if s.err != nil {
		return s.err
	}
	for _, c := range s.cat.Circulars {
		if err := fn(c); err != nil {
			return err
		}
	}
	return nil
}

func (s *fakeStore) ListNews(_ context.Context, q catalog.NewsQuery) ([]catalog.NewsItem, int, error) {
	return fakeList(s, &s.news, q, s.cat.News, q.Page)
}

func (s *fakeStore) ListCompanies(_ context.Context, q catalog.CompanyQuery) ([]catalog.Company, int, error) {
	return fakeList(s, &s.companies, q, s.cat.Companies, q.Page)
}

func (s *fakeStore) ListRegulations(_ context.Context, q catalog.RegulationQuery) ([]catalog.Regulation, int, error) {
	return fakeList(s, &s.regulations, q, s.cat.Regulations, q.Page)
}

func (s *fakeStore) ListNetworks(_ context.Context, p catalog.Page) ([]catalog.Network, int, error) {
	return fakeList(s, &s.page, p, s.cat.Networks, p)
}

func (s *fakeStore) ListSibosEvents(_ context.Context, p catalog.Page) ([]catalog.SibosEvent, int, error) {
	return fakeList(s, &s.page, p, s.cat.Sibos, p)
}

func (s *fakeStore) ImpactTracking(context.Context) ([]impact.Record, error) {
	if s.err != nil {
		return nil, s.err
	}
	return impact.Records(s.cat.Circulars, storetest.Now.Truncate(time.Second)), nil
}

// CatalogFreshness is the fixture's as synced at storetest.Now.
func (s *fakeStore) CatalogFreshness(context.Context) (catalog.Freshness, error) {
	if s.err != nil {
		return catalog.Freshness{}, s.err
	}
	return catalog.NewFreshness(s.cat.Circulars, storetest.Now), nil
}

func (s *fakeStore) DashboardStats(_ context.Context, now time.Time) (dashboard.Stats, error) {
	s.statsAt = now
	return s.stats, s.err
}

// errBroken is a store failure that must never reach a client.
var errBroken = errors.New("sqlite: /secret/path/regpulse.db is locked")

// fixture is the API over a fake store, on the fixture clock.
type fixture struct {
	store *fakeStore
	api   http.Handler
}

func newFixture(t testing.TB, cat *catalog.Catalog) *fixture {
	t.Helper()
	s := newFakeStore(cat)
	return &fixture{store: s, api: New(s, discardLog, WithNow(storetest.Clock), cheapAuth)}
}

// response is a recorded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// plainBody is the body, gunzipped when it was sent gzipped.
func (res response) plainBody() ([]byte, error) {
	if res.header.Get("Content-Encoding") != "gzip" {
		return res.body, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(res.body))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return b, nil
}

// do serves method target (a path under /api's mount point, e.g.
// "/circulars?limit=1"); headers are name, value pairs.
func (f *fixture) do(t testing.TB, method, target string, headers ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	f.api.ServeHTTP(rec, req)
	res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	recordResponse(method, target, req.Header, "", res)
	return res
}

// get serves GET target.
func (f *fixture) get(t testing.TB, target string, headers ...string) response {
	t.Helper()
	return f.do(t, "GET", target, headers...)
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

// queryCase is a request expected to answer 200 after reading its
// parameters into query.
type queryCase[Q any] struct {
	name, target string
	want         Q
}

// runQueryCases checks that each request reaches the store as its query.
func runQueryCases[Q any](t *testing.T, f *fixture, got *Q, cases []queryCase[Q]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if res := f.get(t, tc.target); res.status != http.StatusOK {
				t.Fatalf("GET %s = %d %s, want 200", tc.target, res.status, res.body)
			}
			if diff := cmp.Diff(tc.want, *got); diff != "" {
				t.Errorf("GET %s: query (-want +got):\n%s", tc.target, diff)
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
			if diff := cmp.Diff(tc.fields, got); diff != "" {
				t.Errorf("GET %s: fields (-want +got):\n%s\n%s", tc.target, diff, res.body)
			}
			if res.header.Get("ETag") != "" {
				t.Errorf("error response carries an ETag")
			}
		})
	}
}

// page50 is the page a call with no limit or offset asks for.
var page50 = catalog.Page{Limit: 50}

// CircularRefs names the catalog's circulars with slugs.
func (s *fakeStore) CircularRefs(_ context.Context, slugs []string) (map[string]catalog.CircularRef, error) {
	if s.err != nil {
		return nil, s.err
	}
	out := map[string]catalog.CircularRef{}
	for _, c := range s.cat.Circulars {
		if slices.Contains(slugs, c.Slug) {
			out[c.Slug] = catalog.CircularRef{Slug: c.Slug, CircularNumber: c.CircularNumber, Title: c.Title}
		}
	}
	return out, nil
}

func (s *fakeStore) Circular(_ context.Context, id string) (catalog.Circular, error) {
	if s.err != nil {
		return catalog.Circular{}, s.err
	}
	for _, c := range s.cat.Circulars {
		if c.ID == id {
			s.mu.Lock()
			defer s.mu.Unlock()
			if sum, ok := s.summaries[id]; ok {
				c.AISummary = &sum
			}
			return c, nil
		}
	}
	return catalog.Circular{}, catalog.ErrNotFound
}

func (s *fakeStore) PutCircularSummary(ctx context.Context, id string, sum catalog.GeneratedSummary) error {
	if _, err := s.Circular(ctx, id); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.summaries == nil {
		s.summaries = map[string]catalog.GeneratedSummary{}
	}
	s.summaries[id] = sum
	return nil
}

func (s *fakeStore) PutImpactAnalysis(ctx context.Context, a catalog.ImpactAnalysis) error {
	if _, err := s.Circular(ctx, a.CircularID); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.analyses = append(s.analyses, a)
	return nil
}

// cheapAuth makes the accounts' hashing cheap for tests that do not sign in
// (New hashes a dummy password once at start).
var cheapAuth = WithAuth(AuthConfig{Hasher: cheapHash})

// allObligations are the catalog's obligations, by due date (undated
// last), as the store orders them.
func (s *fakeStore) allObligations() []catalog.Obligation {
	var out []catalog.Obligation
	for _, c := range s.cat.Circulars {
		out = append(out, c.Obligations...)
	}
	slices.SortStableFunc(out, func(a, b catalog.Obligation) int {
		switch {
		case a.DueDate == nil && b.DueDate == nil:
			return 0
		case a.DueDate == nil:
			return 1
		case b.DueDate == nil:
			return -1
		}
		return a.DueDate.Compare(b.DueDate.Time)
	})
	return out
}

// CircularObligations are the catalog's obligations of a circular.
func (s *fakeStore) CircularObligations(_ context.Context, id string) ([]catalog.Obligation, error) {
	if s.err != nil {
		return nil, s.err
	}
	for _, c := range s.cat.Circulars {
		if c.ID == id {
			return slices.Clone(c.Obligations), nil
		}
	}
	return nil, catalog.ErrNotFound
}

// ListObligations pages the catalog's obligations, filtered by entity
// type only (what each filter selects is the store's business).
func (s *fakeStore) ListObligations(_ context.Context, q catalog.ObligationQuery) ([]catalog.Obligation, int, error) {
	s.obligations = q
	if s.err != nil {
		return nil, 0, s.err
	}
	all := slices.DeleteFunc(s.allObligations(), func(o catalog.Obligation) bool {
		return q.EntityType != "" && !o.AppliesToType(q.EntityType)
	})
	page, total := paged(all, q.Page)
	return page, total, nil
}

// ExportObligations calls fn with the catalog's obligations, unfiltered.
func (s *fakeStore) ExportObligations(_ context.Context, q catalog.ObligationQuery, fn func(catalog.Obligation) error) error {
	s.obligations = q
	if s.err != nil {
		return s.err
	}
	for _, o := range s.allObligations() {
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}
