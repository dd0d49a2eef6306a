package api

import (
	"context"
	"errors"
	"net/http"
	"reflect"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

// The Master Directions with their memory: the list, one direction's
// versions, its text on any date and what changed between any two,
// public reads through the read cache. The texts are rebuilt by the
// store from the spans each provision's texts are kept as.

// Directions is what the Master Directions' calls need of the store.
type Directions interface {
	ListDirections(ctx context.Context) ([]catalog.MasterDirection, error)
	Direction(ctx context.Context, slug string) (catalog.MasterDirection, error)
	DirectionBetween(ctx context.Context, slug string, from, to catalog.Date) (catalog.MasterDirection, error)
}

var directionParams = map[string]*apispec.Param{
	"AsOf": {Component: "AsOf", Name: "date", In: "query",
		Description: "The day (YYYY-MM-DD) whose text is wanted: the provisions in force on it. Default: today (UTC).",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"CompareFrom": {Component: "CompareFrom", Name: "from", In: "query", Required: true, RequiredMessage: "the earlier day, YYYY-MM-DD",
		Description: "One of the two days (YYYY-MM-DD) to compare; the earlier of from and to is always the text before.",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"CompareTo": {Component: "CompareTo", Name: "to", In: "query",
		Description: "The other day (YYYY-MM-DD). Default: today (UTC).",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
}

type (
	directionIn struct {
		Slug string `param:"DirectionSlug"`
	}
	directionTextIn struct {
		Slug string `param:"DirectionSlug"`
		Date string `param:"AsOf"`
	}
	directionCompareIn struct {
		Slug string `param:"DirectionSlug"`
		From string `param:"CompareFrom"`
		To   string `param:"CompareTo"`
	}
)

// DirectionSummary is a direction as the list gives it: without its
// versions, with how many it has and the date of the last.
type DirectionSummary struct {
	catalog.MasterDirection
	Versions    int           `json:"versions"`
	LastAmended *catalog.Date `json:"lastAmended"`
}

// DirectionVersions is a direction with its versions, oldest first.
type DirectionVersions struct {
	Direction catalog.MasterDirection    `json:"direction"`
	Versions  []catalog.DirectionVersion `json:"versions"`
}

// DirectionText is a direction's text on one day.
type DirectionText struct {
	Direction catalog.MasterDirection `json:"direction"`
	Date      catalog.Date            `json:"date"`
	// InForce says whether the direction was in force that day: false
	// before it was issued (no provisions) and once it was replaced or
	// withdrawn (the last text it had).
	InForce bool `json:"inForce"`
	// Version is the version in force that day; null for the text as
	// issued.
	Version    *catalog.DirectionVersion `json:"version"`
	Provisions []catalog.ProvisionSpan   `json:"provisions"`
}

// DirectionComparison is what changed in a direction between two days.
type DirectionComparison struct {
	Direction catalog.MasterDirection `json:"direction"`
	directions.Comparison
}

func directionRoutes() []*route {
	return []*route{
		cachedBy(always, handle(opListDirections, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) {
			ds, err := h.store.ListDirections(r.Context())
			if err != nil {
				h.writeError(w, r, err)
				return
			}
			out := make([]DirectionSummary, len(ds))
			for i, d := range ds {
				out[i] = DirectionSummary{MasterDirection: d, Versions: len(d.Versions)}
				if n := len(d.Versions); n > 0 {
					out[i].LastAmended = &d.Versions[n-1].Date
				}
			}
			h.writeOK(w, r, out)
		})),
		cachedBy(always, handle(opDirectionVersions, func(h *Handler, w http.ResponseWriter, r *http.Request, in directionIn) {
			d, err := h.store.Direction(r.Context(), in.Slug)
			if err != nil {
				h.writeError(w, r, directionError(err, in.Slug))
				return
			}
			vs := d.Versions
			if vs == nil {
				vs = []catalog.DirectionVersion{}
			}
			d.Versions = nil
			h.writeOK(w, r, DirectionVersions{Direction: d, Versions: vs})
		})),
		cachedBy(always, handle(opDirectionText, func(h *Handler, w http.ResponseWriter, r *http.Request, in directionTextIn) {
			day := h.day(in.Date)
			d, err := h.store.DirectionBetween(r.Context(), in.Slug, day, day)
			if err != nil {
				h.writeError(w, r, directionError(err, in.Slug))
				return
			}
			out := DirectionText{Date: day, InForce: d.InForce(day), Version: d.Current(day), Provisions: d.At(day)}
			if out.Provisions == nil {
				out.Provisions = []catalog.ProvisionSpan{}
			}
			d.Versions, d.History = nil, nil
			out.Direction = d
			h.writeOK(w, r, out)
		})),
		cachedBy(always, handle(opCompareDirection, func(h *Handler, w http.ResponseWriter, r *http.Request, in directionCompareIn) {
			from, to := h.day(in.From), h.day(in.To)
			d, err := h.store.DirectionBetween(r.Context(), in.Slug, from, to)
			if err != nil {
				h.writeError(w, r, directionError(err, in.Slug))
				return
			}
			c := directions.Compare(&d, from, to, nil)
			d.Versions, d.History = nil, nil
			h.writeOK(w, r, DirectionComparison{Direction: d, Comparison: c})
		})),
	}
}

// day is the date param v, or today (UTC) when it is "" (the params were
// checked: v is a date).
func (h *Handler) day(v string) catalog.Date {
	if v == "" {
		return catalog.Date{Time: catalog.Day(h.now())}
	}
	var d catalog.Date
	_ = d.UnmarshalText([]byte(v))
	return d
}

func directionError(err error, slug string) error {
	if errors.Is(err, catalog.ErrNotFound) {
		return errorStatus(http.StatusNotFound, "no Master Direction with slug "+slug)
	}
	return err
}

var rDirectionNotFound = &apispec.Response{Component: "DirectionNotFound", Description: "No Master Direction has that slug.",
	Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}

var opListDirections = &apispec.Operation{ID: "listDirections", Method: "GET", Path: "/master-directions",
	Summary:     "Master Directions.",
	Description: "Every Master Direction RegPulse keeps with its versions, newest issued first: its status (in force, replaced, withdrawn), how many versions it has had since it was issued and the date of the last.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]DirectionSummary]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opDirectionVersions = &apispec.Operation{ID: "getDirectionVersions", Method: "GET", Path: "/master-directions/{slug}/versions",
	Summary:     "A Master Direction's versions.",
	Description: "The direction and each version since it was issued, oldest first: the date it came into force, the amending circulars (the catalog's slugs, or by number and title), the team's note on what changed, and its effects on the provisions (inserted, substituted, deleted, renumbered). changesKnown false marks a version whose date alone is known.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The versions.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[DirectionVersions]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rDirectionNotFound.At(404),
		rInternalError.At(500)},
}

var opDirectionText = &apispec.Operation{ID: "getDirectionText", Method: "GET", Path: "/master-directions/{slug}/text",
	Summary:     "A Master Direction's text on a date.",
	Description: "The provisions in force on date, in order, each with the day it got that text, the effect that gave it (empty as issued) and the kinds of business that change touches; the version in force that day. Texts are the regulator's wording or the team's digest, as each provision's wording says.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The text.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[DirectionText]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rDirectionNotFound.At(404),
		rInternalError.At(500)},
}

var opCompareDirection = &apispec.Operation{ID: "compareDirection", Method: "GET", Path: "/master-directions/{slug}/compare",
	Summary:     "What changed in a Master Direction between two dates.",
	Description: "The provisions added, removed and changed from the text in force on the earlier day to the text in force on the later one (from and to in either order), in the text's order, aligned by provision through renumbering: each with its text before and after, a word-level redline, the versions and amending circulars that changed it and the kinds of business it touches. unknown lists versions between the days whose changes are not recorded provision by provision.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The comparison.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[DirectionComparison]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rDirectionNotFound.At(404),
		rInternalError.At(500)},
}
