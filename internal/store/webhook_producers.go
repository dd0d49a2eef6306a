package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/mail"
	"regpulse/internal/teammail"
	"regpulse/internal/webhooks"
)

// Where the webhooks' events come from (issue 47; docs/ARCHITECTURE.md,
// "Webhooks: events and chat channels"). Every producer publishes in the
// transaction of the change it tells, with a key that makes the event
// once (webhooks.NewEvent derives its ID from it, publishTx drops a
// second):
//
//   - circular.published, circular.revised, direction.changed and the
//     organisations' alert.matched: the publication log's entries
//     (logPublications, in the sync's transaction). The log compares each
//     item with its own memory and starts with a silent baseline, so the
//     circulars a store held when the log began are not news, and a
//     change is logged (and published) exactly once: with the sync that
//     made it, or not at all when the sync rolls back.
//   - an alert channel's alert.matched: RecordMatches, with the match.
//   - decision.changed: PutDecision, Reassign and the sync's reopening
//     (reopenDecisions), with the audit row.
//   - obligation.due: PublishDue, from the reminders' daily run.
//
// Publishing costs one indexed query when no endpoint exists: the
// organisations with endpoints are read once per sync (hookOrgs), and
// nothing is built for an organisation that has none.

// WithSite sets the site's absolute URL, under which the events' links
// are made (empty: the site's paths alone).
func WithSite(siteURL string) Option {
	return func(s *DB) { s.SetSite(siteURL) }
}

// SetSite sets the site's absolute URL of the events' links.
func (s *DB) SetSite(siteURL string) {
	s.site = strings.TrimRight(siteURL, "/")
}

// link is the absolute URL of a site path.
func (s *DB) link(path string) string {
	if path == "" {
		return ""
	}
	return s.site + "/" + strings.TrimPrefix(path, "/")
}

// hookOrg is an organisation with enabled endpoints: the types they
// want and the organisation's kinds of business.
type hookOrg struct {
	id    string
	wants map[webhooks.EventType]bool
	kinds []string
}

// hookOrgs are the organisations whose enabled endpoints want any of
// types, by id; one query, on webhook_endpoints' organisation index.
func hookOrgs(ctx context.Context, q querier, types ...webhooks.EventType) ([]hookOrg, error) {
	rows, err := q.QueryContext(ctx, `SELECT e.organisation_id, e.events, o.entity_types FROM webhook_endpoints e
		JOIN organisations o ON o.id = e.organisation_id WHERE e.organisation_id IS NOT NULL AND e.enabled ORDER BY e.organisation_id, e.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []hookOrg
	for rows.Next() {
		var id, events, kinds string
		if err := rows.Scan(&id, &events, &kinds); err != nil {
			return nil, err
		}
		var evs []webhooks.EventType
		if err := json.Unmarshal([]byte(events), &evs); err != nil {
			return nil, fmt.Errorf("endpoint of %s: %w", id, err)
		}
		if len(out) == 0 || out[len(out)-1].id != id {
			o := hookOrg{id: id, wants: map[webhooks.EventType]bool{}}
			if err := json.Unmarshal([]byte(kinds), &o.kinds); err != nil {
				return nil, fmt.Errorf("organisation %s: %w", id, err)
			}
			out = append(out, o)
		}
		for _, t := range evs {
			if slices.Contains(types, t) {
				out[len(out)-1].wants[t] = true
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(out, func(o hookOrg) bool { return len(o.wants) == 0 }), nil
}

// circularData is c as an event names it, its impact for kinds (every
// kind it concerns when kinds is empty).
func (s *DB) circularData(c *catalog.Circular, kinds []string) webhooks.CircularData {
	d := webhooks.CircularData{ID: c.ID, Slug: c.Slug, Title: c.Title, Source: c.Source, Number: string(c.CircularNumber),
		PublishedDate: c.PublishedDate.String(), DocumentType: c.DocumentType, ImpactLevel: c.ImpactLevel,
		ComplianceDates: []webhooks.ComplianceDate{}, Impact: []webhooks.EntityImpact{},
		Summary: mail.Summary(*c), URL: s.link("/circulars/" + c.Slug), SourceURL: c.SourceURL}
	if c.EffectiveDate != nil {
		day := c.EffectiveDate.String()
		d.EffectiveDate = &day
	}
	for _, cd := range c.ComplianceDates {
		d.ComplianceDates = append(d.ComplianceDates, webhooks.ComplianceDate{Date: cd.Date.String(), Label: cd.What})
	}
	for _, e := range c.EntityImpact {
		if len(kinds) == 0 || slices.Contains(kinds, e.EntityType) {
			d.Impact = append(d.Impact, webhooks.EntityImpact{EntityType: e.EntityType, ImpactLevel: e.ImpactLevel})
		}
	}
	return d
}

// syncEvents publishes the events of a sync's publication log entries,
// in the sync's transaction. The organisations with endpoints are read
// at the first entry that could concern them, once.
type syncEvents struct {
	s          *DB
	tx         *txConn
	cat        *catalog.Catalog
	orgs       []hookOrg
	loaded     bool
	circulars  map[string]*catalog.Circular
	directions map[string]*catalog.MasterDirection // by slug
}

// logged publishes what a log entry (event, of item it, its text hash
// now after) tells each organisation whose endpoints want it.
func (p *syncEvents) logged(ctx context.Context, event string, it publicationItem, after string) error {
	var types []webhooks.EventType
	switch {
	case it.kind == "circular" && (event == "published" || event == "republished"):
		types = []webhooks.EventType{webhooks.CircularPublished, webhooks.AlertMatched}
	case it.kind == "circular" && event == "revised":
		types = []webhooks.EventType{webhooks.CircularRevised}
	case it.kind == "direction-version" && (event == "published" || event == "revised"):
		types = []webhooks.EventType{webhooks.DirectionChanged}
	default:
		return nil
	}
	if !p.loaded {
		var err error
		if p.orgs, err = hookOrgs(ctx, p.tx, webhooks.CircularPublished, webhooks.CircularRevised, webhooks.DirectionChanged, webhooks.AlertMatched); err != nil {
			return fmt.Errorf("webhooks: %w", err)
		}
		p.loaded = true
	}
	if len(p.orgs) == 0 {
		return nil
	}
	now := p.s.now()
	publish := func(o hookOrg, t webhooks.EventType, key string, data any, card webhooks.Card) error {
		if !o.wants[t] {
			return nil
		}
		ev, err := webhooks.NewEvent(t, o.id, "", key, data, card, now)
		if err != nil {
			return err
		}
		_, err = p.s.publishTx(ctx, p.tx, ev)
		return err
	}
	if it.kind == "direction-version" {
		d := p.direction(it.slug)
		if d == nil {
			return nil
		}
		data := p.s.directionChanged(d, it.id)
		for _, o := range p.orgs {
			if err := publish(o, webhooks.DirectionChanged, "version:"+it.id+"@"+after, data, webhooks.DirectionCard(data)); err != nil {
				return err
			}
		}
		return nil
	}
	c := p.circular(it.id)
	if c == nil {
		return nil
	}
	for _, o := range p.orgs {
		cd := p.s.circularData(c, o.kinds)
		if types[0] == webhooks.CircularRevised {
			data := webhooks.CircularEventData{Circular: cd, Revision: after}
			if err := publish(o, webhooks.CircularRevised, "circular:"+c.ID+"@"+after, data, webhooks.CircularCard("Circular revised", cd)); err != nil {
				return err
			}
			continue
		}
		if err := publish(o, webhooks.CircularPublished, "circular:"+c.ID, webhooks.CircularEventData{Circular: cd},
			webhooks.CircularCard("New circular", cd)); err != nil {
			return err
		}
		if len(o.kinds) == 0 || len(cd.Impact) == 0 {
			continue // concerns none of its kinds of business
		}
		data := webhooks.AlertMatchedData{Circular: cd}
		for _, e := range cd.Impact {
			data.EntityTypes = append(data.EntityTypes, e.EntityType)
		}
		if err := publish(o, webhooks.AlertMatched, "circular:"+c.ID, data,
			webhooks.CircularCard("New circular for "+strings.Join(data.EntityTypes, ", "), cd)); err != nil {
			return err
		}
	}
	return nil
}

func (p *syncEvents) circular(id string) *catalog.Circular {
	if p.circulars == nil {
		p.circulars = make(map[string]*catalog.Circular, len(p.cat.Circulars))
		for i := range p.cat.Circulars {
			p.circulars[p.cat.Circulars[i].ID] = &p.cat.Circulars[i]
		}
	}
	return p.circulars[id]
}

func (p *syncEvents) direction(slug string) *catalog.MasterDirection {
	if p.directions == nil {
		p.directions = make(map[string]*catalog.MasterDirection, len(p.cat.Directions))
		for i := range p.cat.Directions {
			p.directions[p.cat.Directions[i].Slug] = &p.cat.Directions[i]
		}
	}
	return p.directions[slug]
}

// directionChanged is the data of d's version versionID.
func (s *DB) directionChanged(d *catalog.MasterDirection, versionID string) webhooks.DirectionChangedData {
	data := webhooks.DirectionChangedData{Direction: webhooks.DirectionRef{Slug: d.Slug, Title: d.Title, Source: d.Source,
		URL: s.link(catalog.DirectionPath(d.Slug))}}
	for vi, v := range d.Versions {
		if v.ID != versionID {
			continue
		}
		data.VersionDate = v.Date.String()
		data.URL = s.link(catalog.DirectionAsOfPath(d.Slug, v.Date))
		data.ChangesURL = s.link(catalog.DirectionComparePath(d.Slug, d.TextBefore(vi), v.Date))
		if len(v.Circulars) > 0 {
			data.Circular = &webhooks.CircularRef{Slug: v.Circulars[0], URL: s.link("/circulars/" + v.Circulars[0])}
		}
		if v.Amending != nil {
			if data.Circular == nil {
				data.Circular = &webhooks.CircularRef{URL: string(v.Amending.URL)}
			}
			data.Circular.Title = v.Amending.Title
		}
	}
	return data
}

// decisionData is d as an event names it, with its subject's page read
// in q (the change's transaction).
func (s *DB) decisionData(ctx context.Context, q querier, d decisions.Decision) (webhooks.DecisionData, error) {
	out := webhooks.DecisionData{ID: d.Subject.String(), SubjectType: d.Type, SubjectID: d.ID, Provision: string(d.Provision),
		Title: d.Subject.String(), Status: d.Status, Owner: string(d.OwnerID), Version: d.Version}
	if d.DueDate != nil {
		day := d.DueDate.String()
		out.DueDate = &day
	}
	if d.OwnerID != "" {
		var name string
		if err := q.QueryRowContext(ctx, `SELECT username FROM users WHERE id = ?`, string(d.OwnerID)).Scan(&name); err == nil {
			out.Owner = name
		}
	}
	path := "/organisation"
	var title, slug string
	switch d.Type {
	case decisions.SubjectCircular:
		if err := q.QueryRowContext(ctx, `SELECT slug, title FROM circulars WHERE id = ?`, d.ID).Scan(&slug, &title); err == nil {
			out.Title, path = title, "/circulars/"+slug
		}
	case decisions.SubjectObligation:
		var what string
		if err := q.QueryRowContext(ctx, `SELECT o.what, c.slug, c.title FROM obligations_shown o JOIN circulars c ON c.id = o.circular_id WHERE o.id = ?`,
			d.ID).Scan(&what, &slug, &title); err == nil {
			out.Title, path = strings.TrimSpace(what)+" ("+title+")", "/circulars/"+slug+"#obligations-heading"
		}
	default:
		if err := q.QueryRowContext(ctx, `SELECT title FROM master_directions WHERE slug = ?`, d.ID).Scan(&title); err == nil {
			out.Title = title + ", paragraph " + string(d.Provision)
		}
		path = catalog.DirectionPath(d.ID) + "/#" + catalog.ProvisionAnchor(string(d.Provision))
	}
	out.URL = s.link(path)
	return out, nil
}

// orgWants says whether an enabled endpoint of orgID wants t (one query
// on the organisation's index).
func orgWants(ctx context.Context, q querier, orgID string, t webhooks.EventType) (bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT events FROM webhook_endpoints WHERE organisation_id = ? AND enabled`, orgID)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	for rows.Next() {
		var events string
		if err := rows.Scan(&events); err != nil {
			return false, err
		}
		var evs []webhooks.EventType
		if err := json.Unmarshal([]byte(events), &evs); err != nil {
			return false, err
		}
		if slices.Contains(evs, t) {
			return true, nil
		}
	}
	return false, rows.Err()
}

// decisionChanged publishes decision.changed for d (after a change from
// before, nil when created), in tx, when the organisation wants it.
func (s *DB) decisionChanged(ctx context.Context, tx *txConn, change string, before *decisions.Decision, d decisions.Decision) error {
	if ok, err := orgWants(ctx, tx, d.OrganisationID, webhooks.DecisionChanged); err != nil || !ok {
		return err
	}
	dd, err := s.decisionData(ctx, tx, d)
	if err != nil {
		return err
	}
	data := webhooks.DecisionChangedData{Decision: dd, Change: change, Changed: decisionFieldsChanged(before, d)}
	ev, err := webhooks.NewEvent(webhooks.DecisionChanged, d.OrganisationID, "", fmt.Sprintf("decision:%s@%d", d.Subject, d.Version),
		data, webhooks.DecisionCard(data), s.now())
	if err != nil {
		return err
	}
	_, err = s.publishTx(ctx, tx, ev)
	return err
}

// decisionFieldsChanged names the fields of d that differ from before
// (every one when before is nil).
func decisionFieldsChanged(before *decisions.Decision, d decisions.Decision) []string {
	var b decisions.Decision
	if before != nil {
		b = *before
	}
	date := func(x *catalog.Date) string {
		if x == nil {
			return ""
		}
		return x.String()
	}
	fields := []struct {
		name      string
		was, isOf string
	}{
		{"applicability", b.Applicability, d.Applicability},
		{"reason", string(b.Reason), string(d.Reason)},
		{"note", string(b.Note), string(d.Note)},
		{"deferredUntil", date(b.DeferredUntil), date(d.DeferredUntil)},
		{"owner", string(b.OwnerID), string(d.OwnerID)},
		{"due", string(b.Due), string(d.Due)},
		{"dueDate", date(b.DueDate), date(d.DueDate)},
		{"status", b.Status, d.Status},
		{"textVersion", string(b.TextVersion), string(d.TextVersion)},
	}
	out := []string{}
	for _, f := range fields {
		if before == nil && f.isOf == "" {
			continue
		}
		if f.was != f.isOf {
			out = append(out, f.name)
		}
	}
	return out
}

// PublishDue publishes obligation.due for every open decision with a
// due date within teammail.Horizon days of today or past it, of each
// organisation whose endpoints want it: once per decision, kind
// (due-soon, overdue) and due date (the event's key), however often the
// reminders' run calls it. It answers how many deliveries it made.
func (s *DB) PublishDue(ctx context.Context, today catalog.Date) (_ int, err error) {
	defer wrap(&err, "PublishDue")
	orgs, err := hookOrgs(ctx, s.db, webhooks.ObligationDue)
	if err != nil || len(orgs) == 0 {
		return 0, err
	}
	made := 0
	for _, o := range orgs {
		rows, err := s.db.QueryContext(ctx, `SELECT `+decisionColumns("d.")+`, `+reminderKind+` FROM decisions d
			WHERE d.organisation_id = ? AND d.status NOT IN (?, ?) AND d.due_date IS NOT NULL AND d.due_date <= ?
			ORDER BY d.due_date, d.subject_type, d.subject_id, d.provision`,
			today.String(), o.id, decisions.StatusDone, decisions.StatusNotApplicable, teammail.Window(today).String())
		if err != nil {
			return made, err
		}
		type due struct {
			d    decisions.Decision
			kind string
		}
		var list []due
		for rows.Next() {
			var x due
			if x.d, err = scanDecision(rows, &x.kind); err != nil {
				rows.Close()
				return made, err
			}
			list = append(list, x)
		}
		if err := rows.Close(); err != nil {
			return made, err
		}
		for _, x := range list {
			dd, err := s.decisionData(ctx, s.db, x.d)
			if err != nil {
				return made, err
			}
			data := webhooks.ObligationDueData{Decision: dd, DueDate: x.d.DueDate.String(), Kind: x.kind, URL: dd.URL}
			ev, err := webhooks.NewEvent(webhooks.ObligationDue, o.id, "", "due:"+x.d.Subject.String()+"@"+x.kind+"@"+data.DueDate,
				data, webhooks.DueCard(data), s.now())
			if err != nil {
				return made, err
			}
			n, err := s.Publish(ctx, ev)
			if err != nil {
				return made, err
			}
			made += n
		}
	}
	return made, nil
}
