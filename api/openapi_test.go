package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/go-chi/chi/v5"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// openAPIDocument is openapi.json, loaded and validated, with the body
// decoders of the media types answers are checked as text in.
func openAPIDocument() (*openapi3.T, error) {
	for _, mt := range []string{"application/atom+xml", "text/csv", "text/html", "application/pdf", "application/octet-stream"} {
		openapi3filter.RegisterBodyDecoder(mt, openapi3filter.FileBodyDecoder)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPIDoc)
	if err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("openapi.json is not a valid OpenAPI document: %w", err)
	}
	return doc, nil
}

// openAPIChecker validates responses against the document.
type openAPIChecker struct {
	doc *openapi3.T
}

// check serves target (a GET under /api) with f and validates the request
// (for 2xx answers) and the response against the document.
func (c *openAPIChecker) check(t *testing.T, f *fixture, target string, wantStatus int, headers ...string) {
	t.Helper()
	res := f.get(t, target, headers...)
	if res.status != wantStatus {
		t.Fatalf("GET %s = %d %s, want %d", target, res.status, res.body, wantStatus)
	}
	req := httptest.NewRequest("GET", "/api"+target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	c.validate(t, "GET", target, req, res)
}

// validate checks req (for 2xx answers) and res against the document's
// operation method target.
func (c *openAPIChecker) validate(t *testing.T, method, target string, req *http.Request, res response) {
	t.Helper()
	if err := c.match(t.Context(), method, target, req, res, true); err != nil {
		t.Error(err)
	}
}

// match checks res, and req for a 2xx answer when checkRequest (a test
// may send what the document cannot say, such as a filter's value in
// another case), against the document's operation method target, and
// records the answer's status as exercised.
func (c *openAPIChecker) match(ctx context.Context, method, target string, req *http.Request, res response, checkRequest bool) error {
	path, _, _ := strings.Cut(target, "?")
	path = c.template(path)
	item := c.doc.Paths.Value(path)
	if item == nil || item.GetOperation(method) == nil {
		return fmt.Errorf("openapi.json does not document %s %s", method, path)
	}
	route := &routers.Route{Spec: c.doc, Server: c.doc.Servers[0], Path: path, PathItem: item, Method: method, Operation: item.GetOperation(method)}
	in := &openapi3filter.RequestValidationInput{Request: req, Route: route,
		// A request sent without its body (an upload's bytes are the
		// test's own) is checked without it.
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			ExcludeRequestBody: req.Body == nil || req.Body == http.NoBody},
		PathParams: pathParams(path, strings.TrimPrefix(req.URL.Path, "/api"))}
	var errs []error
	if checkRequest && res.status < 300 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			errs = append(errs, fmt.Errorf("%s %s: request does not match openapi.json: %v", method, target, err))
		}
	}
	body, err := res.plainBody()
	if err != nil {
		return fmt.Errorf("%s %s: %v", method, target, err)
	}
	err = openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 res.status,
		Header:                 res.header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("%s %s: %d response does not match openapi.json: %v\nbody: %.500s", method, target, res.status, err, res.body))
	}
	exercised.add(method+" "+path, res.status)
	return errors.Join(errs...)
}

// template is the document's path that path fills in (/circulars/{id}
// for /circulars/1), or path itself.
func (c *openAPIChecker) template(path string) string {
	if c.doc.Paths.Value(path) != nil {
		return path
	}
	segs := strings.Split(path, "/")
	for tmpl := range c.doc.Paths.Map() {
		ts := strings.Split(tmpl, "/")
		if len(ts) == len(segs) {
			match := true
			for i := range ts {
				if !strings.HasPrefix(ts[i], "{") && ts[i] != segs[i] {
					match = false
					break
				}
			}
			if match {
				return tmpl
			}
		}
	}
	return path
}

// pathParams reads the {name} segments of the path template from path.
func pathParams(template, path string) map[string]string {
	out := map[string]string{}
	t, p := strings.Split(template, "/"), strings.Split(path, "/")
	for i := range min(len(t), len(p)) {
		if name, ok := strings.CutPrefix(t[i], "{"); ok {
			out[strings.TrimSuffix(name, "}")] = p[i]
		}
	}
	return out
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// TestOpenAPI calls the public reads with every status they document,
// over the fixture, the real content, an empty and a broken store, and
// validates each answer against openapi.json; it checks that the router
// and the document list the same routes. (Every call any test makes is
// validated too, and every documented status must be seen: TestMain.)
func TestOpenAPI(t *testing.T) {
	doc := loadOpenAPI(t)
	c := &openAPIChecker{doc: doc}

	fix := newFixture(t, storetest.Catalog())
	realCat, err := catalog.Load("../content")
	if err != nil {
		t.Fatal(err)
	}
	real := newFixture(t, realCat)
	empty := newFixture(t, nil)
	broken := newFixture(t, storetest.Catalog())
	broken.store.err = errBroken
	down := broken

	ok := []string{
		"/health",
		"/openapi.json",
		"/circulars", "/circulars?limit=1", "/circulars?limit=2&offset=2", "/circulars?source=RBI&category=UPI&search=upi&sort=relevance&filter=high&limit=50",
		"/circulars?source=all&category=&sort=impact", "/circulars?search=tokenisation&sort=date",
		"/news", "/news?limit=5&region=India", "/news?category=CBDC&search=rupee",
		"/impact-tracking",
		"/fintech-companies", "/fintech-companies?category=BNPL&limit=10",
		"/pii-regulations", "/pii-regulations?country=India&status=active",
		"/payment-networks", "/payment-networks?limit=3",
		"/sibos-events", "/sibos-events?limit=2",
		"/dashboard/stats",
		"/search?q=upi", "/search?q=fraud+controls&page=2&source=RBI&category=UPI", "/search?q=tokenisation&page=99",
		"/search/feed?q=upi", "/search/feed?q=fraud&source=RBI&category=all",
		"/obligations", "/obligations?entityType=PSP&due_after=2025-01-01&due_before=2026-12-31&source=RBI&origin=editor&binding=true&limit=5&offset=1",
	}
	downloads := []string{"/circulars.csv", "/circulars.json", "/circulars.csv?source=RBI&category=UPI&search=upi&sort=impact&filter=high&type=circular", "/circulars.json?source=all",
		"/obligations.csv", "/obligations.csv?entityType=Issuer&binding=all"}
	for name, f := range map[string]*fixture{"Fixture": fix, "RealContent": real, "Empty": empty} {
		t.Run(name, func(t *testing.T) {
			// The bulk downloads stream, so they carry no ETag.
			for _, target := range downloads {
				c.check(t, f, target, 200)
			}
			for _, target := range ok {
				c.check(t, f, target, 200)
				etag := f.get(t, target).header.Get("ETag")
				if target != "/health" {
					c.check(t, f, target, 304, "If-None-Match", etag)
				}
			}
		})
	}
	t.Run("Errors", func(t *testing.T) {
		for _, target := range []string{
			"/health?x=1", "/openapi.json?x=1",
			"/circulars?source=FED&limit=0", "/circulars?offset=-1", "/news?region=Mars", "/impact-tracking?x=1",
			"/fintech-companies?category=Crypto", "/pii-regulations?status=repealed",
			"/payment-networks?limit=1000", "/sibos-events?limit=-1", "/dashboard/stats?days=1",
			"/search", "/search?q=+", "/search?q=" + strings.Repeat("a", 401), "/search?q=upi&page=0", "/search?q=upi&limit=5",
			"/search/feed", "/search/feed?q=upi&page=2",
			"/circulars.csv?limit=5", "/circulars.json?offset=1", "/circulars.csv?source=FED",
			"/obligations?entityType=Bank", "/obligations?due_before=31-03-2026", "/obligations?due_after=2026-02-30", "/obligations?binding=maybe",
			"/obligations.csv?limit=5", "/obligations.csv?origin=robot",
		} {
			c.check(t, fix, target, 400)
		}
		c.check(t, down, "/health", 503)
		for _, target := range append(downloads, ok...) {
			if target != "/health" && target != "/openapi.json" {
				c.check(t, broken, target, 500)
			}
		}
	})

	t.Run("Circular", func(t *testing.T) {
		target := "/circulars/" + storetest.Catalog().Circulars[0].ID
		c.check(t, fix, target, 200)
		c.check(t, fix, target, 304, "If-None-Match", fix.get(t, target).header.Get("ETag"))
		c.check(t, fix, target+"?x=1", 400)
		c.check(t, fix, "/circulars/00000000-0000-4000-8000-000000000000", 404)
		c.check(t, broken, target, 500)
		obligations := target + "/obligations"
		c.check(t, real, "/circulars/"+realCat.Circulars[0].ID+"/obligations", 200)
		c.check(t, fix, obligations, 200)
		c.check(t, fix, obligations, 304, "If-None-Match", fix.get(t, obligations).header.Get("ETag"))
		c.check(t, fix, obligations+"?x=1", 400)
		c.check(t, fix, "/circulars/00000000-0000-4000-8000-000000000000/obligations", 404)
		c.check(t, broken, obligations, 500)
	})

	t.Run("Documents", func(t *testing.T) { checkDocuments(t, c) })

	t.Run("EveryRouteDocumented", func(t *testing.T) {
		var routes, documented []string
		err := chi.Walk(New(newFakeStore(nil), discardLog, cheapAuth).(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
			routes = append(routes, method+" "+route)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for path, item := range doc.Paths.Map() {
			for method := range item.Operations() {
				documented = append(documented, method+" "+path)
			}
		}
		sort.Strings(routes)
		sort.Strings(documented)
		if !slices.Equal(routes, documented) {
			t.Errorf("routes and openapi.json differ:\n routes     %v\n documented %v", routes, documented)
		}
	})
}

// The calls the tests make through their fixtures, every one validated
// against openapi.json when the package's tests end (TestMain).
var (
	recordedMu sync.Mutex
	recorded   []recordedCall
)

type recordedCall struct {
	method, target, body string
	header               http.Header
	res                  response
}

func recordResponse(method, target string, header http.Header, body string, res response) {
	recordedMu.Lock()
	defer recordedMu.Unlock()
	recorded = append(recorded, recordedCall{method, target, body, header.Clone(), res})
}

// exercised are the statuses each documented operation ("METHOD path")
// answered with in the tests.
var exercised = statusSet{seen: map[string]map[int]bool{}}

type statusSet struct {
	mu   sync.Mutex
	seen map[string]map[int]bool
}

func (s *statusSet) add(op string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[op] == nil {
		s.seen[op] = map[int]bool{}
	}
	s.seen[op][status] = true
}

func (s *statusSet) has(op string, status int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[op][status]
}

// checkOpenAPICalls validates every recorded call against openapi.json
// and reports each documented answer no test exercised (a failure of the
// server, 500, aside: rInternalError documents it for every call, and
// TestHandler_StoreErrors and TestOpenAPI's broken store exercise it).
// Calls of what the document does not hold (an unknown path, HEAD, a 405)
// are not checked. It runs when the whole package's tests ran and
// passed: a run of some tests sees only some statuses.
func checkOpenAPICalls() []string {
	doc, err := openAPIDocument()
	if err != nil {
		return []string{err.Error()}
	}
	c := &openAPIChecker{doc: doc}
	recordedMu.Lock()
	calls := slices.Clone(recorded)
	recordedMu.Unlock()
	var problems []string
	for _, rc := range calls {
		path, _, _ := strings.Cut(rc.target, "?")
		item := doc.Paths.Value(c.template(path))
		if rc.res.status == http.StatusMethodNotAllowed || item == nil || item.GetOperation(rc.method) == nil {
			continue
		}
		req := httptest.NewRequest(rc.method, "/api"+rc.target, strings.NewReader(rc.body))
		req.Header = rc.header
		if err := c.match(context.Background(), rc.method, rc.target, req, rc.res, false); err != nil {
			problems = append(problems, err.Error())
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for status := range op.Responses.Map() {
				if n := atoi(status); n != http.StatusInternalServerError && !exercised.has(method+" "+path, n) {
					problems = append(problems, "documented response never exercised: "+method+" "+path+" "+status)
				}
			}
		}
	}
	slices.Sort(problems)
	return problems
}
