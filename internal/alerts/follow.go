package alerts

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

// Follow is a user following a Master Direction: an e-mail with the
// redline each time a version of it the store never had arrives.
type Follow struct {
	ID string `json:"id"`
	// Direction is the direction's slug; Title its short title, or title
	// ("" once the direction left the catalog).
	Direction  string     `json:"direction"`
	Title      string     `json:"title"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastSentAt *time.Time `json:"lastSentAt"`

	UserID string `json:"-"`
	Email  string `json:"-"` // the user's address
	// Language is the language of the follow's e-mails: its user's.
	Language string `json:"-"`
}

// ErrNoFollow: the user does not follow that direction, or no follow has
// that id.
var ErrNoFollow = errors.New("no such follow")

// MaxChanges is how many changed provisions an e-mail shows of one
// version with their redline; the rest are counted, with the link to the
// version's comparison, so an e-mail stays readable (and small enough for
// mail clients that clip long ones) when an amendment rewrites a chapter.
const MaxChanges = 10

// VersionChanges is one new version of a direction as its e-mail shows it.
type VersionChanges struct {
	Version catalog.DirectionVersion
	// Before is the day whose text the version changed (the version
	// before's date, or the issue date).
	Before     catalog.Date
	Comparison directions.Comparison
}

// changesFor compares each version with the text before it. d holds the
// direction's versions and the spans in force from the first one's text
// before to the last one's date (the store's DirectionBetween).
func changesFor(d *catalog.MasterDirection, versions []catalog.DirectionVersion) []VersionChanges {
	out := make([]VersionChanges, 0, len(versions))
	for _, v := range versions {
		vi := slices.IndexFunc(d.Versions, func(x catalog.DirectionVersion) bool { return x.ID == v.ID })
		if vi < 0 {
			continue // gone since it was claimed
		}
		before := d.TextBefore(vi)
		out = append(out, VersionChanges{Version: d.Versions[vi], Before: before,
			Comparison: directions.Compare(d, before, d.Versions[vi].Date, nil)})
	}
	return out
}

// follows e-mails each follow its waiting versions: one e-mail per
// follower and direction, whatever the number of new versions. The
// comparisons are made once per direction and set of versions, and each
// version's part rendered once (Links), for every follower.
func (r *runner) follows(ctx context.Context, now time.Time) error {
	n, err := r.st.MatchFollows(ctx)
	if err != nil {
		return err
	}
	r.rep.Matched += n
	waiting, err := r.st.FollowsWaiting(ctx)
	if err != nil {
		return err
	}
	made := map[string]DirectionEmail{} // by slug and version ids
	for _, f := range waiting {
		if err := ctx.Err(); err != nil {
			return err
		}
		msgID := "follow-{send}@" + r.o.Sender.Domain
		sendID, versions, err := r.st.ClaimFollowSend(ctx, f.ID, f.Email, msgID)
		if err != nil {
			return err
		}
		if sendID == "" {
			r.rep.count(outcomeSkipped)
			continue
		}
		key := f.Direction
		for _, v := range versions {
			key += "|" + v.ID
		}
		e, ok := made[key]
		if !ok && len(versions) > 0 {
			if e, err = r.directionEmail(ctx, f.Direction, versions, now); err != nil {
				// Given back for the next run, which will read it again.
				return errors.Join(err, r.st.FinishFollowSend(ctx, sendID, f.Email, err.Error(), false))
			}
			made[key] = e
		}
		if len(e.Versions) == 0 { // the direction or its versions left the catalog since
			if err := r.st.FinishFollowSend(ctx, sendID, f.Email, "", false); err != nil {
				return err
			}
			continue
		}
		e.Follow = f
		err = r.deliverFollow(ctx, e, strings.ReplaceAll(msgID, "{send}", sendID), "follow-"+sendID, now)
		failure, permanent := r.outcome(err, f.Email, "follow", f.ID)
		if err := r.st.FinishFollowSend(ctx, sendID, f.Email, failure, permanent); err != nil {
			return err
		}
	}
	return nil
}

// directionEmail reads the direction with the spans the versions changed
// and compares each version with the text before it.
func (r *runner) directionEmail(ctx context.Context, slug string, versions []catalog.DirectionVersion, now time.Time) (DirectionEmail, error) {
	d, err := r.st.Direction(ctx, slug)
	if errors.Is(err, catalog.ErrNotFound) {
		return DirectionEmail{}, nil
	}
	if err != nil {
		return DirectionEmail{}, err
	}
	first, last := -1, -1
	for i, v := range d.Versions {
		if slices.ContainsFunc(versions, func(x catalog.DirectionVersion) bool { return x.ID == v.ID }) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return DirectionEmail{}, nil
	}
	d, err = r.st.DirectionBetween(ctx, slug, d.TextBefore(first), d.Versions[last].Date)
	if err != nil {
		return DirectionEmail{}, err
	}
	var slugs []string
	for _, v := range versions {
		slugs = append(slugs, v.Circulars...)
	}
	refs, err := r.st.CircularRefs(ctx, slugs)
	if err != nil {
		return DirectionEmail{}, err
	}
	return DirectionEmail{Direction: d, Versions: changesFor(&d, versions), Circulars: refs,
		Today: catalog.Date{Time: catalog.Day(now)}}, nil
}
