package api

import (
	"log/slog"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/webhooks"
)

// TestAlerts_Channel: an alert's Slack or Teams channel, set, changed
// and removed with the alert; a URL that is not the service's webhook,
// not https, or a loopback address (unless allowed) is a 400 naming the
// field.
func TestAlerts_Channel(t *testing.T) {
	for _, loopback := range []bool{false, true} {
		f := newAuthFixture(t, AuthConfig{})
		tokens, err := alerts.NewTokens([]byte("alerts-test-secret-0123456789abcdef"))
		if err != nil {
			t.Fatal(err)
		}
		authTokens, err := auth.NewTokens(testSecret, time.Hour, f.clock)
		if err != nil {
			t.Fatal(err)
		}
		f.api = New(f.db, slog.New(slog.NewTextHandler(f.logs, nil)), WithNow(f.clock),
			WithAuth(AuthConfig{Tokens: authTokens, Hasher: cheapHash, LoginLimit: 1000, SignupLimit: 1000}),
			WithAlerts(AlertsConfig{Tokens: tokens, SubscribeLimit: 1000, Channels: webhooks.AddressPolicy{AllowLoopback: loopback}}))
		asha := bearer(f.signup(t, "asha"))
		const slack = "https://hooks.slack.com/services/T0/B0/secret"
		const teams = "https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x"
		res := f.call(t, "POST", "/alerts", `{"name":"UPI","frequency":"daily","channelKind":"slack","channelUrl":" `+slack+` "}`, asha...)
		if res.status != 201 {
			t.Fatalf("create: %d %s", res.status, res.body)
		}
		a := alertOf(t, res)
		if a.ChannelKind != "slack" || a.ChannelURL != slack {
			t.Errorf("created: channel %q %q", a.ChannelKind, a.ChannelURL)
		}
		if got := alertsOf(t, f.call(t, "GET", "/alerts", "", asha...)); got[1].ChannelURL != slack {
			t.Errorf("listed: %+v", got[1])
		}
		got := alertOf(t, f.call(t, "PUT", "/alerts/"+a.ID, `{"name":"UPI","frequency":"daily","channelKind":"teams","channelUrl":"`+teams+`"}`, asha...))
		if got.ChannelKind != "teams" || got.ChannelURL != teams {
			t.Errorf("changed: channel %q %q", got.ChannelKind, got.ChannelURL)
		}
		got = alertOf(t, f.call(t, "PUT", "/alerts/"+a.ID, `{"name":"UPI","frequency":"daily"}`, asha...))
		if got.ChannelKind != "" || got.ChannelURL != "" {
			t.Errorf("removed: channel %q %q", got.ChannelKind, got.ChannelURL)
		}
		for _, tc := range []struct {
			name, body string
			fields     map[string]string
		}{
			{"ErrKind", `{"name":"x","frequency":"daily","channelKind":"email","channelUrl":"` + slack + `"}`,
				map[string]string{"channelKind": "use slack or teams (or leave channelKind and channelUrl out for no channel)"}},
			{"ErrNoURL", `{"name":"x","frequency":"daily","channelKind":"slack"}`, map[string]string{"channelUrl": "give the channel's incoming webhook URL"}},
			{"ErrNoKind", `{"name":"x","frequency":"daily","channelUrl":"` + slack + `"}`,
				map[string]string{"channelKind": "use slack or teams (or leave channelKind and channelUrl out for no channel)"}},
			{"ErrNotSlack", `{"name":"x","frequency":"daily","channelKind":"slack","channelUrl":"https://example.com/hook"}`,
				map[string]string{"channelUrl": "a Slack incoming webhook URL starts https://hooks.slack.com/services/"}},
			{"ErrSlackForTeams", `{"name":"x","frequency":"daily","channelKind":"teams","channelUrl":"` + slack + `"}`,
				map[string]string{"channelUrl": "a Teams Workflows webhook URL is https on a host ending .logic.azure.com or .powerplatform.com"}},
			{"ErrHTTP", `{"name":"x","frequency":"daily","channelKind":"slack","channelUrl":"http://hooks.slack.com/services/x"}`,
				map[string]string{"channelUrl": "use an https:// URL"}},
			{"ErrControl", `{"name":"x","frequency":"daily","channelKind":"slack","channelUrl":"https://hooks.slack.com/\u0007"}`,
				map[string]string{"channelUrl": "URL must not contain control characters"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantError(t, f.call(t, "POST", "/alerts", tc.body, asha...), 400, tc.fields)
			})
		}
		res = f.call(t, "POST", "/alerts", `{"name":"x","frequency":"daily","channelKind":"slack","channelUrl":"http://127.0.0.1:8440/slack"}`, asha...)
		if loopback && res.status != 201 || !loopback && res.status != 400 {
			t.Errorf("a loopback channel, loopback allowed %v: %d %s", loopback, res.status, res.body)
		}
	}
}
