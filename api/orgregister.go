package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/register"
	"regpulse/internal/teams"
)

// An organisation's register (issue 44): the obligations of its kinds of
// business with the statuses of its decisions on them
// (register.StatusOfDecision), grouped by due date as a user's register
// is, tracked from the day the organisation was made, and its compliance
// score; any member reads it. The impact tracker's score (GET
// /user/compliance-score) is the organisation's for a member of one.

// OrganisationRegisters is what the organisation's register needs of the
// store.
type OrganisationRegisters interface {
	OrganisationRegister(ctx context.Context, orgID string, q register.Query) ([]register.Item, int, error)
	OrganisationRegisterTally(ctx context.Context, orgID string, types []string) (register.Tally, error)
}

// scoreOwnNone is the organisation parameter's value for the user's own
// register's score.
const scoreOwnNone = "none"

type orgRegisterIn struct {
	organisationIn
	registerIn
}

// OrganisationRegister is GET /organisations/{id}/register's answer.
type OrganisationRegister struct {
	Organisation register.OrganisationRef `json:"organisation"`
	// EntityTypes are the organisation's kinds of business: the
	// obligations that apply to one of them (or to all) are its.
	EntityTypes catalog.TextList `json:"entityTypes"`
	// TrackingSince is when the organisation was made: an obligation due
	// before that day is in force (to confirm), not overdue.
	TrackingSince time.Time       `json:"trackingSince"`
	Score         register.Score  `json:"score"`
	Items         []register.Item `json:"items"`
}

var opOrganisationRegister = &apispec.Operation{ID: "organisationRegister", Method: "GET", Path: "/organisations/{id}/register", Permission: "read",
	Summary: "The organisation's register: its obligations with the statuses of its decisions on them, and its compliance score; any member may read it.",
	Description: "Every binding obligation applying to one of the organisation's kinds of business (or to all regulated entities), whose circular is in force, by due date (undated last), as GET /user/obligations lists a user's, with the same filters (status, group, search) and paging. " +
		"An obligation's status is its decision's: none or new is todo, assessing and action-planned in-progress, done done, not-applicable not-applicable; note is the decision's note, statusUpdatedAt when it was decided. " +
		"dueGroup counts from the day the organisation was made (trackingSince): a date before it is in force (to confirm), not overdue. score is the whole register's, whatever the filters.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The organisation, its score and the page of its register.", Headers: []*apispec.Header{hLink, hXTotalCount},
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[OrganisationRegister]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

func (h *Handler) organisationRegister(w http.ResponseWriter, r *http.Request, in orgRegisterIn) {
	ctx := r.Context()
	o, err := h.organisation(r, in.ID)
	if err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
	q := register.Query{EntityTypes: o.EntityTypes, Status: in.Status, Group: in.Group, Search: in.Search, Now: h.now(), Page: page}
	items, total, err := h.store.OrganisationRegister(ctx, o.ID, q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	score, err := h.organisationScore(ctx, o)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	if next := page.Offset + len(items); len(items) > 0 && next < total {
		w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next"`, pageURL(r.URL, page.Limit, next)))
	}
	writeJSON(w, http.StatusOK, OrganisationRegister{Organisation: *score.Organisation, EntityTypes: catalog.TextList(o.EntityTypes),
		TrackingSince: o.CreatedAt, Score: score, Items: items})
}

// organisationScore is o's compliance score, naming o.
func (h *Handler) organisationScore(ctx context.Context, o teams.Organisation) (register.Score, error) {
	types := o.EntityTypes
	if types == nil {
		types = []string{}
	}
	t, err := h.store.OrganisationRegisterTally(ctx, o.ID, types)
	if err != nil {
		return register.Score{}, err
	}
	s := register.ScoreOf(t, types)
	s.Organisation = &register.OrganisationRef{ID: o.ID, Name: o.Name}
	return s, nil
}

// scoreOrganisation is the organisation whose score GET
// /user/compliance-score answers for the signed-in user: the one named
// (teams.ErrNoOrganisation for one of which the user is no member), none
// for scoreOwnNone, else the user's first by name; nil for the user's own.
func (h *Handler) scoreOrganisation(r *http.Request, named string) (*teams.Organisation, error) {
	if named == scoreOwnNone {
		return nil, nil
	}
	if named != "" {
		o, err := h.store.Organisation(r.Context(), userOf(r).ID, named)
		if err != nil {
			return nil, err
		}
		return &o, nil
	}
	list, err := h.store.UserOrganisations(r.Context(), userOf(r).ID)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return &list[0], nil
}

// complianceScore is GET /user/compliance-score: the organisation's
// score for a member of one (scoreOrganisation), else the user's own.
func (h *Handler) complianceScore(w http.ResponseWriter, r *http.Request, in scoreIn) {
	o, err := h.scoreOrganisation(r, in.Organisation)
	if errors.Is(err, teams.ErrNoOrganisation) {
		err = teamsError(err)
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if o != nil {
		s, err := h.organisationScore(r.Context(), *o)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, s)
		return
	}
	types, err := h.userTypes(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	t, err := h.store.RegisterTally(r.Context(), userOf(r).ID, types)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, register.ScoreOf(t, types))
}

type scoreIn struct {
	Organisation string `param:"ScoreOrganisation"`
}
