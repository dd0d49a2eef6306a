package api

import (
	"encoding/json"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// newAlertsFixture is the API over a real store with known alert tokens.
func newAlertsFixture(t testing.TB) (*authFixture, *alerts.Tokens) {
	t.Helper()
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
		WithAlerts(AlertsConfig{Tokens: tokens, SubscribeLimit: 1000}))
	return f, tokens
}

func alertsOf(t *testing.T, res response) []alerts.Alert {
	t.Helper()
	var out []alerts.Alert
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatalf("%d %s: %v", res.status, res.body, err)
	}
	return out
}

func alertOf(t *testing.T, res response) alerts.Alert {
	t.Helper()
	var out alerts.Alert
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatalf("%d %s: %v", res.status, res.body, err)
	}
	return out
}

func TestAlerts_Calls(t *testing.T) {
	f, _ := newAlertsFixture(t)
	asha, ravi := bearer(f.signup(t, "asha")), bearer(f.signup(t, "ravi"))
	list := alertsOf(t, f.call(t, "GET", "/alerts", "", asha...))
	if len(list) != 1 || list[0].Kind != alerts.KindPreferences || !list[0].Enabled {
		t.Fatalf("a new user's alerts: %+v", list)
	}
	cases := []struct {
		name       string
		body       string
		wantCode   int
		wantFields map[string]string
	}{
		{"Create", `{"name":" UPI fraud ","query":"upi fraud","sources":["RBI"],"documentTypes":["circular"],"frequency":"immediately"}`, 201, nil},
		{"ErrNameRequired", `{"name":" ","frequency":"daily"}`, 400, map[string]string{"name": "Name is required"}},
		{"ErrUnknownSource", `{"name":"x","sources":["FED"],"frequency":"daily"}`, 400,
			map[string]string{"sources": `unknown value "FED"; use any of: RBI, NPCI, SEBI, IRDAI, PFRDA, PRB, IDRBT`}},
		{"ErrUnknownLevel", `{"name":"x","impactLevels":["urgent"],"frequency":"daily"}`, 400,
			map[string]string{"impactLevels": `unknown value "urgent"; use any of: high, medium, low`}},
		{"ErrUnknownType", `{"name":"x","documentTypes":["memo"],"frequency":"daily"}`, 400,
			map[string]string{"documentTypes": `unknown value "memo"; use any of: ` + strings.Join(catalog.DocumentTypes, ", ")}},
		{"ErrFrequency", `{"name":"x","frequency":"hourly"}`, 400, map[string]string{"frequency": "use one of: immediately, daily, weekly"}},
		{"ErrQueryTooLong", `{"name":"x","frequency":"daily","query":"` + strings.Repeat("a", 401) + `"}`, 400, map[string]string{"query": "Search too long"}},
		{"ErrUnknownField", `{"name":"x","frequency":"daily","owner":"ravi"}`, 400, map[string]string{"owner": "unknown field"}},
	}
	var created alerts.Alert
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.call(t, "POST", "/alerts", tc.body, asha...)
			if tc.wantCode != 201 {
				wantError(t, res, tc.wantCode, tc.wantFields)
				return
			}
			if res.status != 201 {
				t.Fatalf("%d %s", res.status, res.body)
			}
			created = alertOf(t, res)
			want := alerts.Alert{ID: created.ID, Kind: alerts.KindSearch, Name: "UPI fraud", Query: "upi fraud",
				Filters:     alerts.Filters{Sources: []string{"RBI"}, Categories: []string{}, DocumentTypes: []string{"circular"}, ImpactLevels: []string{}},
				EntityTypes: []string{},
				Frequency:   alerts.Immediately, Enabled: true, FeedToken: created.FeedToken, CreatedAt: storetest.Now,
				Description: `An e-mail as soon as a new circular matching "upi fraud" from RBI of type Circular arrives.`}
			if diff := cmp.Diff(want, created); diff != "" {
				t.Errorf("created (-want +got):\n%s", diff)
			}
		})
	}
	if n := len(alertsOf(t, f.call(t, "GET", "/alerts", "", asha...))); n != 2 {
		t.Errorf("after the bad requests: %d alerts, want 2 (nothing changed)", n)
	}
	t.Run("ErrUnauthorized", func(t *testing.T) {
		wantError(t, f.call(t, "GET", "/alerts", ""), 401, nil)
		wantError(t, f.call(t, "POST", "/alerts", `{"name":"x","frequency":"daily"}`), 401, nil)
	})
	t.Run("ErrSomeoneElses", func(t *testing.T) {
		wantError(t, f.call(t, "PUT", "/alerts/"+created.ID, `{"name":"mine","frequency":"daily"}`, ravi...), 404, nil)
		wantError(t, f.call(t, "DELETE", "/alerts/"+created.ID, "", ravi...), 404, nil)
		wantError(t, f.call(t, "POST", "/alerts/"+created.ID+"/feed-token", "", ravi...), 404, nil)
		if got := alertsOf(t, f.call(t, "GET", "/alerts", "", asha...)); got[1].Name != "UPI fraud" {
			t.Errorf("another user changed the alert: %+v", got[1])
		}
	})
	t.Run("PauseAndEdit", func(t *testing.T) {
		res := f.call(t, "PUT", "/alerts/"+created.ID, `{"name":"UPI","query":"upi","frequency":"weekly","enabled":false}`, asha...)
		got := alertOf(t, res)
		if res.status != 200 || got.Enabled || got.Frequency != alerts.Weekly || got.Name != "UPI" || len(got.Sources) != 0 {
			t.Errorf("%d %+v", res.status, got)
		}
	})
	t.Run("Feed", func(t *testing.T) {
		res := f.call(t, "GET", "/alerts/feed?token="+url.QueryEscape(created.FeedToken), "")
		if res.status != 200 || !strings.Contains(string(res.body), "<title>RegPulse alert: UPI</title>") || res.header.Get("Content-Type") != "application/atom+xml; charset=utf-8" {
			t.Errorf("feed: %d %s", res.status, res.body)
		}
		renewed := alertOf(t, f.call(t, "POST", "/alerts/"+created.ID+"/feed-token", "", asha...))
		wantError(t, f.call(t, "GET", "/alerts/feed?token="+url.QueryEscape(created.FeedToken), ""), 404, nil)
		if res := f.call(t, "GET", "/alerts/feed?token="+url.QueryEscape(renewed.FeedToken), ""); res.status != 200 {
			t.Errorf("the renewed feed: %d", res.status)
		}
	})
	t.Run("ErrDeletePreferences", func(t *testing.T) {
		wantError(t, f.call(t, "DELETE", "/alerts/"+list[0].ID, "", asha...), 409, nil)
	})
	t.Run("Delete", func(t *testing.T) {
		if res := f.call(t, "DELETE", "/alerts/"+created.ID, "", asha...); res.status != 204 {
			t.Fatalf("%d %s", res.status, res.body)
		}
		wantError(t, f.call(t, "DELETE", "/alerts/"+created.ID, "", asha...), 404, nil)
	})
}

func TestAlerts_Anonymous(t *testing.T) {
	f, tokens := newAlertsFixture(t)
	wantError(t, f.call(t, "POST", "/alerts/subscribe", `{"email":"nope","frequency":"daily"}`), 400,
		map[string]string{"email": "Please enter a valid email address"})
	wantError(t, f.call(t, "POST", "/alerts/subscribe", `{"email":"a@example.com","categories":["Crypto"],"frequency":"daily"}`), 400,
		map[string]string{"categories": `unknown value "Crypto"; use any of: ` + strings.Join(catalog.CircularCategories, ", ")})
	res := f.call(t, "POST", "/alerts/subscribe", `{"email":"Reader@Example.com","query":"UPI Lite","frequency":"daily"}`)
	if res.status != 202 || !strings.Contains(string(res.body), "confirmation link to Reader@Example.com") {
		t.Fatalf("%d %s", res.status, res.body)
	}
	subs, err := f.db.Unconfirmed(t.Context())
	if err != nil || len(subs) != 1 || subs[0].Name != "UPI Lite" || subs[0].Language != "en" {
		t.Fatalf("stored: %+v, %v", subs, err)
	}
	id := subs[0].ID
	// Made on a Hindi page: its e-mails, the confirmation first, in Hindi.
	if res := f.call(t, "POST", "/alerts/subscribe", `{"email":"pathak@example.com","query":"UPI","frequency":"daily"}`,
		"Accept-Language", "hi-IN,hi;q=0.9"); res.status != 202 {
		t.Fatalf("%d %s", res.status, res.body)
	}
	subs, err = f.db.Unconfirmed(t.Context())
	if err != nil || len(subs) != 2 {
		t.Fatalf("stored: %+v, %v", subs, err)
	}
	for _, a := range subs {
		if want := map[string]string{"pathak@example.com": "hi", "Reader@Example.com": "en"}[a.Email]; a.Language != want {
			t.Errorf("%s: language %q, want %q", a.Email, a.Language, want)
		}
	}
	confirm := tokens.Confirm(id, f.clock())
	t.Run("ConfirmPage", func(t *testing.T) {
		res := f.call(t, "GET", "/alerts/confirm?token="+url.QueryEscape(confirm), "")
		if res.status != 200 || !strings.Contains(string(res.body), "Confirm alert") {
			t.Errorf("%d %s", res.status, res.body)
		}
		if a, _ := f.db.Alert(t.Context(), id); a.Confirmed {
			t.Error("the GET confirmed")
		}
	})
	t.Run("ErrForgedToken", func(t *testing.T) {
		forged := id + "~9999999999." + "AAAA"
		for _, tok := range []string{forged, tokens.Unsubscribe(id), "x"} {
			if res := f.call(t, "POST", "/alerts/confirm?token="+url.QueryEscape(tok), ""); res.status != 400 {
				t.Errorf("%q: %d", tok, res.status)
			}
		}
		if a, _ := f.db.Alert(t.Context(), id); a.Confirmed {
			t.Error("a forged token confirmed")
		}
	})
	t.Run("ErrExpiredToken", func(t *testing.T) {
		old := tokens.Confirm(id, f.clock().Add(-alerts.ConfirmFor-time.Minute))
		res := f.call(t, "POST", "/alerts/confirm?token="+url.QueryEscape(old), "")
		if res.status != 400 || !strings.Contains(string(res.body), "expired") {
			t.Errorf("%d %s", res.status, res.body)
		}
	})
	t.Run("Confirm", func(t *testing.T) {
		res := f.call(t, "POST", "/alerts/confirm?token="+url.QueryEscape(confirm), "")
		if res.status != 200 || !strings.Contains(string(res.body), "Alert confirmed") {
			t.Errorf("%d %s", res.status, res.body)
		}
		if a, _ := f.db.Alert(t.Context(), id); !a.Confirmed {
			t.Error("not confirmed")
		}
	})
	t.Run("Unsubscribe", func(t *testing.T) {
		tok := url.QueryEscape(tokens.Unsubscribe(id))
		if res := f.call(t, "GET", "/alerts/unsubscribe?token="+tok, ""); res.status != 200 || !strings.Contains(string(res.body), "Unsubscribe") {
			t.Errorf("page: %d", res.status)
		}
		if a, _ := f.db.Alert(t.Context(), id); !a.Enabled {
			t.Error("the GET unsubscribed")
		}
		wantError(t, f.call(t, "POST", "/alerts/unsubscribe?token="+url.QueryEscape(confirm), "List-Unsubscribe=One-Click",
			"Content-Type", "application/x-www-form-urlencoded"), 400, map[string]string{"token": "not valid"})
		for range 2 { // idempotent
			res := f.call(t, "POST", "/alerts/unsubscribe?token="+tok, "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded")
			if res.status != 200 || !strings.Contains(string(res.body), `"unsubscribed"`) {
				t.Errorf("one-click: %d %s", res.status, res.body)
			}
		}
		if res := f.call(t, "POST", "/alerts/unsubscribe?token="+tok, "", "Content-Type", "application/x-www-form-urlencoded"); res.status != 200 ||
			!strings.Contains(string(res.body), "This alert sends no more e-mails") {
			t.Errorf("the page's button: %d %s", res.status, res.body)
		}
		if a, _ := f.db.Alert(t.Context(), id); a.Enabled {
			t.Error("still on")
		}
	})
}

// TestAlerts_Statuses: the answers every call documents besides those above.
func TestAlerts_Statuses(t *testing.T) {
	f, tokens := newAlertsFixture(t)
	asha := bearer(f.signup(t, "asha"))
	a := alertOf(t, f.call(t, "POST", "/alerts", `{"name":"UPI","frequency":"daily"}`, asha...))
	big := `{"name":"` + strings.Repeat("a", maxBodyBytes) + `"}`
	form := []string{"Content-Type", "text/plain"}
	cases := []struct {
		name, method, target, body string
		headers                    []string
		want                       int
	}{
		{"ListUnknownParam", "GET", "/alerts?all=1", "", asha, 400},
		{"UpdateBad", "PUT", "/alerts/" + a.ID, `{"name":"","frequency":"daily"}`, asha, 400},
		{"UpdateSignedOut", "PUT", "/alerts/" + a.ID, `{"name":"x","frequency":"daily"}`, nil, 401},
		{"DeleteSignedOut", "DELETE", "/alerts/" + a.ID, "", nil, 401},
		{"RenewSignedOut", "POST", "/alerts/" + a.ID + "/feed-token", "", nil, 401},
		{"RenewWithABody", "POST", "/alerts/" + a.ID + "/feed-token", big, asha, 413},
		{"ConfirmWithABody", "POST", "/alerts/confirm?token=" + url.QueryEscape(tokens.Confirm(a.ID, f.clock())), big, nil, 413},
		{"CreateTooLarge", "POST", "/alerts", big, asha, 413},
		{"UpdateTooLarge", "PUT", "/alerts/" + a.ID, big, asha, 413},
		{"SubscribeTooLarge", "POST", "/alerts/subscribe", big, nil, 413},
		{"CreateNotJSON", "POST", "/alerts", `{}`, append(slices.Clone(asha), form...), 415},
		{"UpdateNotJSON", "PUT", "/alerts/" + a.ID, `{}`, append(slices.Clone(asha), form...), 415},
		{"SubscribeNotJSON", "POST", "/alerts/subscribe", `{}`, form, 415},
		{"FeedUnknownParam", "GET", "/alerts/feed?token=abc&format=rss", "", nil, 400},
		{"ConfirmPageForged", "GET", "/alerts/confirm?token=" + url.QueryEscape(tokens.Unsubscribe(a.ID)), "", nil, 400},
		{"UnsubscribePageForged", "GET", "/alerts/unsubscribe?token=x.y", "", nil, 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if res := f.call(t, tc.method, tc.target, tc.body, tc.headers...); res.status != tc.want {
				t.Errorf("%d %s, want %d", res.status, res.body, tc.want)
			}
		})
	}
	t.Run("FeedNotModified", func(t *testing.T) {
		target := "/alerts/feed?token=" + url.QueryEscape(a.FeedToken)
		res := f.call(t, "GET", target, "")
		if res := f.call(t, "GET", target, "", "If-None-Match", res.header.Get("ETag")); res.status != 304 {
			t.Errorf("%d", res.status)
		}
	})
	t.Run("SubscribeRateLimit", func(t *testing.T) {
		g, _ := newAlertsFixture(t)
		g.api = New(g.db, nil, WithNow(g.clock), WithAlerts(AlertsConfig{SubscribeLimit: 1}))
		body := `{"email":"a@example.com","frequency":"daily"}`
		g.call(t, "POST", "/alerts/subscribe", body)
		wantError(t, g.call(t, "POST", "/alerts/subscribe", body), 429, nil)
	})
}
