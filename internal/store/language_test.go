package store

import (
	"testing"

	"regpulse/internal/auth"
	"regpulse/internal/newsletter"
)

// A reader's language (migration 00049): a user's and a subscriber's, as
// signed up, kept when not given, changed in the profile.
func TestDB_ReaderLanguage(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		en := mustCreate(t, db, newUser("asha", "asha@example.com"))
		nu := newUser("ravi", "ravi@example.com")
		nu.Language = "hi"
		hi := mustCreate(t, db, nu)
		odd := newUser("mira", "mira@example.com")
		odd.Language = "fr"
		fr := mustCreate(t, db, odd)
		for _, tc := range []struct {
			id, want string
		}{{en.ID, "en"}, {hi.ID, "hi"}, {fr.ID, "en"}} {
			u, err := db.UserByID(ctx, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if u.Language != tc.want {
				t.Errorf("user %s: language %q, want %q", u.Username, u.Language, tc.want)
			}
		}

		p := auth.Profile{FirstName: "Asha", LastName: "Rao", Email: "asha@example.com"}
		u, err := db.UpdateProfile(ctx, en.ID, p)
		if err != nil || u.Language != "en" {
			t.Fatalf("profile without a language: %q, %v; want it kept (en)", u.Language, err)
		}
		p.Language = "hi"
		if u, err = db.UpdateProfile(ctx, en.ID, p); err != nil || u.Language != "hi" {
			t.Fatalf("profile in Hindi: %q, %v", u.Language, err)
		}
		p.Language = ""
		if u, err = db.UpdateProfile(ctx, en.ID, p); err != nil || u.Language != "hi" {
			t.Fatalf("profile without a language after Hindi: %q, %v; want hi kept", u.Language, err)
		}

		sub, _, err := db.Subscribe(ctx, newsletter.Signup{Email: "reader@example.com", Language: "hi"})
		if err != nil || sub.Language != "hi" {
			t.Fatalf("subscribe in Hindi: %q, %v", sub.Language, err)
		}
		if sub, _, err = db.Subscribe(ctx, newsletter.Signup{Email: "reader@example.com"}); err != nil || sub.Language != "hi" {
			t.Fatalf("subscribe again without a language: %q, %v; want hi kept", sub.Language, err)
		}
		if sub, _, err = db.Subscribe(ctx, newsletter.Signup{Email: "reader@example.com", Language: "en"}); err != nil || sub.Language != "en" {
			t.Fatalf("subscribe again in English: %q, %v", sub.Language, err)
		}
		if _, err := db.Unsubscribe(ctx, sub.ID); err != nil {
			t.Fatal(err)
		}
		if sub, _, err = db.Subscribe(ctx, newsletter.Signup{Email: "reader@example.com", Language: "hi"}); err != nil || sub.Language != "hi" {
			t.Fatalf("reactivated in Hindi: %q, %v", sub.Language, err)
		}
		other, _, err := db.Subscribe(ctx, newsletter.Signup{Email: "other@example.com"})
		if err != nil || other.Language != "en" {
			t.Fatalf("subscribe without a language: %q, %v; want en", other.Language, err)
		}

		// a Hindi user who turns the newsletter on reads it in Hindi
		c := auth.DefaultChoices()
		c.NewsletterSubscription = true
		if _, err := db.SavePreferences(ctx, hi.ID, c); err != nil {
			t.Fatal(err)
		}
		subs, err := db.ActiveSubscribers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range subs {
			if s.Email == "ravi@example.com" {
				found = true
				if s.Language != "hi" {
					t.Errorf("the Hindi user's subscriber: language %q, want hi", s.Language)
				}
			}
		}
		if !found {
			t.Error("the user's subscription made no subscriber")
		}
	})
}
