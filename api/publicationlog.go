package api

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"regpulse/api/apispec"
	"regpulse/internal/atom"
	"regpulse/internal/catalog"
)

// The publication log (issue 45; the store's publication_log.go says what
// it records) as JSON paged by seq and as an Atom feed with RFC 5005
// archives, and how fresh each source's ingest is. Both are public reads.
// The log changes only in a catalog sync, which starts a new version of
// the read cache; the sources' freshness changes with every poll, so it is
// not cached.

// PublicationLog is what the log's calls need of the store.
type PublicationLog interface {
	// PublicationLog reads a page of the log and whether more entries
	// follow it in its direction.
	PublicationLog(ctx context.Context, q catalog.PublicationQuery) ([]catalog.PublicationEntry, bool, error)
	// IngestFreshness says when each source was last read successfully
	// and whether that is stale now.
	IngestFreshness(ctx context.Context) ([]catalog.SourceFreshness, error)
}

// publicationFeedEntries is how many entries each document of the Atom
// feed holds.
const publicationFeedEntries = 20

var publicationLogParams = map[string]*apispec.Param{
	"LogAfter": {Component: "LogAfter", Name: "after", In: "query",
		Description: "Entries after this seq, oldest first (default 0: from the start). A consumer remembers the last seq it read and asks for what follows: seqs only grow, and none appears below one already visible, so nothing is missed or read twice.",
		Schema:      apispec.Schema{Type: "integer", Default: 0, Minimum: apispec.Int(0)}},
	"LogBefore": {Component: "LogBefore", Name: "before", In: "query",
		Description: "Entries before this seq, newest first (not with after): how a page of the log reads back in time.",
		Schema:      apispec.Schema{Type: "integer", Default: 0, Minimum: apispec.Int(0)}},
	"LogFrom": {Component: "LogFrom", Name: "from", In: "query",
		Description: "Only entries logged on or after this day (YYYY-MM-DD, UTC).",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"LogTo": {Component: "LogTo", Name: "to", In: "query",
		Description: "Only entries logged on or before this day (YYYY-MM-DD, UTC).",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"LogSource": filter("LogSource", "source", catalog.Sources, "Only entries about items of this regulator."+filterNote),
	"LogEvent":  filter("LogEvent", "event", catalog.PublicationEvents, "Only entries of this event."+filterNote),
}

type (
	logFilters struct {
		From   string `param:"LogFrom"`
		To     string `param:"LogTo"`
		Source string `param:"LogSource"`
		Event  string `param:"LogEvent"`
	}
	publicationLogIn struct {
		After  int `param:"LogAfter"`
		Before int `param:"LogBefore"`
		Limit  int `param:"Limit50"`
		logFilters
	}
	publicationFeedIn struct {
		Before int `param:"LogBefore"`
		logFilters
	}
)

// query is the store's query for the filters; a date the parameters
// checked cannot fail to parse.
func (f logFilters) query() catalog.PublicationQuery {
	q := catalog.PublicationQuery{Source: f.Source, Event: f.Event}
	for _, d := range []struct {
		v  string
		at **catalog.Date
	}{{f.From, &q.From}, {f.To, &q.To}} {
		if d.v != "" {
			var day catalog.Date
			if day.UnmarshalText([]byte(d.v)) == nil {
				*d.at = &day
			}
		}
	}
	return q
}

func publicationLogRoutes() []*route {
	return []*route{
		cachedBy(always, handle(opPublicationLog, func(h *Handler, w http.ResponseWriter, r *http.Request, in publicationLogIn) {
			if in.After > 0 && in.Before > 0 {
				h.writeError(w, r, &Error{Status: http.StatusBadRequest, Message: "invalid query parameter: before",
					Fields: map[string]string{"before": "is not taken with after: page forward with after or back with before"}})
				return
			}
			q := in.query()
			q.AfterSeq, q.Before, q.Limit = int64(in.After), int64(in.Before), in.Limit
			h.publicationLog(w, r, q)
		})),
		cachedBy(always, handle(opPublicationFeed, func(h *Handler, w http.ResponseWriter, r *http.Request, in publicationFeedIn) {
			h.publicationFeed(w, r, in.query(), int64(in.Before))
		})),
		handle(opSources, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) {
			fs, err := h.store.IngestFreshness(r.Context())
			if err != nil {
				h.writeError(w, r, err)
				return
			}
			if fs == nil {
				fs = []catalog.SourceFreshness{} // a list is [], never null
			}
			h.writeOK(w, r, fs)
		}),
	}
}

var hLinkCursor = &apispec.Header{Component: "Link-Cursor", Name: "Link", Description: "While entries follow this page: <URL of the next page>; rel=\"next\" (RFC 8288). The URL keeps the request's filters and sets after (or before) to the page's last seq.", Schema: apispec.Schema{Type: "string"}}

var opPublicationLog = &apispec.Operation{ID: "publicationLog", Method: "GET", Path: "/publication-log",
	Summary: "The publication log: every change to the catalog.",
	Description: "Every change a catalog sync made to what readers see, in order: a circular, Master Direction or direction version published, revised in place (its text's hash before and after; for a direction version the page comparing its text with the one before), withdrawn, superseded, removed from the site or republished. The log begins with a baseline entry naming how much the catalog held when it started; read the catalog itself (GET /circulars) for what came before. " +
		"Page forward with after (oldest first) or back with before (newest first); Link names the next page. The same entries as Atom: GET /publication-log.atom.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "A page of the log.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.PublicationEntry]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLinkCursor}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opPublicationFeed = &apispec.Operation{ID: "publicationFeed", Method: "GET", Path: "/publication-log.atom",
	Summary: "The publication log as an Atom feed, archived (RFC 5005).",
	Description: fmt.Sprintf("The newest %d entries of the publication log (with the filters) as Atom 1.0, newest first, each linking to the item and, for a revision with a comparison page, to what changed (rel=related). ", publicationFeedEntries) +
		"Older entries are in archive documents (RFC 5005): the feed's prev-archive (and next) link names the archive before it, ?before={seq}, which holds the entries below that seq, never changes, and links on to the archive before it (prev-archive) and after it (next-archive); a consumer follows prev-archive until it reaches an entry it has, and misses nothing.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/atom+xml", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opSources = &apispec.Operation{ID: "listSources", Method: "GET", Path: "/sources",
	Summary:     "How fresh each source is.",
	Description: fmt.Sprintf("Per regulator, when ingest last read its feeds and listing pages successfully (\"up to date as of\"): a source is as fresh as its least fresh feed, and stale once that is more than %s ago or it never answered. Read at each call, not cached.", catalog.StaleAfter),
	Responses: []*apispec.Response{
		{Status: 200, Description: "The sources, by name.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.SourceFreshness]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

// publicationLog is GET /publication-log: a page of the log, Link naming
// the next one.
func (h *Handler) publicationLog(w http.ResponseWriter, r *http.Request, q catalog.PublicationQuery) {
	if fromCache(r, q) {
		return
	}
	entries, more, err := h.store.PublicationLog(r.Context(), q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if more && len(entries) > 0 {
		last := strconv.FormatInt(entries[len(entries)-1].Seq, 10)
		v := r.URL.Query()
		if q.Before > 0 {
			v.Set("before", last)
		} else {
			v.Set("after", last)
		}
		v.Set("limit", strconv.Itoa(q.Limit))
		w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next"`, (&url.URL{Path: r.URL.Path, RawQuery: v.Encode()}).String()))
	}
	h.writeOK(w, r, entries)
}

// publicationFeed is GET /publication-log.atom: the newest entries, or,
// with before, the archive document of the entries below it.
func (h *Handler) publicationFeed(w http.ResponseWriter, r *http.Request, q catalog.PublicationQuery, before int64) {
	type feedKey struct {
		Q      catalog.PublicationQuery
		Before int64
	}
	if fromCache(r, feedKey{q, before}) {
		return
	}
	page := q
	page.Limit = publicationFeedEntries
	page.Before = before
	if before == 0 {
		page.Before = 1 << 62 // the newest
	}
	entries, older, err := h.store.PublicationLog(r.Context(), page)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var newer string // the archive after an archive document's
	if before > 0 {
		next := q
		next.AfterSeq, next.Limit = before-1, publicationFeedEntries
		after, more, err := h.store.PublicationLog(r.Context(), next)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		if more {
			newer = strconv.FormatInt(after[len(after)-1].Seq+1, 10)
		} else {
			newer = "" // the entries after it are the feed's own
		}
	}
	body, err := publicationAtom(siteOrigin(r), r.URL.Query(), entries, before, older, newer)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeRevalidated(w, r, "application/atom+xml; charset=utf-8", body)
}

// publicationAtom renders a document of the log's feed: the feed itself
// (before 0) or the archive of the entries below before. older says
// whether entries precede these; newer is the before of the archive that
// follows an archive document ("" when what follows is the feed's own).
func publicationAtom(origin string, query url.Values, entries []catalog.PublicationEntry, before int64, older bool, newer string) ([]byte, error) {
	feedURL := func(before string) string {
		v := url.Values{}
		for k, vs := range query {
			if k != "before" {
				v[k] = vs
			}
		}
		if before != "" {
			v.Set("before", before)
		}
		u := origin + "/api/publication-log.atom"
		if len(v) > 0 {
			u += "?" + v.Encode()
		}
		return u
	}
	current := feedURL("")
	self := current
	title := "RegPulse publication log"
	if before > 0 {
		self = feedURL(strconv.FormatInt(before, 10))
		title += fmt.Sprintf(" (archive, entries before %d)", before)
	}
	updated := atom.EmptyUpdated
	if len(entries) > 0 {
		updated = entries[0].At
	}
	feed := atom.Feed{
		Title:    title,
		Subtitle: "Every change to RegPulse's catalog: published, revised, withdrawn, superseded, removed and republished items.",
		ID:       self,
		Updated:  atom.Date(updated),
		Links: []atom.Link{
			{Rel: "self", Type: "application/atom+xml", Href: self},
			{Rel: "current", Type: "application/atom+xml", Href: current},
			{Rel: "alternate", Type: "text/html", Href: origin + "/publication-log"},
		},
		Author: atom.Person{Name: "RegPulse"},
	}
	if older && len(entries) > 0 {
		prev := feedURL(strconv.FormatInt(entries[len(entries)-1].Seq, 10))
		feed.Links = append(feed.Links, atom.Link{Rel: "prev-archive", Type: "application/atom+xml", Href: prev},
			atom.Link{Rel: "next", Type: "application/atom+xml", Href: prev})
	}
	if before > 0 {
		feed.Archive = &struct{}{}
		next := current
		if newer != "" {
			next = feedURL(newer)
		}
		feed.Links = append(feed.Links, atom.Link{Rel: "next-archive", Type: "application/atom+xml", Href: next},
			atom.Link{Rel: "previous", Type: "application/atom+xml", Href: next})
	}
	for _, e := range entries {
		ae := atom.Entry{
			Title:      catalog.PublicationEventLabel(e.Event) + ": " + e.Title,
			ID:         fmt.Sprintf("tag:regpulse.in,2026:publication-log:%d", e.Seq),
			Published:  atom.Date(e.At),
			Updated:    atom.Date(e.At),
			Author:     atom.Person{Name: cmp.Or(e.Source, "RegPulse")},
			Categories: []atom.Category{{Term: e.Event}, {Term: e.Kind}},
			Summary:    &atom.Text{Type: "text", Body: publicationSummary(e)},
		}
		if e.Event == "baseline" {
			ae.Title = catalog.PublicationEventLabel(e.Event)
		}
		if e.Path != "" {
			ae.Links = append(ae.Links, atom.Link{Rel: "alternate", Type: "text/html", Href: origin + e.Path})
		}
		if e.Changes != "" {
			ae.Links = append(ae.Links, atom.Link{Rel: "related", Type: "text/html", Href: origin + e.Changes, Title: "What changed"})
		}
		for _, s := range e.SupersededBy {
			ae.Links = append(ae.Links, atom.Link{Rel: "related", Type: "text/html", Href: origin + "/circulars/" + s, Title: "Superseded by"})
		}
		feed.Entries = append(feed.Entries, ae)
	}
	return atom.Marshal(feed)
}

// publicationSummary says in a sentence what an entry records.
func publicationSummary(e catalog.PublicationEntry) string {
	if e.Note != "" {
		return e.Note
	}
	what := map[string]string{"circular": "The circular", "direction": "The Master Direction", "direction-version": "This version of the Master Direction"}[e.Kind]
	var b strings.Builder
	switch e.Event {
	case "published":
		b.WriteString(what + " was published on RegPulse.")
	case "revised":
		fmt.Fprintf(&b, "%s was revised in place: text %s, was %s.", what, e.AfterHash, e.BeforeHash)
		if e.Changes != "" {
			b.WriteString(" The comparison page shows what changed.")
		}
	case "withdrawn":
		b.WriteString(what + " was withdrawn")
		if e.WithdrawnOn != nil {
			b.WriteString(", no longer in force from " + e.WithdrawnOn.String())
		}
		b.WriteString(".")
	case "superseded":
		b.WriteString(what + " was superseded by " + strings.Join(e.SupersededBy, ", "))
		if e.WithdrawnOn != nil {
			b.WriteString(", from " + e.WithdrawnOn.String())
		}
		b.WriteString(".")
	case "removed":
		b.WriteString(what + " was taken off RegPulse.")
	case "republished":
		b.WriteString(what + " is back on RegPulse.")
	}
	return b.String()
}
