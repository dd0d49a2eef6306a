package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// addEndpoint stores an enabled endpoint of an organisation's (or an
// alert's, alertID) wanting types, as webhook_endpoints.go would.
func addEndpoint(t testing.TB, db *DB, orgID, alertID string, kind webhooks.Kind, types ...webhooks.EventType) string {
	t.Helper()
	events, _ := json.Marshal(types)
	id := uuid.NewString()
	now := timeText(db.now())
	if _, err := db.db.ExecContext(t.Context(), `INSERT INTO webhook_endpoints (id, organisation_id, alert_id, kind, url, events, secret, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, nullText(orgID), nullText(alertID), string(kind), "https://receiver.example/hook", string(events), "whsec_x", now, now); err != nil {
		t.Fatal(err)
	}
	return id
}

// published is an event as the tests compare it: owner, type and what
// its data says in a line.
type published struct {
	Owner, Type string
	Data        map[string]any
	Deliveries  int
}

// readEvents reads every event published, in a stable order, with its
// data and its deliveries' count.
func readEvents(t testing.TB, db *DB) []published {
	t.Helper()
	rows, err := db.db.QueryContext(t.Context(), `SELECT COALESCE(e.organisation_id, ''), COALESCE(e.alert_id, ''), e.type, e.payload,
		(SELECT COUNT(*) FROM webhook_deliveries d WHERE d.event_id = e.id) FROM webhook_events e ORDER BY e.type, e.payload`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []published
	for rows.Next() {
		var org, alert, typ, payload string
		var p published
		if err := rows.Scan(&org, &alert, &typ, &payload, &p.Deliveries); err != nil {
			t.Fatal(err)
		}
		var body struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(payload), &body); err != nil {
			t.Fatal(err)
		}
		p.Owner, p.Type, p.Data = org+alert, typ, body.Data
		if body.Type != typ {
			t.Errorf("payload's type %q, the event's %q", body.Type, typ)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// summary is what a test checks of the events: owner, type and the
// slug (or id) the data names, one a line.
func summary(evs []published) []string {
	var out []string
	for _, e := range evs {
		name := ""
		switch {
		case e.Data["circular"] != nil:
			name = e.Data["circular"].(map[string]any)["slug"].(string)
		case e.Data["direction"] != nil:
			name = e.Data["direction"].(map[string]any)["slug"].(string) + "@" + e.Data["versionDate"].(string)
		case e.Data["decision"] != nil:
			d := e.Data["decision"].(map[string]any)
			name = d["id"].(string) + " " + d["status"].(string)
			if c, ok := e.Data["change"].(string); ok {
				name += " " + c
			}
			if k, ok := e.Data["kind"].(string); ok {
				name += " " + k
			}
		}
		out = append(out, fmt.Sprintf("%s %s %s ×%d", e.Owner, e.Type, name, e.Deliveries))
	}
	slices.Sort(out)
	return out
}

// find is the data of the event of type typ whose summary names name.
func find(t testing.TB, evs []published, typ, name string) map[string]any {
	t.Helper()
	for _, e := range evs {
		if e.Type == typ && strings.Contains(summary([]published{e})[0], " "+name+" ") {
			return e.Data
		}
	}
	t.Fatalf("no %s of %s", typ, name)
	return nil
}

// TestWebhookProducers_Sync: the sync publishes circular.published (and
// alert.matched for the organisation's kinds of business),
// circular.revised and direction.changed once each, to the
// organisations whose endpoints want them; the first sync's catalog is
// not news.
func TestWebhookProducers_Sync(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t, WithSite("https://regpulse.test/"))
		asha := newAlertUser(t, db, "asha")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", []string{"PSP"})
		if err != nil {
			t.Fatal(err)
		}
		quiet, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "No endpoints", []string{"PSP"})
		if err != nil {
			t.Fatal(err)
		}
		addEndpoint(t, db, org.ID, "", webhooks.KindWebhook, webhooks.EventTypes...)
		addEndpoint(t, db, org.ID, "", webhooks.KindSlack, webhooks.AlertMatched)
		cat := storetest.Catalog()
		cat.Directions = []catalog.MasterDirection{pubDirection("fixture-md", "2025-01-10")}
		sync := func() {
			t.Helper()
			if _, err := db.SyncCatalog(ctx, cat); err != nil {
				t.Fatal(err)
			}
		}
		sync()
		if evs := readEvents(t, db); len(evs) != 0 {
			t.Fatalf("the first sync published %v: the catalog there is not news", summary(evs))
		}
		c := storetest.Circular("rbi-2025-07-01-fixture-17", "RBI", "UPI", "2025-07-01", "medium", "PSP", "high", "Issuer", "low")
		c.CircularNumber = "RBI/2025-26/17"
		eff := storetest.Date("2025-08-01")
		c.EffectiveDate = &eff
		other := storetest.Circular("rbi-2025-07-02-fixture-18", "RBI", "UPI", "2025-07-02", "low", "Issuer", "low")
		cat.Circulars = append(cat.Circulars, c, other)
		cat.Directions[0] = pubDirection("fixture-md", "2025-01-10", "2025-03-01")
		sync()
		sync() // nothing new: nothing published
		want := []string{
			org.ID + " alert.matched rbi-2025-07-01-fixture-17 ×2",
			org.ID + " circular.published rbi-2025-07-01-fixture-17 ×1",
			org.ID + " circular.published rbi-2025-07-02-fixture-18 ×1",
			org.ID + " direction.changed fixture-md@2025-03-01 ×1",
		}
		evs := readEvents(t, db)
		if diff := cmp.Diff(want, summary(evs)); diff != "" {
			t.Errorf("published (-want +got):\n%s", diff)
		}
		for _, e := range evs {
			if e.Owner == quiet.ID {
				t.Errorf("published to an organisation with no endpoint: %+v", e)
			}
		}
		// The circular's data: its facts, the impact for the
		// organisation's kinds, links absolute under the site.
		gotData := find(t, evs, "circular.published", c.Slug)["circular"].(map[string]any)
		delete(gotData, "id")
		wantData := map[string]any{"slug": c.Slug, "title": c.Title, "source": "RBI", "number": "RBI/2025-26/17",
			"publishedDate": "2025-07-01", "effectiveDate": "2025-08-01", "complianceDates": []any{}, "documentType": "circular",
			"impactLevel": "medium", "impact": []any{map[string]any{"entityType": "PSP", "impactLevel": "high"}},
			"summary": "Content of rbi-2025-07-01-fixture-17.", "url": "https://regpulse.test/circulars/rbi-2025-07-01-fixture-17",
			"sourceUrl": "https://example.org/rbi-2025-07-01-fixture-17"}
		if diff := cmp.Diff(wantData, gotData); diff != "" {
			t.Errorf("circular data (-want +got):\n%s", diff)
		}
		if got := find(t, evs, "alert.matched", c.Slug)["entityTypes"]; !cmp.Equal(got, []any{"PSP"}) {
			t.Errorf("alert.matched's kinds %v, want [PSP]", got)
		}
		if got := find(t, evs, "direction.changed", "fixture-md@2025-03-01")["changesUrl"]; got != "https://regpulse.test/master-directions/fixture-md/compare/2025-01-10/2025-03-01" {
			t.Errorf("direction.changed's changesUrl %v", got)
		}

		// A revision is published once, however often synced.
		for i := range cat.Circulars {
			if cat.Circulars[i].Slug == c.Slug {
				cat.Circulars[i].Content = "Revised content (fixture)."
			}
		}
		sync()
		sync()
		evs = readEvents(t, db)
		want = append(want, org.ID+" circular.revised rbi-2025-07-01-fixture-17 ×1")
		slices.Sort(want)
		if diff := cmp.Diff(want, summary(evs)); diff != "" {
			t.Errorf("after a revision (-want +got):\n%s", diff)
		}
	})
}

// TestWebhookProducers_Decisions: decision.changed with each write of a
// decision and each reassignment, in its transaction, for an
// organisation that wants it; obligation.due once per decision, kind
// and due date.
func TestWebhookProducers_Decisions(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t, WithSite("https://regpulse.test"))
		cat := storetest.Catalog()
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		quiet, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "No endpoints", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		join(t, db, by, ravi.Email, ravi.ID, teams.RoleMember, nil)
		addEndpoint(t, db, org.ID, "", webhooks.KindWebhook, webhooks.DecisionChanged, webhooks.ObligationDue)
		circID := cat.Circulars[0].ID
		subj := decisions.Subject{Type: decisions.SubjectCircular, ID: circID}
		d, err := db.PutDecision(ctx, by, decisions.Decision{Subject: subj, Applicability: decisions.Applicable, OwnerID: catalog.OptString(asha.ID),
			Due: "2026-12-05", DueDate: dueOn("2026-12-05")})
		if err != nil {
			t.Fatal(err)
		}
		d.Status = decisions.StatusAssessing
		if _, err := db.PutDecision(ctx, by, d); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Reassign(ctx, by, asha.ID, ravi.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.PutDecision(ctx, teams.Actor{UserID: asha.ID, OrganisationID: quiet.ID}, decisions.Decision{Subject: subj,
			Applicability: decisions.Applicable}); err != nil {
			t.Fatal(err)
		}
		today := catalog.Date{Time: storetest.Date("2026-12-01").Time}
		for range 2 {
			if _, err := db.PublishDue(ctx, today); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.PublishDue(ctx, catalog.Date{Time: storetest.Date("2026-12-07").Time}); err != nil {
			t.Fatal(err)
		}
		// The circular withdrawn: the sync reopens the decision.
		withdrawn := storetest.Date("2026-11-30")
		cat.Circulars[0].WithdrawnOn = &withdrawn
		stats, err := db.SyncCatalog(ctx, cat)
		if err != nil {
			t.Fatal(err)
		}
		id := "circular " + circID
		want := []string{
			org.ID + " decision.changed " + id + " new created ×1",
			org.ID + " decision.changed " + id + " assessing updated ×1",
			org.ID + " decision.changed " + id + " assessing reassigned ×1",
			org.ID + " obligation.due " + id + " assessing due-soon ×1",
			org.ID + " obligation.due " + id + " assessing overdue ×1",
		}
		if stats.Reopened != 2 { // this organisation's and the quiet one's
			t.Errorf("reopened %d decisions, want 2", stats.Reopened)
		}
		want = append(want, org.ID+" decision.changed "+id+" assessing reopened ×1")
		evs := readEvents(t, db)
		got := summary(evs)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("published (-want +got):\n%s", diff)
		}
		for _, e := range evs {
			if e.Type != string(webhooks.DecisionChanged) || e.Data["change"] != "reassigned" {
				continue
			}
			dec := e.Data["decision"].(map[string]any)
			if dec["owner"] != "ravi" || !cmp.Equal(e.Data["changed"], []any{"owner"}) ||
				dec["url"] != "https://regpulse.test/circulars/"+cat.Circulars[0].Slug {
				t.Errorf("reassigned: %v", e.Data)
			}
		}
	})
}

// TestWebhookProducers_AlertChannel: an alert's Slack or Teams channel
// is stored with it, replaced and removed with it; a match recorded
// publishes alert.matched to it once.
func TestWebhookProducers_AlertChannel(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t, WithSite("https://regpulse.test/"))
		cat := storetest.Catalog()
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		u := newAlertUser(t, db, "asha")
		a, err := db.CreateAlert(ctx, alerts.Alert{UserID: u.ID, Name: "UPI", Frequency: alerts.Daily, Enabled: true,
			ChannelKind: "slack", ChannelURL: "https://hooks.slack.com/services/T/B/x"})
		if err != nil {
			t.Fatal(err)
		}
		if a.ChannelKind != "slack" || a.ChannelURL != "https://hooks.slack.com/services/T/B/x" {
			t.Fatalf("created with channel %q %q", a.ChannelKind, a.ChannelURL)
		}
		plain, err := db.CreateAlert(ctx, alerts.Alert{UserID: u.ID, Name: "No channel", Frequency: alerts.Daily, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}
		arr := []alerts.Arrival{{Circular: cat.Circulars[0], At: time.Now()}}
		ms := []alerts.Match{{AlertID: a.ID, CircularID: cat.Circulars[0].ID}, {AlertID: plain.ID, CircularID: cat.Circulars[0].ID}}
		for range 2 {
			if err := db.RecordMatches(ctx, arr, ms); err != nil {
				t.Fatal(err)
			}
		}
		evs := readEvents(t, db)
		if diff := cmp.Diff([]string{a.ID + " alert.matched " + cat.Circulars[0].Slug + " ×1"}, summary(evs)); diff != "" {
			t.Errorf("published (-want +got):\n%s", diff)
		}
		if got := evs[0].Data["alert"]; !cmp.Equal(got, map[string]any{"id": a.ID, "name": "UPI"}) {
			t.Errorf("the event's alert %v", got)
		}
		// Changed to Teams: the row replaced; removed: gone.
		a.ChannelKind, a.ChannelURL = "teams", "https://prod.westeurope.logic.azure.com/workflows/x"
		got, err := db.UpdateAlert(ctx, u.ID, a.ID, a)
		if err != nil || got.ChannelKind != "teams" || got.ChannelURL != a.ChannelURL {
			t.Fatalf("updated: %q %q, %v", got.ChannelKind, got.ChannelURL, err)
		}
		a.ChannelKind, a.ChannelURL = "", ""
		if got, err := db.UpdateAlert(ctx, u.ID, a.ID, a); err != nil || got.ChannelKind != "" || got.ChannelURL != "" {
			t.Fatalf("removed: %q %q, %v", got.ChannelKind, got.ChannelURL, err)
		}
		var n int
		if err := db.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_endpoints`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%d endpoints left, %v", n, err)
		}
	})
}

// TestDecisionFieldsChanged: the fields a decision.changed names.
func TestDecisionFieldsChanged(t *testing.T) {
	t.Parallel()
	base := decisions.Decision{Applicability: decisions.Applicable, Status: decisions.StatusNew, OwnerID: "u1"}
	for _, tc := range []struct {
		name   string
		before *decisions.Decision
		after  func(decisions.Decision) decisions.Decision
		want   []string
	}{
		{"created", nil, func(d decisions.Decision) decisions.Decision { return d }, []string{"applicability", "owner", "status"}},
		{"nothing", &base, func(d decisions.Decision) decisions.Decision { return d }, []string{}},
		{"status and due", &base, func(d decisions.Decision) decisions.Decision {
			d.Status, d.DueDate = decisions.StatusDone, dueOn("2026-01-01")
			return d
		}, []string{"dueDate", "status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, decisionFieldsChanged(tc.before, tc.after(base))); diff != "" {
				t.Error(diff)
			}
		})
	}
}
