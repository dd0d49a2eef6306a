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

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
)

// newNewsletterFixture is the API over a real store with a known
// unsubscribe key and a signup limit of limit per minute (0: plenty).
func newNewsletterFixture(t testing.TB, limit int) (*authFixture, *newsletter.Tokens) {
	t.Helper()
	f := newAuthFixture(t, AuthConfig{})
	tokens, err := newsletter.NewTokens([]byte("newsletter-test-secret-0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	if limit == 0 {
		limit = 1000
	}
	authTokens, err := auth.NewTokens(testSecret, time.Hour, f.clock)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(f.logs, nil))
	f.api = New(f.db, log, WithNow(f.clock),
		WithAuth(AuthConfig{Tokens: authTokens, Hasher: cheapHash, LoginLimit: 1000, SignupLimit: 1000}),
		WithNewsletter(NewsletterConfig{Tokens: tokens, SubscribeLimit: limit}))
	return f, tokens
}

func subscribeBody(r SubscribeRequest) string {
	b, _ := json.Marshal(r)
	return string(b)
}

func TestNewsletter_Subscribe(t *testing.T) {
	f, _ := newNewsletterFixture(t, 0)
	cases := []struct {
		name       string
		body       string
		wantCode   int
		wantStatus string
		wantFields map[string]string
	}{
		{"New", `{"email":"Asha@Example.com","firstName":"Asha"}`, 201, newsletter.StatusSubscribed, nil},
		{"SameAddressOtherCase", `{"email":"asha@example.COM","preferences":["events","fintech"],"source":"dashboard"}`, 200, newsletter.StatusUpdated, nil},
		{"AllOptions", subscribeBody(SubscribeRequest{Email: "ravi@example.com", FirstName: "Ravi", LastName: "K",
			Preferences: newsletter.Topics, Source: "newsletter-page"}), 201, newsletter.StatusSubscribed, nil},
		{"ErrInvalidEmail", `{"email":"not-an-address"}`, 400, "", map[string]string{"email": "Please enter a valid email address"}},
		{"ErrMissingEmail", `{}`, 400, "", map[string]string{"email": "Please enter a valid email address"}},
		{"ErrUnknownTopic", `{"email":"a@example.com","preferences":["crypto"]}`, 400, "",
			map[string]string{"preferences": `unknown value "crypto"; use any of: regulatory, payments, fintech, events, compliance`}},
		{"ErrTopicTwice", `{"email":"a@example.com","preferences":["events","events"]}`, 400, "",
			map[string]string{"preferences": `value "events" is given twice`}},
		{"ErrUnknownSource", `{"email":"a@example.com","source":"twitter"}`, 400, "",
			map[string]string{"source": "unknown source twitter; use one of: website, dashboard, newsletter-page"}},
		{"ErrLongName", subscribeBody(SubscribeRequest{Email: "a@example.com", FirstName: strings.Repeat("a", 101)}), 400, "",
			map[string]string{"firstName": "First name too long"}},
		{"ErrUnknownField", `{"email":"a@example.com","phone":"1"}`, 400, "", map[string]string{"phone": "unknown field"}},
		{"ErrWrongType", `{"email":"a@example.com","preferences":"events"}`, 400, "", map[string]string{"preferences": "must be a list of strings"}},
		{"ErrNotJSON", `email=a`, 400, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.call(t, "POST", "/newsletter/subscribe", tc.body)
			if tc.wantStatus == "" {
				wantError(t, res, tc.wantCode, tc.wantFields)
				return
			}
			if res.status != tc.wantCode {
				t.Fatalf("status %d %s, want %d", res.status, res.body, tc.wantCode)
			}
			var got SubscribeResponse
			if err := json.Unmarshal(res.body, &got); err != nil || got.Status != tc.wantStatus || got.Message == "" {
				t.Errorf("body %s (%v), want status %q", res.body, err, tc.wantStatus)
			}
		})
	}
	t.Run("Stored", func(t *testing.T) {
		subs, total, err := f.db.ListSubscribers(t.Context(), catalog.Page{Limit: 10})
		if err != nil || total != 2 {
			t.Fatalf("%d subscribers, %v", total, err)
		}
		got := map[string][]string{}
		for _, s := range subs {
			got[s.Email+" "+s.Source] = s.Preferences
		}
		want := map[string][]string{"Asha@Example.com website": {"events", "fintech"}, "ravi@example.com newsletter-page": newsletter.Topics}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("subscribers (-want +got):\n%s", diff)
		}
	})
	t.Run("ErrUnsupportedMediaType", func(t *testing.T) {
		wantError(t, f.call(t, "POST", "/newsletter/subscribe", `{"email":"a@example.com"}`, "Content-Type", "text/plain"), 415, nil)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		wantError(t, f.call(t, "POST", "/newsletter/subscribe", `{"email":"`+strings.Repeat("a", maxBodyBytes)+`"}`), 413, nil)
	})
}

func TestNewsletter_Reactivate(t *testing.T) {
	f, tokens := newNewsletterFixture(t, 0)
	sub, _, err := f.db.Subscribe(t.Context(), newsletter.Signup{Email: "mira@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	res := f.call(t, "POST", "/newsletter/unsubscribe?token="+url.QueryEscape(tokens.Token(sub.ID)), "List-Unsubscribe=One-Click",
		"Content-Type", "application/x-www-form-urlencoded")
	if res.status != 200 {
		t.Fatalf("unsubscribe = %d %s", res.status, res.body)
	}
	res = f.call(t, "POST", "/newsletter/subscribe", `{"email":"MIRA@example.com"}`)
	var got SubscribeResponse
	if json.Unmarshal(res.body, &got); res.status != 200 || got.Status != newsletter.StatusReactivated {
		t.Errorf("subscribe again = %d %s, want 200 reactivated", res.status, res.body)
	}
}

// TestNewsletter_NoJavaScript: a plain HTML form posts urlencoded fields
// and is sent to the site's confirmation page.
func TestNewsletter_NoJavaScript(t *testing.T) {
	f, _ := newNewsletterFixture(t, 0)
	form := "Content-Type"
	cases := []struct {
		name, body   string
		wantStatus   int
		wantLocation string
		wantText     string
	}{
		{"Subscribed", url.Values{"email": {"noscript@example.com"}, "source": {"website"}, "preferences": {"events", "compliance"}}.Encode(),
			303, "/newsletter/subscribed?status=subscribed", ""},
		{"AgainUpdated", url.Values{"email": {"NoScript@example.com"}}.Encode(), 303, "/newsletter/subscribed?status=updated", ""},
		{"ErrInvalidEmail", url.Values{"email": {"nope"}}.Encode(), 400, "", "Please enter a valid email address"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.call(t, "POST", "/newsletter/subscribe", tc.body, form, "application/x-www-form-urlencoded")
			if res.status != tc.wantStatus || res.header.Get("Location") != tc.wantLocation {
				t.Fatalf("= %d Location %q, want %d %q\n%s", res.status, res.header.Get("Location"), tc.wantStatus, tc.wantLocation, res.body)
			}
			if tc.wantText != "" && (!strings.Contains(string(res.body), tc.wantText) || !strings.HasPrefix(res.header.Get("Content-Type"), "text/html")) {
				t.Errorf("page %s does not say %q", res.body, tc.wantText)
			}
		})
	}
	subs, err := f.db.ActiveSubscribers(t.Context())
	if err != nil || len(subs) != 1 || !slices.Equal(subs[0].Preferences, newsletter.DefaultTopics) {
		t.Errorf("subscribers %+v, %v", subs, err)
	}
}

func TestNewsletter_RateLimit(t *testing.T) {
	f, _ := newNewsletterFixture(t, 2)
	for i, want := range []int{201, 200, 429} {
		res := f.call(t, "POST", "/newsletter/subscribe", `{"email":"a@example.com"}`)
		if res.status != want {
			t.Errorf("signup %d = %d %s, want %d", i+1, res.status, res.body, want)
		}
	}
	wantError(t, f.call(t, "POST", "/newsletter/subscribe", `{"email":"b@example.com"}`), 429, nil)
}

func TestNewsletter_Subscribers(t *testing.T) {
	f, _ := newNewsletterFixture(t, 0)
	for _, e := range []string{"a@example.com", "b@example.com", "c@example.com"} {
		if _, _, err := f.db.Subscribe(t.Context(), newsletter.Signup{Email: e}); err != nil {
			t.Fatal(err)
		}
	}
	userToken := f.signup(t, "reader")
	adminToken := f.signup(t, "boss")
	if _, err := f.db.SetRole(t.Context(), "boss", auth.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrSignInRequired", func(t *testing.T) {
		res := f.call(t, "GET", "/newsletter/subscribers", "")
		wantError(t, res, 401, nil)
		if strings.Contains(string(res.body), "@example.com") {
			t.Errorf("401 leaks an address: %s", res.body)
		}
	})
	t.Run("ErrNotAdmin", func(t *testing.T) {
		res := f.call(t, "GET", "/newsletter/subscribers", "", bearer(userToken)...)
		wantError(t, res, 403, nil)
		if strings.Contains(string(res.body), "@example.com") {
			t.Errorf("403 leaks an address: %s", res.body)
		}
	})
	t.Run("Admin", func(t *testing.T) {
		res := f.call(t, "GET", "/newsletter/subscribers?limit=2", "", bearer(adminToken)...)
		var got []newsletter.Subscriber
		if err := json.Unmarshal(res.body, &got); res.status != 200 || err != nil || len(got) != 2 {
			t.Fatalf("= %d %s", res.status, res.body)
		}
		if res.header.Get("X-Total-Count") != "3" || res.header.Get("Link") != `</newsletter/subscribers?limit=2&offset=2>; rel="next"` {
			t.Errorf("X-Total-Count %q Link %q", res.header.Get("X-Total-Count"), res.header.Get("Link"))
		}
		if again := f.call(t, "GET", "/newsletter/subscribers?limit=2", "", append(bearer(adminToken), "If-None-Match", res.header.Get("ETag"))...); again.status != 304 {
			t.Errorf("with its ETag = %d, want 304", again.status)
		}
		wantError(t, f.call(t, "GET", "/newsletter/subscribers?limit=0", "", bearer(adminToken)...), 400, map[string]string{"limit": `"0" is not a whole number from 1 to 100`})
	})
}

func TestNewsletter_Unsubscribe(t *testing.T) {
	f, tokens := newNewsletterFixture(t, 0)
	ctx := t.Context()
	sub, _, err := f.db.Subscribe(ctx, newsletter.Signup{Email: "leaver@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := f.db.Subscribe(ctx, newsletter.Signup{Email: "stayer@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	token := tokens.Token(sub.ID)
	target := "/newsletter/unsubscribe?token=" + url.QueryEscape(token)
	active := func(id string) bool {
		t.Helper()
		s, err := f.db.Subscriber(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return s.IsActive
	}
	forged, _ := newsletter.NewTokens([]byte("another-secret-another-secret-123"))
	sig := token[strings.IndexByte(token, '.'):]
	// The signature's last two characters changed: to "AA", or to "BB"
	// when they are "AA" already (1 token in 4,096), which left the
	// token valid and the test failing once in a while.
	tampered := token[:len(token)-2] + "AA"
	if tampered == token {
		tampered = token[:len(token)-2] + "BB"
	}
	badTokens := map[string]string{
		"ErrForged":         forged.Token(sub.ID),
		"ErrOtherIDSameSig": other.ID + sig,
		"ErrTampered":       tampered,
		"ErrMissing":        "",
		"ErrNoSignature":    sub.ID,
		"ErrNotBase64":      sub.ID + ".!!!",
	}
	for name, bad := range badTokens {
		t.Run(name, func(t *testing.T) {
			bt := "/newsletter/unsubscribe?token=" + url.QueryEscape(bad)
			if res := f.call(t, "GET", bt, ""); res.status != 400 || !strings.Contains(string(res.body), "not valid") {
				t.Errorf("GET = %d %s", res.status, res.body)
			}
			wantError(t, f.call(t, "POST", bt, "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded"), 400,
				map[string]string{"token": "not valid"})
			if !active(sub.ID) || !active(other.ID) {
				t.Errorf("a bad token unsubscribed someone")
			}
		})
	}
	t.Run("GetDoesNotUnsubscribe", func(t *testing.T) {
		for range 2 {
			res := f.call(t, "GET", target, "")
			if res.status != 200 || !strings.Contains(string(res.body), `<form method="post" action="/api/newsletter/unsubscribe?token=`) {
				t.Fatalf("GET = %d %s", res.status, res.body)
			}
			for _, h := range []string{"Referrer-Policy", "Content-Security-Policy", "Cache-Control"} {
				if res.header.Get(h) == "" {
					t.Errorf("no %s", h)
				}
			}
		}
		if !active(sub.ID) {
			t.Errorf("GET unsubscribed")
		}
	})
	t.Run("InTheReadersLanguage", func(t *testing.T) {
		for _, c := range []struct{ accept, lang, title, back string }{
			{"", "en", "Unsubscribe from the RegPulse newsletter", `<a href="/">Back to RegPulse</a>`},
			{"hi-IN,hi;q=0.9", "hi", "RegPulse न्यूज़लेटर की सदस्यता समाप्त करें", `<a href="/hi/">RegPulse पर वापस जाएँ</a>`},
		} {
			res := f.call(t, "GET", target, "", "Accept-Language", c.accept)
			body := string(res.body)
			for _, want := range []string{`<html lang="` + c.lang + `">`, "<h1>" + c.title + "</h1>", c.back} {
				if res.status != 200 || !strings.Contains(body, want) {
					t.Errorf("Accept-Language %q: %d, no %q in\n%s", c.accept, res.status, want, body)
				}
			}
		}
		res := f.call(t, "GET", "/newsletter/unsubscribe?token=x", "", "Accept-Language", "hi")
		if res.status != 400 || !strings.Contains(string(res.body), "<h1>लिंक मान्य नहीं है</h1>") {
			t.Errorf("a bad link in Hindi: %d %s", res.status, res.body)
		}
	})
	t.Run("ConfirmButton", func(t *testing.T) {
		for range 2 { // a second press is no error
			res := f.call(t, "POST", target, "", "Content-Type", "application/x-www-form-urlencoded")
			if res.status != 303 || res.header.Get("Location") != UnsubscribedPage {
				t.Fatalf("POST = %d %q", res.status, res.header.Get("Location"))
			}
		}
		if active(sub.ID) || !active(other.ID) {
			t.Errorf("after the button: leaver active %v, stayer active %v", active(sub.ID), active(other.ID))
		}
	})
	t.Run("OneClickReused", func(t *testing.T) {
		for range 2 {
			res := f.call(t, "POST", target, "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded")
			if res.status != 200 || !strings.Contains(string(res.body), `"unsubscribed"`) {
				t.Fatalf("one-click POST = %d %s", res.status, res.body)
			}
		}
	})
}
