package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// TestWebhookEndpoints: an admin's endpoints made, read, changed,
// rotated and removed, each change in the organisation's trail without
// a secret; another organisation sees none of them.
func TestWebhookEndpoints(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		admin := mustCreate(t, db, newUser("asha", "asha@example.com"))
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: admin.ID}, "Acme Payments", []string{})
		if err != nil {
			t.Fatal(err)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: admin.ID}, "Other", []string{})
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: admin.ID, OrganisationID: org.ID}

		hook, err := db.CreateWebhookEndpoint(ctx, by, webhooks.Endpoint{Kind: webhooks.KindWebhook, URL: "https://grc.example.com/in?token=t0p",
			Description: "GRC", Events: []webhooks.EventType{webhooks.CircularPublished, webhooks.DecisionChanged}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(hook.Secret, "whsec_") || !hook.Enabled || hook.CreatedBy != admin.ID {
			t.Errorf("created %+v: want a whsec_ secret, enabled, by %s", hook, admin.ID)
		}
		slack, err := db.CreateWebhookEndpoint(ctx, by, webhooks.Endpoint{Kind: webhooks.KindSlack, URL: "https://hooks.slack.com/services/T/B/x",
			Events: []webhooks.EventType{webhooks.AlertMatched}})
		if err != nil {
			t.Fatal(err)
		}
		if slack.Secret != "" {
			t.Errorf("a Slack channel got secret %q", slack.Secret)
		}
		for _, bad := range []webhooks.Endpoint{
			{Kind: "email", URL: "https://x.example.com", Events: []webhooks.EventType{webhooks.AlertMatched}},
			{Kind: webhooks.KindWebhook, URL: "https://x.example.com"},
			{Kind: webhooks.KindWebhook, URL: "https://x.example.com", Events: []webhooks.EventType{webhooks.Test}},
		} {
			if _, err := db.CreateWebhookEndpoint(ctx, by, bad); err == nil {
				t.Errorf("CreateWebhookEndpoint(%+v) took it", bad)
			}
		}

		list, err := db.WebhookEndpoints(ctx, org.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]webhooks.Endpoint{hook, slack}, list); diff != "" {
			t.Errorf("WebhookEndpoints (-want +got):\n%s", diff)
		}
		if got, err := db.WebhookEndpoints(ctx, other.ID); err != nil || len(got) != 0 {
			t.Errorf("the other organisation's endpoints: %v, %v", got, err)
		}
		if _, err := db.WebhookEndpoint(ctx, other.ID, hook.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("another organisation's endpoint: %v, want ErrNotFound", err)
		}

		// The sender turned it off after failures; the admin turns it on.
		if _, err := db.db.ExecContext(ctx, `UPDATE webhook_endpoints SET enabled = ?, disabled_reason = 'failing for 24 hours', failures = 9,
			failing_since = ? WHERE id = ?`, false, timeText(time.Now()), hook.ID); err != nil {
			t.Fatal(err)
		}
		upd := hook
		upd.Enabled, upd.URL, upd.Events = true, "https://grc.example.com/v2", []webhooks.EventType{webhooks.ObligationDue}
		got, err := db.UpdateWebhookEndpoint(ctx, by, upd)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Enabled || got.DisabledReason != "" || got.Failures != 0 || got.FailingSince != nil || got.URL != upd.URL || got.Secret != hook.Secret {
			t.Errorf("re-enabled: %+v", got)
		}
		if _, err := db.UpdateWebhookEndpoint(ctx, teams.Actor{UserID: admin.ID, OrganisationID: other.ID}, upd); !errors.Is(err, ErrNotFound) {
			t.Errorf("updating another organisation's endpoint: %v", err)
		}

		rotated, err := db.RotateWebhookSecret(ctx, by, hook.ID)
		if err != nil || rotated.Secret == hook.Secret || !strings.HasPrefix(rotated.Secret, "whsec_") {
			t.Errorf("RotateWebhookSecret = %q, %v", rotated.Secret, err)
		}
		if stored, _ := db.WebhookEndpoint(ctx, org.ID, hook.ID); stored.Secret != rotated.Secret {
			t.Errorf("stored secret %q, want the rotated one", stored.Secret)
		}
		if _, err := db.RotateWebhookSecret(ctx, by, slack.ID); !errors.Is(err, webhooks.ErrNoSecret) {
			t.Errorf("rotating a Slack channel's secret: %v", err)
		}

		if err := db.DeleteWebhookEndpoint(ctx, by, slack.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.DeleteWebhookEndpoint(ctx, by, slack.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted twice: %v", err)
		}

		var actions []string
		for r, err := range db.AuditRows(ctx, org.ID) {
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(r.Before+r.After, "whsec_") || strings.Contains(r.Before+r.After, "t0p") || strings.Contains(r.Before+r.After, "/services/T/B") {
				t.Errorf("row %s keeps a secret: %s %s", r.Action, r.Before, r.After)
			}
			if strings.HasPrefix(r.Action, "webhook.") {
				actions = append(actions, r.Action)
			}
		}
		want := []string{"webhook.create", "webhook.create", "webhook.update", "webhook.rotate", "webhook.delete"}
		if diff := cmp.Diff(want, actions); diff != "" {
			t.Errorf("audit actions (-want +got):\n%s", diff)
		}
	})
}

// TestWebhookEndpoints_Limit: an organisation has at most
// webhooks.MaxEndpoints.
func TestWebhookEndpoints_Limit(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	ctx := t.Context()
	admin := mustCreate(t, db, newUser("asha", "asha@example.com"))
	org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: admin.ID}, "Acme Payments", []string{})
	if err != nil {
		t.Fatal(err)
	}
	by := teams.Actor{UserID: admin.ID, OrganisationID: org.ID}
	e := webhooks.Endpoint{Kind: webhooks.KindWebhook, URL: "https://grc.example.com/in", Events: []webhooks.EventType{webhooks.AlertMatched}}
	for range webhooks.MaxEndpoints {
		if _, err := db.CreateWebhookEndpoint(ctx, by, e); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.CreateWebhookEndpoint(ctx, by, e); !errors.Is(err, webhooks.ErrTooManyEndpoints) {
		t.Errorf("one more: %v, want ErrTooManyEndpoints", err)
	}
}

// TestWebhookDeliveries: a test event reaches the one endpoint asked;
// the log is newest first with each delivery's attempts; a resend makes
// a delivery pending again with its event (so its webhook-id) and
// attempts kept, but not while it is being sent.
func TestWebhookDeliveries(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		admin := mustCreate(t, db, newUser("asha", "asha@example.com"))
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: admin.ID}, "Acme Payments", []string{})
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: admin.ID, OrganisationID: org.ID}
		mk := func() webhooks.Endpoint {
			e, err := db.CreateWebhookEndpoint(ctx, by, webhooks.Endpoint{Kind: webhooks.KindWebhook, URL: "https://grc.example.com/in",
				Events: []webhooks.EventType{webhooks.CircularPublished}})
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		hook, bystander := mk(), mk()

		var sent []webhooks.Delivery
		for i := range 3 {
			ev, err := webhooks.TestEvent(org.ID, hook.ID, "https://regpulse.test/organisation", time.Date(2026, 12, 2, 10, 0, i, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			d, err := db.SendWebhookTest(ctx, by, hook.ID, ev)
			if err != nil {
				t.Fatal(err)
			}
			if d.EventID != ev.ID || d.Status != webhooks.Pending || d.EventType != webhooks.Test {
				t.Errorf("test delivery %+v", d)
			}
			sent = append(sent, d)
			db.now = func() time.Time { return time.Date(2026, 12, 2, 10, 0, i+1, 0, time.UTC) }
		}
		if _, err := db.SendWebhookTest(ctx, teams.Actor{UserID: admin.ID, OrganisationID: "nope"}, hook.ID, webhooks.Event{ID: "msg_x", Type: webhooks.Test}); !errors.Is(err, ErrNotFound) {
			t.Errorf("a test of another organisation's endpoint: %v", err)
		}
		// The first was tried twice and failed.
		for n, code := range []int{500, 503} {
			if _, err := db.db.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, n, at, duration_ms, status_code, response, error) VALUES (?, ?, ?, 12, ?, 'oops', '')`,
				sent[0].ID, n+1, timeText(time.Date(2026, 12, 2, 10, 5, n, 0, time.UTC)), code); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.db.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'failed', attempts = 2, next_attempt_at = NULL WHERE id = ?`, sent[0].ID); err != nil {
			t.Fatal(err)
		}

		log, total, err := db.WebhookDeliveries(ctx, org.ID, hook.ID, catalog.Page{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if total != 3 || len(log) != 2 || log[0].ID != sent[2].ID || log[1].ID != sent[1].ID {
			t.Fatalf("first page: total %d, %+v", total, log)
		}
		log, _, err = db.WebhookDeliveries(ctx, org.ID, hook.ID, catalog.Page{Limit: 2, Offset: 2})
		if err != nil || len(log) != 1 {
			t.Fatalf("second page: %+v, %v", log, err)
		}
		gotCodes := []int{}
		for _, a := range log[0].History {
			gotCodes = append(gotCodes, a.StatusCode)
		}
		if diff := cmp.Diff([]int{500, 503}, gotCodes); diff != "" || log[0].LastAttempt == nil || log[0].LastAttempt.N != 2 || log[0].Status != webhooks.Failed {
			t.Errorf("the failed delivery: %+v (codes -want +got %s)", log[0], diff)
		}
		if other, total, err := db.WebhookDeliveries(ctx, org.ID, bystander.ID, catalog.Page{}); err != nil || total != 0 || len(other) != 0 {
			t.Errorf("the other endpoint's log: %v %d %v", other, total, err)
		}
		if _, _, err := db.WebhookDeliveries(ctx, "nope", hook.ID, catalog.Page{}); !errors.Is(err, ErrNotFound) {
			t.Errorf("another organisation's log: %v", err)
		}

		again, err := db.ResendWebhookDelivery(ctx, by, hook.ID, sent[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if again.Status != webhooks.Pending || again.EventID != sent[0].EventID || again.Attempts != 2 || again.NextAttemptAt == nil {
			t.Errorf("resent: %+v", again)
		}
		if _, err := db.ResendWebhookDelivery(ctx, by, bystander.ID, sent[0].ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("resending through another endpoint: %v", err)
		}
		if _, err := db.db.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'sending' WHERE id = ?`, sent[1].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ResendWebhookDelivery(ctx, by, hook.ID, sent[1].ID); !errors.Is(err, webhooks.ErrBusy) {
			t.Errorf("resending one being sent: %v", err)
		}

		var actions []string
		for r, err := range db.AuditRows(ctx, org.ID) {
			if err != nil {
				t.Fatal(err)
			}
			if r.Action == "webhook.test" || r.Action == "delivery.resend" {
				actions = append(actions, r.Action)
			}
		}
		if diff := cmp.Diff([]string{"webhook.test", "webhook.test", "webhook.test", "delivery.resend"}, actions); diff != "" {
			t.Errorf("audit actions (-want +got):\n%s", diff)
		}
	})
}
