package api

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAcceptLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		header, want string
	}{
		{"", "en"},
		{"hi", "hi"},
		{"hi-IN", "hi"},
		{"HI-in", "hi"},
		{"en", "en"},
		{"en-IN,en;q=0.9", "en"},
		{"hi-IN,hi;q=0.9,en-US;q=0.8,en;q=0.7", "hi"},
		{"en-GB,hi;q=0.9", "en"},
		{"fr-FR,fr;q=0.9,hi;q=0.8,en;q=0.5", "hi"},
		{"fr, de", "en"},
		{"en;q=0.5, hi", "hi"},
		{"hi;q=0, en;q=0.1", "en"},
		{"hi;q=0", "en"},
		{"*", "en"},
		{"hi;q=bad, en;q=0.2", "en"},
		{" hi ; q=0.8 , ta", "hi"},
	} {
		if got := acceptLanguage(tc.header).Code; got != tc.want {
			t.Errorf("acceptLanguage(%q) = %s, want %s", tc.header, got, tc.want)
		}
	}
}

// Every message key's English is found again as itself, and translated.
func TestTranslate(t *testing.T) {
	t.Parallel()
	hi := acceptLanguage("hi")
	for _, tc := range []struct{ en, want string }{
		{"Invalid username or password", "उपयोगकर्ता नाम या पासवर्ड गलत है"},
		{"invalid email, username", "अमान्य फ़ील्ड: email, username"},
		{"too many uploads: at most 20 a minute; try again later", "बहुत अधिक अपलोड: एक मिनट में अधिकतम 20; कृपया कुछ देर बाद पुनः प्रयास करें"},
		{"unknown field: x", "unknown field: x"}, // none of the person's: as written
		{"", ""},
	} {
		if got := translate(hi, tc.en); got != tc.want {
			t.Errorf("translate(hi, %q) = %q, want %q", tc.en, got, tc.want)
		}
		if got := translate(acceptLanguage("en"), tc.en); got != tc.en {
			t.Errorf("translate(en, %q) = %q", tc.en, got)
		}
	}
}

// An error's messages in the request's language; the status, the fields'
// names and the English unchanged.
func TestErrors_InTheRequestsLanguage(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	body := `{"username": "ab", "email": "x", "password": "secret1", "firstName": "Asha", "lastName": "Rao"}`
	for _, tc := range []struct {
		lang string
		want Error
	}{
		{"", Error{Message: "invalid email, username", Fields: map[string]string{
			"username": "Username must be at least 3 characters", "email": "Invalid email address"}}},
		{"en-IN,en", Error{Message: "invalid email, username", Fields: map[string]string{
			"username": "Username must be at least 3 characters", "email": "Invalid email address"}}},
		{"hi", Error{Message: "अमान्य फ़ील्ड: email, username", Fields: map[string]string{
			"username": "उपयोगकर्ता नाम में कम से कम 3 अक्षर होने चाहिए", "email": "ईमेल पता अमान्य है"}}},
	} {
		res := f.call(t, "POST", "/auth/signup", body, "Accept-Language", tc.lang)
		var got Error
		if err := json.Unmarshal(res.body, &got); err != nil || res.status != http.StatusBadRequest {
			t.Fatalf("%q: %d %s", tc.lang, res.status, res.body)
		}
		got.RequestID = ""
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Accept-Language %q (-want +got):\n%s", tc.lang, diff)
		}
	}
	res := f.call(t, "POST", "/auth/login", `{"username": "nobody", "password": "wrong-password"}`, "Accept-Language", "hi-IN,hi;q=0.9,en;q=0.8")
	var got Error
	if err := json.Unmarshal(res.body, &got); err != nil || res.status != http.StatusUnauthorized ||
		got.Message != "उपयोगकर्ता नाम या पासवर्ड गलत है" {
		t.Errorf("login in Hindi: %d %s", res.status, res.body)
	}
	res = f.call(t, "GET", "/auth/me", "", "Accept-Language", "hi")
	if err := json.Unmarshal(res.body, &got); err != nil || res.status != http.StatusUnauthorized ||
		got.Message != "कृपया साइन इन करें: Authorization: Bearer के रूप में एक मान्य टोकन भेजें" {
		t.Errorf("signed out in Hindi: %d %s", res.status, res.body)
	}
}

// Signup records the page's language; the profile changes it.
func TestAuth_SignupLanguage(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	res := f.call(t, "POST", "/auth/signup", signupBody("ravi", "ravi@example.com"), "Accept-Language", "hi")
	if res.status != http.StatusCreated {
		t.Fatalf("signup = %d %s", res.status, res.body)
	}
	token := tokenOf(t, res)
	u, err := f.db.UserByUsername(t.Context(), "ravi")
	if err != nil || u.Language != "hi" {
		t.Fatalf("signed up on a Hindi page: language %q, %v", u.Language, err)
	}
	put := func(body string) (int, MeResponse) {
		res := f.call(t, "PUT", "/user/profile", body, bearer(token)...)
		var me MeResponse
		json.Unmarshal(res.body, &me)
		return res.status, me
	}
	if status, me := put(`{"firstName": "Ravi", "lastName": "K", "email": "ravi@example.com"}`); status != 200 || me.User.Language != "hi" {
		t.Errorf("profile without a language: %d %q, want hi kept", status, me.User.Language)
	}
	if status, me := put(`{"firstName": "Ravi", "lastName": "K", "email": "ravi@example.com", "language": "en"}`); status != 200 || me.User.Language != "en" {
		t.Errorf("profile in English: %d %q", status, me.User.Language)
	}
	if status, _ := put(`{"firstName": "Ravi", "lastName": "K", "email": "ravi@example.com", "language": "fr"}`); status != 400 {
		t.Errorf("profile in French: %d, want 400", status)
	}
}

// A subscription from a Hindi page: recorded in Hindi, answered in
// Hindi; its errors and its rate limit in Hindi too.
func TestNewsletter_SubscribeLanguage(t *testing.T) {
	f, _ := newNewsletterFixture(t, 3)
	res := f.call(t, "POST", "/newsletter/subscribe", `{"email":"meera@example.com"}`, "Accept-Language", "hi-IN,hi;q=0.9,en;q=0.8")
	var got SubscribeResponse
	if err := json.Unmarshal(res.body, &got); err != nil || res.status != http.StatusCreated ||
		got.Message != "हमारे न्यूज़लेटर की सदस्यता लेने के लिए धन्यवाद। हमारा अगला अंक आपको जल्द ही मिलेगा।" {
		t.Fatalf("subscribe in Hindi: %d %s", res.status, res.body)
	}
	subs, err := f.db.ActiveSubscribers(t.Context())
	if err != nil || len(subs) != 1 || subs[0].Language != "hi" {
		t.Fatalf("subscribers %+v, %v; want meera in Hindi", subs, err)
	}
	var e Error
	res = f.call(t, "POST", "/newsletter/subscribe", `{"email":"not-an-address"}`, "Accept-Language", "hi")
	if err := json.Unmarshal(res.body, &e); err != nil || res.status != 400 || e.Message != "कृपया एक मान्य ईमेल पता दर्ज करें" ||
		e.Fields["email"] != "कृपया एक मान्य ईमेल पता दर्ज करें" {
		t.Errorf("invalid address in Hindi: %d %s", res.status, res.body)
	}
	f.call(t, "POST", "/newsletter/subscribe", `{"email":"x@example.com"}`)
	res = f.call(t, "POST", "/newsletter/subscribe", `{"email":"y@example.com"}`, "Accept-Language", "hi")
	if err := json.Unmarshal(res.body, &e); err != nil || res.status != 429 ||
		e.Message != "बहुत अधिक प्रयास हो चुके हैं; कृपया कुछ देर बाद पुनः प्रयास करें" {
		t.Errorf("rate limit in Hindi: %d %s", res.status, res.body)
	}
}
