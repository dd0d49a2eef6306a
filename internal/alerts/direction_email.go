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

// Subject is e's subject line, in its follower's language.
func (e DirectionEmail) Subject() string {
	lang := i18n.Of(e.Follow.Language).Code
	label := e.Direction.Label()
	if len(e.Versions) != 1 {
		return i18n.T(lang, "alertsMail.dirSubjectVersions", map[string]any{"Direction": label, "N": indian.Int(len(e.Versions))})
	}
	v := e.Versions[0].Version
	if v.Date.After(e.Today.Time) {
		return i18n.T(lang, "alertsMail.dirSubjectFuture", map[string]any{"Direction": label, "Date": longDate(lang, v.Date)})
	}
	return i18n.T(lang, "alertsMail.dirSubjectVersion", map[string]any{"Direction": label, "Date": longDate(lang, v.Date)})
}

// longDate is d in the language of code: 2 January 2006.
func longDate(code string, d catalog.Date) string { return i18n.Date(code, d.Time, "2 January 2006") }

// changeKeys name a change's kind (directions.KindLabels' English).
var changeKeys = map[string]string{directions.Added: "alertsMail.dirInserted", directions.Removed: "alertsMail.dirDeleted",
	directions.Changed: "alertsMail.dirSubstituted", directions.Renumbered: "alertsMail.dirRenumbered"}

// changeLabel names ch's kind in the language of code, as
// directions.Label does in English.
func changeLabel(code string, ch directions.Change) string {
	if ch.Kind == directions.Changed && ch.Was != "" {
		return i18n.T(code, "alertsMail.dirRenumberedSubstituted", nil)
	}
	if key, ok := changeKeys[ch.Kind]; ok {
		return i18n.T(code, key, nil)
	}
	return directions.Label(ch)
}

type linkView struct{ Title, URL string }

type changeView struct {
	// Title is the change's kind and provision ("Substituted 2").
	Title, Provision, Was, Heading, URL string
	HTML                                htmltemplate.HTML // the redline, escaped by redline.HTML
	Text                                string            // the redline in words: [-removed-] {+added+}
}

type versionView struct {
	Date string
	// Title is the version's heading; TitleText the same in capitals
	// (its date as written) for the plain text.
	Title, TitleText string
	Future           bool
	By               []linkView
	Note             string
	ChangesKnown     bool
	Summary          string // "2 substituted, 1 inserted"
	Changes          []changeView
	More             int
	MoreText         string // "And 2 more provisions"
	CompareURL       string
}

type directionView struct {
	Subject, Title, Intro, Email string
	Redlines                     bool // some version shows changed provisions
	DirectionURL                 string
	Versions                     []renderedItem
	UnsubscribeURL, ManageURL    string
}

// Direction is a direction's page, in English.
func (l *Links) Direction(slug string) string { return l.DirectionIn(i18n.English.Code, slug) }

// DirectionIn is a direction's page in the language of code.
func (l *Links) DirectionIn(code, slug string) string {
	return l.site.LinkIn(code, catalog.DirectionPath(slug)+"/", nil)
}

// Unfollow is a follow's signed unsubscribe link (no sign-in).
func (l *Links) Unfollow(followID string) string {
	return l.site.Link("/api/direction-follows/unsubscribe", url.Values{"token": {l.tokens.Unfollow(followID)}})
}

// RenderDirection renders e for its follower's address, in their
// language. Each version's part is rendered once for every follower of
// a language (the Links' life: a run).
func (l *Links) RenderDirection(e DirectionEmail) (Rendered, error) {
	lang := i18n.Of(e.Follow.Language).Code
	d := &e.Direction
	v := directionView{Subject: e.Subject(), Title: d.Title, Email: e.Follow.Email,
		DirectionURL: l.DirectionIn(lang, d.Slug), UnsubscribeURL: l.Unfollow(e.Follow.ID), ManageURL: l.ManageIn(lang)}
	n := len(e.Versions)
	v.Intro = i18n.T(lang, "alertsMail.dirIntro", map[string]any{"Count": n, "N": indian.Int(n)})
	for _, vc := range e.Versions {
		it, err := l.version(lang, d, vc, e.Circulars, e.Today)
		if err != nil {
			return Rendered{}, err
		}
		v.Versions = append(v.Versions, it)
		v.Redlines = v.Redlines || len(vc.Comparison.Changes) > 0
	}
	r, err := directionTemplates.render(lang, "direction.html", "direction.txt", v)
	return Rendered{Subject: v.Subject, Text: r.Text, HTML: string(r.HTML), UnsubscribeURL: v.UnsubscribeURL}, err
}

// version is one version's part of an e-mail in the language of code,
// rendered once per run.
func (l *Links) version(code string, d *catalog.MasterDirection, vc VersionChanges, refs map[string]catalog.CircularRef, today catalog.Date) (renderedItem, error) {
	ver := vc.Version
	future := ver.Date.After(today.Time)
	return l.once("version|"+code+"|"+ver.ID+"|"+fmt.Sprint(future), func() (renderedItem, error) {
		compare := l.site.LinkIn(code, catalog.DirectionComparePath(d.Slug, vc.Before, ver.Date)+"/", nil)
		v := versionView{Date: longDate(code, ver.Date), Future: future, Note: strings.TrimSpace(ver.Note),
			ChangesKnown: ver.ChangesKnown, CompareURL: compare}
		key := "alertsMail.dirVersionOf"
		if future {
			key = "alertsMail.dirVersionFuture"
		}
		// The plain text's heading is in capitals, its date as written.
		const date = "\x00"
		v.Title = i18n.T(code, key, map[string]any{"Date": v.Date})
		v.TitleText = strings.Replace(strings.ToUpper(i18n.T(code, key, map[string]any{"Date": date})), date, v.Date, 1)
		for _, s := range ver.Circulars {
			title := s
			if ref, ok := refs[s]; ok {
				title = ref.Title
				if ref.CircularNumber != "" {
					title += " (" + string(ref.CircularNumber) + ")"
				}
			}
			v.By = append(v.By, linkView{Title: title, URL: l.CircularIn(code, s)})
		}
		if a := ver.Amending; a != nil {
			title := a.Title
			if a.Number != "" {
				title += " (" + string(a.Number) + ")"
			}
			v.By = append(v.By, linkView{Title: title, URL: string(a.URL)})
		}
		c := vc.Comparison
		v.Summary = changeCounts(code, c)
		for i, ch := range c.Changes {
			if i == MaxChanges {
				v.More = len(c.Changes) - MaxChanges
				v.MoreText = i18n.T(code, "alertsMail.dirMore", map[string]any{"Count": v.More, "N": indian.Int(v.More)})
				break
			}
			p := ch.After
			if p == nil {
				p = ch.Before
			}
			title := i18n.T(code, "alertsMail.dirChange", map[string]any{"Label": changeLabel(code, ch), "Provision": ch.Provision})
			v.Changes = append(v.Changes, changeView{Title: title, Provision: ch.Provision, Was: ch.Was,
				Heading: string(p.Heading), URL: compare + "#" + ch.Anchor,
				HTML: htmltemplate.HTML(redline.HTML(ch.Redline)), Text: redlineText(ch.Redline)})
		}
		return directionTemplates.render(code, "version", "version", v)
	})
}

// changeCounts says how many provisions a comparison changed, by kind
// (in the order the kinds first come), in the language of code.
func changeCounts(code string, c directions.Comparison) string {
	if len(c.Changes) == 0 {
		return ""
	}
	var kinds []string
	count := map[string]int{}
	for _, ch := range c.Changes {
		k := strings.ToLower(changeLabel(code, ch))
		if count[k] == 0 {
			kinds = append(kinds, k)
		}
		count[k]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = indian.Int(count[k]) + " " + k
	}
	n := len(c.Changes)
	return i18n.T(code, "alertsMail.dirChangeCounts", map[string]any{"Count": n, "N": indian.Int(n), "Kinds": strings.Join(parts, ", ")})
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
