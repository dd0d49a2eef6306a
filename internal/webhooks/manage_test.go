package webhooks

import (
	"strings"
	"testing"
	"time"
)

func TestCheckEndpointURL(t *testing.T) {
	t.Parallel()
	prod, dev := AddressPolicy{}, AddressPolicy{AllowLoopback: true}
	for _, tc := range []struct {
		name   string
		policy AddressPolicy
		kind   Kind
		url    string
		want   string // part of the error; "" when allowed
	}{
		{"Webhook", prod, KindWebhook, "https://grc.example.com/in?token=x", ""},
		{"HTTP", prod, KindWebhook, "http://grc.example.com/in", "https://"},
		{"PrivateIP", prod, KindWebhook, "https://10.1.2.3/in", "private"},
		{"Loopback", prod, KindWebhook, "https://127.0.0.1/in", "loopback"},
		{"LoopbackAllowed", dev, KindWebhook, "http://127.0.0.1:8431/in", ""},
		{"PrivateStillRefused", dev, KindWebhook, "https://192.168.0.1/in", "private"},
		{"Slack", prod, KindSlack, "https://hooks.slack.com/services/T0/B0/x", ""},
		{"SlackOtherPath", prod, KindSlack, "https://hooks.slack.com/workflows/x", "hooks.slack.com/services/"},
		{"SlackOtherHost", prod, KindSlack, "https://hooks.slack.com.evil.example/services/x", "hooks.slack.com/services/"},
		{"SlackStandIn", dev, KindSlack, "http://localhost:8432/slack", ""},
		{"SlackStandInInProduction", prod, KindSlack, "http://localhost:8432/slack", "https://"},
		{"TeamsLogicApps", prod, KindTeams, "https://prod-01.westeurope.logic.azure.com:443/workflows/x/triggers/manual/paths/invoke", ""},
		{"TeamsPowerPlatform", prod, KindTeams, "https://default0a.b1.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/x", ""},
		{"TeamsConnector", prod, KindTeams, "https://acme.webhook.office.com/webhookb2/x", "retired"},
		{"TeamsLookalike", prod, KindTeams, "https://logic.azure.com.evil.example/x", "logic.azure.com"},
		{"TeamsStandIn", dev, KindTeams, "http://127.0.0.1:8433/teams", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.policy.CheckEndpointURL(tc.kind, tc.url)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("CheckEndpointURL(%s, %s) = %v, want nil", tc.kind, tc.url, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("CheckEndpointURL(%s, %s) = %v, want an error saying %q", tc.kind, tc.url, err, tc.want)
			}
		})
	}
}

func TestCheckEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		events []EventType
		ok     bool
	}{
		{"One", []EventType{AlertMatched}, true},
		{"All", EventTypes, true},
		{"None", nil, false},
		{"Test", []EventType{Test}, false},
		{"Unknown", []EventType{"circular.deleted"}, false},
		{"Twice", []EventType{AlertMatched, AlertMatched}, false},
	} {
		if err := CheckEvents(tc.events); (err == nil) != tc.ok {
			t.Errorf("%s: CheckEvents(%v) = %v", tc.name, tc.events, err)
		}
	}
	if CheckKind("email") == nil || CheckKind(KindTeams) != nil {
		t.Error("CheckKind takes only Kinds")
	}
}

// TestTestEvent: two tests of one endpoint at one instant are two events.
func TestTestEvent(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	a, err := TestEvent("org", "endpoint", "https://regpulse.test/organisation", now)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := TestEvent("org", "endpoint", "https://regpulse.test/organisation", now)
	if a.ID == b.ID || a.Type != Test || !strings.HasPrefix(a.ID, "msg_") || a.Card.Title == "" {
		t.Errorf("TestEvent: %+v and %+v", a, b)
	}
}
