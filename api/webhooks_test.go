package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// webhooksFixture is the teams' fixture whose API allows loopback
// endpoints when loopback is true (serve's --webhooks-allow-loopback).
func webhooksFixture(t *testing.T, loopback bool) (*teamsFixture, person, string) {
	t.Helper()
	f := newTeamsFixture(t)
	tokens, err := auth.NewTokens(testSecret, 60*24*time.Hour, f.clock)
	if err != nil {
		t.Fatal(err)
	}
	f.api = New(f.db, slog.New(slog.NewTextHandler(f.logs, nil)), WithNow(f.clock),
		WithAuth(AuthConfig{Tokens: tokens, Hasher: cheapHash, LoginLimit: 1000, SignupLimit: 1000}),
		WithWebhookPolicy(webhooks.AddressPolicy{AllowLoopback: loopback}))
	asha := f.person(t, "asha")
	org := f.createOrg(t, asha, "Asha Payments")
	return f, asha, "/organisations/" + org.ID + "/webhooks"
}

// TestWebhooks_Manage: an admin adds an endpoint (its secret shown once),
// lists, changes, turns off and on, rotates, tests, reads the log,
// resends and removes it; each change in the audit trail, no secret in
// it.
func TestWebhooks_Manage(t *testing.T) {
	f, asha, base := webhooksFixture(t, false)
	res := f.call(t, "POST", base, `{"kind":"webhook","url":"https://grc.example.com/in?token=t0p","description":" GRC ","events":["circular.published","decision.changed"]}`, asha.auth...)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	made := jsonOf[WebhookWithSecret](t, res)
	if !strings.HasPrefix(made.Secret, "whsec_") || made.Description != "GRC" || !made.Enabled {
		t.Errorf("created %+v", made)
	}
	hook := base + "/" + made.ID

	list := jsonOf[[]map[string]any](t, f.call(t, "GET", base, "", asha.auth...))
	if len(list) != 1 || list[0]["id"] != made.ID {
		t.Fatalf("list: %v", list)
	}
	if _, ok := list[0]["secret"]; ok {
		t.Errorf("the list shows a secret: %v", list[0])
	}
	if res := f.call(t, "GET", hook, "", asha.auth...); res.status != 200 || strings.Contains(string(res.body), made.Secret) {
		t.Errorf("get: %d %s", res.status, res.body)
	}

	res = f.call(t, "PATCH", hook, `{"enabled":false,"events":["obligation.due"]}`, asha.auth...)
	got := jsonOf[webhooks.Endpoint](t, res)
	if res.status != 200 || got.Enabled || got.URL != made.URL || !cmp.Equal(got.Events, []webhooks.EventType{webhooks.ObligationDue}) {
		t.Errorf("turned off: %d %+v", res.status, got)
	}
	if got := jsonOf[webhooks.Endpoint](t, f.call(t, "PATCH", hook, `{"enabled":true}`, asha.auth...)); !got.Enabled {
		t.Errorf("turned on: %+v", got)
	}

	rotated := jsonOf[WebhookWithSecret](t, f.call(t, "POST", hook+"/rotate-secret", "", asha.auth...))
	if rotated.Secret == made.Secret || !strings.HasPrefix(rotated.Secret, "whsec_") {
		t.Errorf("rotated secret %q", rotated.Secret)
	}

	res = f.call(t, "POST", hook+"/test", "", asha.auth...)
	if res.status != 202 {
		t.Fatalf("test: %d %s", res.status, res.body)
	}
	sent := jsonOf[webhooks.Delivery](t, res)
	if sent.Status != webhooks.Pending || sent.EventType != webhooks.Test || !strings.HasPrefix(sent.EventID, "msg_") {
		t.Errorf("test delivery %+v", sent)
	}
	res = f.call(t, "GET", hook+"/deliveries?limit=10", "", asha.auth...)
	log := jsonOf[[]webhooks.LogEntry](t, res)
	if res.status != 200 || res.header.Get("X-Total-Count") != "1" || len(log) != 1 || log[0].ID != sent.ID || log[0].History == nil {
		t.Fatalf("log: %d %s", res.status, res.body)
	}
	res = f.call(t, "POST", hook+"/deliveries/"+sent.ID+"/resend", "", asha.auth...)
	if again := jsonOf[webhooks.Delivery](t, res); res.status != 202 || again.EventID != sent.EventID {
		t.Errorf("resend: %d %s", res.status, res.body)
	}
	if res := f.call(t, "POST", hook+"/deliveries/no-such/resend", "", asha.auth...); res.status != 404 {
		t.Errorf("resending no delivery: %d %s", res.status, res.body)
	}

	slack := jsonOf[WebhookWithSecret](t, f.call(t, "POST", base, `{"kind":"slack","url":"https://hooks.slack.com/services/T0/B0/xyz","description":"","events":["alert.matched"]}`, asha.auth...))
	if slack.Secret != "" {
		t.Errorf("a Slack channel's secret %q", slack.Secret)
	}
	if res := f.call(t, "POST", base+"/"+slack.ID+"/rotate-secret", "", asha.auth...); res.status != 409 {
		t.Errorf("rotating a Slack channel: %d %s", res.status, res.body)
	}

	if res := f.call(t, "DELETE", hook, "", asha.auth...); res.status != 204 {
		t.Errorf("delete: %d %s", res.status, res.body)
	}
	for _, c := range []struct{ method, target string }{{"GET", hook}, {"PATCH", hook}, {"DELETE", hook}, {"POST", hook + "/test"}, {"GET", hook + "/deliveries"}} {
		body := ""
		if c.method == "PATCH" {
			body = `{"enabled":true}`
		}
		if res := f.call(t, c.method, c.target, body, asha.auth...); res.status != 404 {
			t.Errorf("%s %s once removed: %d %s", c.method, c.target, res.status, res.body)
		}
	}

	orgID := strings.Split(base, "/")[2]
	var actions []string
	for r, err := range f.db.AuditRows(t.Context(), orgID) {
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{made.Secret, rotated.Secret, "t0p", "B0/xyz"} {
			if strings.Contains(r.Before+r.After, secret) {
				t.Errorf("%s keeps %q: %s %s", r.Action, secret, r.Before, r.After)
			}
		}
		if strings.HasPrefix(r.Action, "webhook.") || strings.HasPrefix(r.Action, "delivery.") {
			actions = append(actions, r.Action)
		}
	}
	want := []string{"webhook.create", "webhook.update", "webhook.update", "webhook.rotate", "webhook.test", "delivery.resend", "webhook.create", "webhook.delete"}
	if diff := cmp.Diff(want, actions); diff != "" {
		t.Errorf("audit actions (-want +got):\n%s", diff)
	}
}

// TestWebhooks_Validation: every mistake is a 400 naming its field, an
// address inside a network among them (server-side request forgery),
// and http or loopback only where the server allows loopback.
func TestWebhooks_Validation(t *testing.T) {
	prod, asha, base := webhooksFixture(t, false)
	dev, ravi, devBase := webhooksFixture(t, true)
	long := strings.Repeat("x", 201)
	for _, tc := range []struct {
		name     string
		loopback bool
		body     string
		fields   map[string]string // field → part of its message; nil: accepted
	}{
		{"Nothing", false, `{"kind":"","url":"","description":"","events":[]}`,
			map[string]string{"kind": "webhook, slack or teams", "url": "required", "events": "at least one"}},
		{"UnknownEvent", false, `{"kind":"webhook","url":"https://grc.example.com","description":"","events":["webhook.test"]}`,
			map[string]string{"events": "not an event"}},
		{"Twice", false, `{"kind":"webhook","url":"https://grc.example.com","description":"","events":["alert.matched","alert.matched"]}`,
			map[string]string{"events": "twice"}},
		{"LongDescription", false, `{"kind":"webhook","url":"https://grc.example.com","description":"` + long + `","events":["alert.matched"]}`,
			map[string]string{"description": "too long"}},
		{"HTTPInProduction", false, `{"kind":"webhook","url":"http://grc.example.com/in","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "https://"}},
		{"PrivateIP", false, `{"kind":"webhook","url":"https://10.0.0.7/in","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "private"}},
		{"Metadata", false, `{"kind":"webhook","url":"https://169.254.169.254/latest","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "link-local"}},
		{"LoopbackInProduction", false, `{"kind":"webhook","url":"https://127.0.0.1:8443/in","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "loopback"}},
		{"Localhost", false, `{"kind":"webhook","url":"https://localhost/in","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "loopback"}},
		{"Credentials", false, `{"kind":"webhook","url":"https://u:p@grc.example.com/in","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "user name"}},
		{"SlackElsewhere", false, `{"kind":"slack","url":"https://grc.example.com/services/x","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "hooks.slack.com"}},
		{"TeamsConnector", false, `{"kind":"teams","url":"https://acme.webhook.office.com/webhookb2/x","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "retired"}},
		{"TeamsElsewhere", false, `{"kind":"teams","url":"https://grc.example.com/x","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "logic.azure.com"}},
		{"TeamsWorkflows", false, `{"kind":"teams","url":"https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x","description":"","events":["alert.matched"]}`, nil},
		{"TeamsPowerPlatform", false, `{"kind":"teams","url":"https://default1.ab.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/x","description":"","events":["alert.matched"]}`, nil},
		{"PrivateIPWithLoopbackAllowed", true, `{"kind":"webhook","url":"http://192.168.1.4/in","description":"","events":["alert.matched"]}`,
			map[string]string{"url": "https://"}},
		{"HTTPLoopbackAllowed", true, `{"kind":"webhook","url":"http://127.0.0.1:8431/in","description":"","events":["alert.matched"]}`, nil},
		{"SlackStandInAllowed", true, `{"kind":"slack","url":"http://localhost:8432/slack","description":"","events":["alert.matched"]}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, p, target := prod, asha, base
			if tc.loopback {
				f, p, target = dev, ravi, devBase
			}
			res := f.call(t, "POST", target, tc.body, p.auth...)
			if tc.fields == nil {
				if res.status != 201 {
					t.Fatalf("%d %s, want 201", res.status, res.body)
				}
				return
			}
			e := jsonOf[Error](t, res)
			if res.status != 400 || len(e.Fields) != len(tc.fields) {
				t.Fatalf("%d %s, want 400 naming %v", res.status, res.body, tc.fields)
			}
			for field, part := range tc.fields {
				if !strings.Contains(e.Fields[field], part) {
					t.Errorf("fields[%s] = %q, want it to say %q", field, e.Fields[field], part)
				}
			}
		})
	}

	// A change is checked as a creation is.
	made := jsonOf[WebhookWithSecret](t, prod.call(t, "POST", base, `{"kind":"webhook","url":"https://grc.example.com","description":"","events":["alert.matched"]}`, asha.auth...))
	res := prod.call(t, "PATCH", base+"/"+made.ID, `{"url":"https://[::1]/in","events":[]}`, asha.auth...)
	if e := jsonOf[Error](t, res); res.status != 400 || e.Fields["url"] == "" || e.Fields["events"] == "" {
		t.Errorf("a bad change: %d %s", res.status, res.body)
	}
	if res := prod.call(t, "PATCH", base+"/"+made.ID, `{"kind":"slack"}`, asha.auth...); res.status != 400 {
		t.Errorf("changing the kind: %d %s", res.status, res.body)
	}
}

// TestWebhooks_Limit: an organisation's 21st endpoint is refused.
func TestWebhooks_Limit(t *testing.T) {
	f, asha, base := webhooksFixture(t, false)
	body := `{"kind":"webhook","url":"https://grc.example.com","description":"","events":["alert.matched"]}`
	for range webhooks.MaxEndpoints {
		if res := f.call(t, "POST", base, body, asha.auth...); res.status != http.StatusCreated {
			t.Fatalf("%d %s", res.status, res.body)
		}
	}
	if res := f.call(t, "POST", base, body, asha.auth...); res.status != http.StatusConflict {
		t.Errorf("one more: %d %s, want 409", res.status, res.body)
	}
}

// busyStore is a store whose deliveries are all being sent.
type busyStore struct{ Store }

func (busyStore) ResendWebhookDelivery(context.Context, teams.Actor, string, string) (webhooks.Delivery, error) {
	return webhooks.Delivery{}, webhooks.ErrBusy
}

// TestWebhooks_Refusals: unknown parameters, bodies too large or not
// JSON, and a resend while the delivery is being sent, each with its
// declared status.
func TestWebhooks_Refusals(t *testing.T) {
	f, asha, base := webhooksFixture(t, false)
	made := jsonOf[WebhookWithSecret](t, f.call(t, "POST", base, `{"kind":"webhook","url":"https://grc.example.com","description":"","events":["alert.matched"]}`, asha.auth...))
	hook := base + "/" + made.ID
	d := jsonOf[webhooks.Delivery](t, f.call(t, "POST", hook+"/test", "", asha.auth...))
	resend := hook + "/deliveries/" + d.ID + "/resend"
	for _, c := range []struct{ method, target string }{
		{"GET", base}, {"GET", hook}, {"DELETE", hook}, {"GET", hook + "/deliveries"},
		{"POST", hook + "/rotate-secret"}, {"POST", hook + "/test"}, {"POST", resend},
	} {
		wantError(t, f.call(t, c.method, c.target+"?x=1", "", asha.auth...), 400, nil)
	}
	big := `{"description":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	for _, target := range []string{hook + "/rotate-secret", hook + "/test", resend} {
		wantError(t, f.call(t, "POST", target, big, asha.auth...), 413, nil)
	}
	for _, c := range []struct{ method, target string }{{"POST", base}, {"PATCH", hook}} {
		wantError(t, f.call(t, c.method, c.target, big, asha.auth...), 413, nil)
		wantError(t, f.call(t, c.method, c.target, "{}", append([]string{"Content-Type", "text/plain"}, asha.auth...)...), 415, nil)
	}
	tokens, err := auth.NewTokens(testSecret, 60*24*time.Hour, f.clock)
	if err != nil {
		t.Fatal(err)
	}
	f.api = New(busyStore{f.db}, slog.New(slog.NewTextHandler(f.logs, nil)), WithNow(f.clock),
		WithAuth(AuthConfig{Tokens: tokens, Hasher: cheapHash, LoginLimit: 1000, SignupLimit: 1000}))
	wantError(t, f.call(t, "POST", resend, "", asha.auth...), 409, nil)
}
