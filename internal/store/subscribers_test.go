package store

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
	"regpulse/internal/store/storetest"
)

func TestSubscribers_Subscribe(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		steps := []struct {
			name       string
			in         newsletter.Signup
			wantStatus string
			want       newsletter.Subscriber
		}{
			{"New", newsletter.Signup{Email: "Asha@Example.com"}, newsletter.StatusSubscribed,
				newsletter.Subscriber{Email: "Asha@Example.com", IsActive: true, Preferences: []string{"regulatory", "payments"}, Source: "website", Language: "en"}},
			{"SameAddressOtherCase", newsletter.Signup{Email: "asha@example.COM", FirstName: "Asha", Preferences: []string{"events"}, Source: "dashboard"},
				newsletter.StatusUpdated,
				newsletter.Subscriber{Email: "Asha@Example.com", FirstName: "Asha", IsActive: true, Preferences: []string{"events"}, Source: "website", Language: "en"}},
			{"EmptyTopics", newsletter.Signup{Email: "asha@example.com", Preferences: []string{}}, newsletter.StatusUpdated,
				newsletter.Subscriber{Email: "Asha@Example.com", IsActive: true, Preferences: []string{}, Source: "website", Language: "en"}},
		}
		var id string
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				got, status, err := db.Subscribe(ctx, st.in)
				if err != nil {
					t.Fatal(err)
				}
				if status != st.wantStatus {
					t.Errorf("status %q, want %q", status, st.wantStatus)
				}
				if id == "" {
					id = got.ID
				} else if got.ID != id {
					t.Errorf("id changed: %s, was %s", got.ID, id)
				}
				st.want.ID, st.want.SubscribedAt = got.ID, storetest.Now
				if diff := cmp.Diff(st.want, got); diff != "" {
					t.Errorf("subscriber (-want +got):\n%s", diff)
				}
			})
		}
		t.Run("Reactivated", func(t *testing.T) {
			if _, err := db.Unsubscribe(ctx, id); err != nil {
				t.Fatal(err)
			}
			again, err := db.Unsubscribe(ctx, id) // idempotent
			if err != nil || again.IsActive {
				t.Fatalf("second unsubscribe: %+v, %v", again, err)
			}
			got, status, err := db.Subscribe(ctx, newsletter.Signup{Email: "ASHA@example.com", Source: "newsletter-page"})
			if err != nil || status != newsletter.StatusReactivated || !got.IsActive || got.Source != "newsletter-page" {
				t.Errorf("re-subscribe: %+v %q %v", got, status, err)
			}
		})
		t.Run("ErrNoSubscriber", func(t *testing.T) {
			if _, err := db.Unsubscribe(ctx, "nobody"); !errors.Is(err, newsletter.ErrNoSubscriber) {
				t.Errorf("Unsubscribe(nobody) = %v", err)
			}
			if _, err := db.Subscriber(ctx, "nobody"); !errors.Is(err, newsletter.ErrNoSubscriber) {
				t.Errorf("Subscriber(nobody) = %v", err)
			}
		})
	})
}

func TestSubscribers_ListSubscribers(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { now = now.Add(time.Minute); return now }))
		for _, e := range []string{"a@example.com", "b@example.com", "c@example.com"} {
			if _, _, err := db.Subscribe(ctx, newsletter.Signup{Email: e}); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			name      string
			page      catalog.Page
			want      []string
			wantTotal int
		}{
			{"First", catalog.Page{Limit: 2}, []string{"c@example.com", "b@example.com"}, 3},
			{"Last", catalog.Page{Limit: 2, Offset: 2}, []string{"a@example.com"}, 3},
			{"PastTheEnd", catalog.Page{Limit: 2, Offset: 5}, nil, 3},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, total, err := db.ListSubscribers(ctx, tc.page)
				if err != nil {
					t.Fatal(err)
				}
				var emails []string
				for _, s := range got {
					emails = append(emails, s.Email)
				}
				if diff := cmp.Diff(tc.want, emails); diff != "" || total != tc.wantTotal {
					t.Errorf("emails (-want +got):\n%s total %d, want %d", diff, total, tc.wantTotal)
				}
			})
		}
	})
}

// TestSubscribers_UserPreference: a user's newsletterSubscription and the
// subscriber of their address follow each other both ways.
func TestSubscribers_UserPreference(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		if _, _, err := db.Subscribe(ctx, newsletter.Signup{Email: "ravi@example.com"}); err != nil {
			t.Fatal(err)
		}
		u, err := db.CreateUser(ctx, auth.NewUser{Username: "ravi", Email: "Ravi@Example.com", PasswordHash: "x", FirstName: "Ravi", LastName: "K"})
		if err != nil {
			t.Fatal(err)
		}
		pref := func() bool {
			t.Helper()
			p, err := db.Preferences(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return p.NewsletterSubscription
		}
		active := func() bool {
			t.Helper()
			subs, err := db.ActiveSubscribers(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return len(subs) == 1
		}
		if !pref() {
			t.Errorf("a new user whose address is subscribed: preference off")
		}
		c := auth.DefaultChoices()
		if _, err := db.SavePreferences(ctx, u.ID, c); err != nil {
			t.Fatal(err)
		}
		if active() {
			t.Errorf("preference turned off: the subscriber is still active")
		}
		c.NewsletterSubscription = true
		if _, err := db.SavePreferences(ctx, u.ID, c); err != nil {
			t.Fatal(err)
		}
		if !active() {
			t.Errorf("preference turned on: no active subscriber")
		}
		subs, _ := db.ActiveSubscribers(ctx)
		if _, err := db.Unsubscribe(ctx, subs[0].ID); err != nil {
			t.Fatal(err)
		}
		if pref() {
			t.Errorf("unsubscribed by link: the preference is still on")
		}
		if _, _, err := db.Subscribe(ctx, newsletter.Signup{Email: "RAVI@example.com"}); err != nil {
			t.Fatal(err)
		}
		if !pref() {
			t.Errorf("subscribed again by the form: the preference is off")
		}
		// A user with no subscription who turns it on gets the default topics.
		u2, err := db.CreateUser(ctx, auth.NewUser{Username: "mira", Email: "mira@example.com", PasswordHash: "x", FirstName: "Mira", LastName: "S"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SavePreferences(ctx, u2.ID, c); err != nil {
			t.Fatal(err)
		}
		subs, _ = db.ActiveSubscribers(ctx)
		// Both subscribed at the fixed clock's time: find mira by address.
		i := slices.IndexFunc(subs, func(s newsletter.Subscriber) bool { return s.Email == "mira@example.com" })
		if len(subs) != 2 || i < 0 || !cmp.Equal(subs[i].Preferences, newsletter.DefaultTopics) || subs[i].FirstName != "Mira" {
			t.Errorf("subscribers after mira turned it on: %+v", subs)
		}
	})
}

func TestSubscribers_Deliveries(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		sub, _, err := db.Subscribe(ctx, newsletter.Signup{Email: "a@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		claim := func(want bool) {
			t.Helper()
			ok, err := db.ClaimDelivery(ctx, sub.ID, "2025-06", "<m@x>")
			if err != nil || ok != want {
				t.Errorf("ClaimDelivery = %v, %v; want %v", ok, err, want)
			}
		}
		claim(true)
		claim(false) // being sent (or crashed while sending): never twice
		if err := db.FinishDelivery(ctx, sub.ID, "2025-06", "550 no such user"); err != nil {
			t.Fatal(err)
		}
		claim(true) // a failed delivery may be tried again
		if err := db.FinishDelivery(ctx, sub.ID, "2025-06", ""); err != nil {
			t.Fatal(err)
		}
		claim(false)
		got, err := db.Deliveries(ctx, "2025-06")
		if diff := cmp.Diff(map[string]int{"sent": 1}, got); diff != "" || err != nil {
			t.Errorf("deliveries (-want +got):\n%s %v", diff, err)
		}
	})
}

func TestSubscribers_ClaimDigestRun(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		steps := []struct {
			name    string
			holder  string
			advance time.Duration
			finish  bool
			want    bool
		}{
			{"First", "a", 0, false, true},
			{"OtherWhileLeased", "b", time.Minute, false, false},
			{"SameHolderRenews", "a", time.Minute, false, true},
			{"OtherAfterLeaseRanOut", "b", 2 * time.Hour, true, true},
			{"NoOneAfterFinished", "a", 3 * time.Hour, false, false},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				now = now.Add(st.advance)
				got, err := db.ClaimDigestRun(ctx, "2025-05", st.holder, time.Hour)
				if err != nil || got != st.want {
					t.Errorf("ClaimDigestRun(%s) = %v, %v; want %v", st.holder, got, err, st.want)
				}
				if st.finish {
					if err := db.FinishDigestRun(ctx, "2025-05"); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	})
}

// A user who changes e-mail keeps the subscription: it moves to the new
// address, unless that address is subscribed already.
func TestSubscribers_ProfileEmailChange(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		u, err := db.CreateUser(ctx, auth.NewUser{Username: "asha", Email: "asha@old.example", PasswordHash: "x", FirstName: "Asha", LastName: "R"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.Subscribe(ctx, newsletter.Signup{Email: "asha@old.example"}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.Subscribe(ctx, newsletter.Signup{Email: "taken@new.example"}); err != nil {
			t.Fatal(err)
		}
		emails := func() []string {
			t.Helper()
			subs, err := db.ActiveSubscribers(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, s := range subs {
				out = append(out, s.Email)
			}
			slices.Sort(out)
			return out
		}
		if _, err := db.UpdateProfile(ctx, u.ID, auth.Profile{FirstName: "Asha", LastName: "R", Email: "Asha@New.example"}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Asha@New.example", "taken@new.example"}, emails()); diff != "" {
			t.Errorf("after the change (-want +got):\n%s", diff)
		}
		p, err := db.Preferences(ctx, u.ID)
		if err != nil || !p.NewsletterSubscription {
			t.Errorf("the preference after the move: %+v, %v", p, err)
		}
		// the new address is subscribed already: nothing moves
		if _, err := db.UpdateProfile(ctx, u.ID, auth.Profile{FirstName: "Asha", LastName: "R", Email: "taken@new.example"}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Asha@New.example", "taken@new.example"}, emails()); diff != "" {
			t.Errorf("after a change to a subscribed address (-want +got):\n%s", diff)
		}
	})
}
