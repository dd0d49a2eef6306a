package alerts

import (
	"context"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/i18n"
	"regpulse/internal/indian"
	"regpulse/internal/redline"
)

// A followed Master Direction's e-mail: its new versions, each with its
// amending circulars and the redline of every provision it changed (the
// first MaxChanges of them).

var directionTemplates = parseTemplates("direction")

// DirectionEmail is one follower's e-mail of a direction's new versions.
type DirectionEmail struct {
	Follow    Follow
	Direction catalog.MasterDirection
	// Versions are the new versions, oldest first.
	Versions []VersionChanges
	// Circulars name the amending circulars the catalog holds, by slug.
	Circulars map[string]catalog.CircularRef
	// Today is the run's day: a version dated after it is announced, not
	// yet in force.
	Today catalog.Date
}

// Subject is e's subject line.
func (e DirectionEmail) Subject() string {
	label := e.Direction.Label()
	if len(e.Versions) != 1 {
		return fmt.Sprintf("RegPulse: %s amended: %s new versions", label, indian.Int(len(e.Versions)))
	}
	v := e.Versions[0].Version
	if v.Date.After(e.Today.Time) {
		return fmt.Sprintf("RegPulse: %s amended, in force from %s", label, longDate(v.Date))
	}
	return fmt.Sprintf("RegPulse: %s amended (version of %s)", label, longDate(v.Date))
}

func longDate(d catalog.Date) string { return d.Format("2 January 2006") }

type linkView struct{ Title, URL string }

type changeView struct {
	Label, Provision, Was, Heading, URL string
	HTML                                htmltemplate.HTML // the redline, escaped by redline.HTML
	Text                                string            // the redline in words: [-removed-] {+added+}
}

type versionView struct {
	Date         string
	Future       bool
	By           []linkView
	Note         string
	ChangesKnown bool
	Summary      string // "2 substituted, 1 inserted"
	Changes      []changeView
	More         int
	CompareURL   string
}

type directionView struct {
	Subject, Title, Intro, Email string
	Redlines                     bool // some version shows changed provisions
	DirectionURL                 string
	Versions                     []renderedItem
	UnsubscribeURL, ManageURL    string
}

// Direction is a direction's page.
func (l *Links) Direction(slug string) string {
	return l.site.Link(catalog.DirectionPath(slug)+"/", nil)
}

// Unfollow is a follow's signed unsubscribe link (no sign-in).
func (l *Links) Unfollow(followID string) string {
	return l.site.Link("/api/direction-follows/unsubscribe", url.Values{"token": {l.tokens.Unfollow(followID)}})
}

// RenderDirection renders e for its follower's address. Each version's
// part is rendered once for every follower (the Links' life: a run).
func (l *Links) RenderDirection(e DirectionEmail) (Rendered, error) {
	d := &e.Direction
	v := directionView{Subject: e.Subject(), Title: d.Title, Email: e.Follow.Email,
		DirectionURL: l.Direction(d.Slug), UnsubscribeURL: l.Unfollow(e.Follow.ID), ManageURL: l.Manage()}
	if len(e.Versions) == 1 {
		v.Intro = "A Master Direction you follow has a new version."
	} else {
		v.Intro = fmt.Sprintf("A Master Direction you follow has %s new versions.", indian.Int(len(e.Versions)))
	}
	for _, vc := range e.Versions {
		it, err := l.version(d, vc, e.Circulars, e.Today)
		if err != nil {
			return Rendered{}, err
		}
		v.Versions = append(v.Versions, it)
		v.Redlines = v.Redlines || len(vc.Comparison.Changes) > 0
	}
	r, err := directionTemplates.render(i18n.English.Code, "direction.html", "direction.txt", v)
	return Rendered{Subject: v.Subject, Text: r.Text, HTML: string(r.HTML), UnsubscribeURL: v.UnsubscribeURL}, err
}

// version is one version's part of an e-mail, rendered once per run.
func (l *Links) version(d *catalog.MasterDirection, vc VersionChanges, refs map[string]catalog.CircularRef, today catalog.Date) (renderedItem, error) {
	ver := vc.Version
	future := ver.Date.After(today.Time)
	return l.once("version|"+ver.ID+"|"+fmt.Sprint(future), func() (renderedItem, error) {
		compare := l.site.Link(catalog.DirectionComparePath(d.Slug, vc.Before, ver.Date)+"/", nil)
		v := versionView{Date: longDate(ver.Date), Future: future, Note: strings.TrimSpace(ver.Note),
			ChangesKnown: ver.ChangesKnown, CompareURL: compare}
		for _, s := range ver.Circulars {
			title := s
			if ref, ok := refs[s]; ok {
				title = ref.Title
				if ref.CircularNumber != "" {
					title += " (" + string(ref.CircularNumber) + ")"
				}
			}
			v.By = append(v.By, linkView{Title: title, URL: l.Circular(s)})
		}
		if a := ver.Amending; a != nil {
			title := a.Title
			if a.Number != "" {
				title += " (" + string(a.Number) + ")"
			}
			v.By = append(v.By, linkView{Title: title, URL: string(a.URL)})
		}
		c := vc.Comparison
		v.Summary = changeCounts(c)
		for i, ch := range c.Changes {
			if i == MaxChanges {
				v.More = len(c.Changes) - MaxChanges
				break
			}
			p := ch.After
			if p == nil {
				p = ch.Before
			}
			v.Changes = append(v.Changes, changeView{Label: directions.Label(ch), Provision: ch.Provision, Was: ch.Was,
				Heading: string(p.Heading), URL: compare + "#" + ch.Anchor,
				HTML: htmltemplate.HTML(redline.HTML(ch.Redline)), Text: redlineText(ch.Redline)})
		}
		return directionTemplates.render(i18n.English.Code, "version", "version", v)
	})
}

// changeCounts says how many provisions a comparison changed, by kind
// (in the order the kinds first come).
func changeCounts(c directions.Comparison) string {
	if len(c.Changes) == 0 {
		return ""
	}
	var kinds []string
	count := map[string]int{}
	for _, ch := range c.Changes {
		k := strings.ToLower(directions.Label(ch))
		if count[k] == 0 {
			kinds = append(kinds, k)
		}
		count[k]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = indian.Int(count[k]) + " " + k
	}
	word := "provisions"
	if len(c.Changes) == 1 {
		word = "provision"
	}
	return fmt.Sprintf("%s %s changed: %s.", indian.Int(len(c.Changes)), word, strings.Join(parts, ", "))
}

// redlineText writes a redline for a plain-text e-mail, as wdiff does:
// removed words in [-...-], added ones in {+...+}, which read the same
// in any font and to a screen reader.
func redlineText(segs []redline.Segment) string {
	var b strings.Builder
	for _, s := range segs {
		switch s.Op {
		case redline.Insert:
			b.WriteString("{+" + s.Text + "+}")
		case redline.Delete:
			b.WriteString("[-" + s.Text + "-]")
		default:
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

// deliverFollow renders e and hands it to the transport; a direction's
// followers are one list.
func (r *runner) deliverFollow(ctx context.Context, e DirectionEmail, msgID, name string, now time.Time) error {
	rd, err := r.o.Links.RenderDirection(e)
	if err != nil {
		return err
	}
	return r.post(ctx, e.Follow.Email, rd, msgID, "RegPulse Master Direction <"+e.Direction.Slug+".directions."+r.o.Sender.Domain+">", name, now)
}
