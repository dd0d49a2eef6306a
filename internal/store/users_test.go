package store

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/store/storetest"
)

func newUser(name, email string) auth.NewUser {
	return auth.NewUser{Username: name, Email: email, PasswordHash: "$argon2id$hash-of-" + name, FirstName: "Asha", LastName: "Rao"}
}

func mustCreate(t *testing.T, db *DB, nu auth.NewUser) auth.User {
	t.Helper()
	u, err := db.CreateUser(t.Context(), nu)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestDB_CreateUser(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		u := mustCreate(t, db, newUser("asha", "Asha@Example.com"))
		if u.Role != auth.RoleUser || u.IsVerified || u.TokenVersion != 0 || !u.LastLoginAt.IsZero() || len(u.ID) != 36 ||
			!u.CreatedAt.Equal(storetest.Now) {
			t.Errorf("new user %+v", u)
		}
		got, err := db.UserByUsername(ctx, "ASHA")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(u, got); diff != "" {
			t.Errorf("UserByUsername (-created +got):\n%s", diff)
		}
		prefs, err := db.Preferences(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := auth.Preferences{ID: prefs.ID, UserID: u.ID, CircularSources: []string{}, ImpactLevels: []string{}, Categories: []string{},
			EntityTypes: []string{}, EmailNotifications: true, MentionEmails: true, ReminderEmails: true, UpdatedAt: storetest.Now}
		if diff := cmp.Diff(want, prefs); diff != "" {
			t.Errorf("default preferences (-want +got):\n%s", diff)
		}
		for _, tc := range []struct {
			name string
			nu   auth.NewUser
			want error
		}{
			{"ErrUsernameTaken", newUser("asha", "other@example.com"), auth.ErrUsernameTaken},
			{"ErrUsernameTakenOtherCase", newUser("ASHA", "other@example.com"), auth.ErrUsernameTaken},
			{"ErrEmailTakenOtherCase", newUser("ravi", "asha@EXAMPLE.COM"), auth.ErrEmailTaken},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := db.CreateUser(ctx, tc.nu); !errors.Is(err, tc.want) {
					t.Errorf("CreateUser = %v, want %v", err, tc.want)
				}
			})
		}
		if _, err := db.UserByUsername(ctx, "nobody"); !errors.Is(err, auth.ErrNoUser) {
			t.Errorf("unknown username: %v", err)
		}
	})
}

func TestDB_UserUpdates(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		u := mustCreate(t, db, newUser("asha", "asha@example.com"))
		mustCreate(t, db, newUser("ravi", "ravi@example.com"))

		if _, err := db.UpdateProfile(ctx, u.ID, auth.Profile{FirstName: "A", LastName: "R", Email: "RAVI@example.com"}); !errors.Is(err, auth.ErrEmailTaken) {
			t.Errorf("profile with another user's e-mail: %v", err)
		}
		p, err := db.UpdateProfile(ctx, u.ID, auth.Profile{FirstName: "A", LastName: "R", Email: "a@example.com"})
		if err != nil || p.FirstName != "A" || p.Email != "a@example.com" {
			t.Errorf("UpdateProfile = %+v, %v", p, err)
		}
		p, err = db.SetPassword(ctx, u.ID, "$argon2id$new")
		if err != nil || p.PasswordHash != "$argon2id$new" || p.TokenVersion != 1 {
			t.Errorf("SetPassword = %+v, %v", p, err)
		}
		p, err = db.RevokeTokens(ctx, u.ID)
		if err != nil || p.TokenVersion != 2 {
			t.Errorf("RevokeTokens = %+v, %v", p, err)
		}
		if p, err = db.SetRole(ctx, "ASHA", auth.RoleAdmin); err != nil || p.Role != auth.RoleAdmin {
			t.Errorf("SetRole = %+v, %v", p, err)
		}
		if _, err := db.SetRole(ctx, "asha", "root"); err == nil {
			t.Error("SetRole accepted a role the table does not allow")
		}
		at := time.Date(2025, 6, 20, 9, 30, 0, 123, time.UTC)
		if err := db.RecordLogin(ctx, u.ID, at); err != nil {
			t.Fatal(err)
		}
		if p, _ := db.UserByID(ctx, u.ID); !p.LastLoginAt.Equal(at) {
			t.Errorf("LastLoginAt = %v, want %v", p.LastLoginAt, at)
		}
		choices := auth.Choices{CircularSources: []string{"RBI"}, ImpactLevels: []string{"high"}, Categories: []string{"UPI", "CBDC"},
			EntityTypes: []string{"PSP", "Aggregator"}, NewsletterSubscription: true, ReminderEmails: true}
		prefs, err := db.SavePreferences(ctx, u.ID, choices)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(choices, auth.Choices{CircularSources: prefs.CircularSources, ImpactLevels: prefs.ImpactLevels, Categories: prefs.Categories,
			EntityTypes: prefs.EntityTypes, EmailNotifications: prefs.EmailNotifications, NewsletterSubscription: prefs.NewsletterSubscription,
			MentionEmails: prefs.MentionEmails, ReminderEmails: prefs.ReminderEmails}); diff != "" {
			t.Errorf("saved preferences (-want +got):\n%s", diff)
		}
		users, err := db.ListUsers(ctx)
		if err != nil || len(users) != 2 {
			t.Errorf("ListUsers = %d users, %v", len(users), err)
		}
		if err := db.DeleteUser(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.UserByID(ctx, u.ID); !errors.Is(err, auth.ErrNoUser) {
			t.Errorf("deleted user: %v", err)
		}
		if _, err := db.Preferences(ctx, u.ID); !errors.Is(err, auth.ErrNoUser) {
			t.Errorf("deleted user's preferences: %v", err)
		}
		if _, err := db.SavePreferences(ctx, u.ID, choices); !errors.Is(err, auth.ErrNoUser) {
			t.Errorf("SavePreferences of a deleted user: %v", err)
		}
		if _, err := db.RevokeTokens(ctx, u.ID); !errors.Is(err, auth.ErrNoUser) {
			t.Errorf("RevokeTokens of a deleted user: %v", err)
		}
	})
}

// TestDB_DashboardStats_ActiveUsers counts the users whose last sign-in
// falls in the window, at fixed dates.
func TestDB_DashboardStats_ActiveUsers(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		logins := map[string]time.Time{
			"first":  time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC),    // the window's first day
			"mid":    time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC),  //
			"last":   time.Date(2025, 6, 30, 23, 59, 0, 0, time.UTC), // its last day
			"before": time.Date(2025, 5, 31, 23, 59, 59, 0, time.UTC),
			"ist":    time.Date(2025, 6, 1, 3, 0, 0, 0, time.FixedZone("IST", 5*3600+1800)), // 2025-05-31 in UTC
		}
		for name, at := range logins {
			u := mustCreate(t, db, newUser(name, name+"@example.com"))
			if err := db.RecordLogin(ctx, u.ID, at); err != nil {
				t.Fatal(err)
			}
		}
		mustCreate(t, db, newUser("never", "never@example.com"))
		for _, tc := range []struct {
			name string
			now  time.Time
			want int
		}{
			{"FixtureDay", time.Date(2025, 6, 30, 8, 0, 0, 0, time.UTC), 3}, // 06-01..06-30
			{"NextDay", time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC), 2},     // 06-02..07-01
			{"DayBefore", time.Date(2025, 6, 29, 0, 0, 0, 0, time.UTC), 4},  // 05-31..06-29: before, ist, first, mid
			{"LongAfter", time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				st, err := db.DashboardStats(ctx, tc.now)
				if err != nil {
					t.Fatal(err)
				}
				if st.ActiveUsers != tc.want {
					t.Errorf("ActiveUsers at %v = %d, want %d", tc.now, st.ActiveUsers, tc.want)
				}
			})
		}
	})
}
