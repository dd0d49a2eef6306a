package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/sso"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// TestSSO: settings saved and read back (the trail without the
// secret), domains named by anyone but verified by one organisation at
// most, an organisation found by a verified domain only, each state used once, and the sign-in: a new account joins
// as a member, a member keeps their role, an account outside the
// organisation (or an auditor whose access ended) is refused.
func TestSSO(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: ravi.ID}, "Ravi Cards", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		if _, err := db.SSOSettings(ctx, org.ID); !errors.Is(err, sso.ErrNotConfigured) {
			t.Errorf("before: %v", err)
		}
		st := sso.Settings{Issuer: "https://idp.example", ClientID: "c", ClientSecret: "s3cret-value", Domains: []string{"asha.co.in", "asha.example"}, Enabled: true}
		saved, err := db.SaveSSOSettings(ctx, by, st)
		if err != nil || len(saved.Verification) < 20 || len(saved.VerifiedDomains) != 0 {
			t.Fatalf("saved: %+v, %v", saved, err)
		}
		// Named, not verified: no one signs in through it.
		if _, err := db.SSOByDomain(ctx, "asha.co.in"); !errors.Is(err, sso.ErrNoOrganisation) {
			t.Errorf("an unverified domain: %v", err)
		}
		if got, err := db.VerifySSODomains(ctx, by, []string{"asha.co.in", "asha.example"}); err != nil || strings.Join(got.VerifiedDomains, ",") != "asha.co.in,asha.example" {
			t.Errorf("verified: %+v, %v", got, err)
		}
		st.Domains, st.Enabled = []string{"asha.co.in", "example.com"}, false
		if _, err := db.SaveSSOSettings(ctx, by, st); err != nil {
			t.Fatal(err)
		}
		got, err := db.SSOSettings(ctx, org.ID)
		if err != nil || got.ClientSecret != "s3cret-value" || got.Enabled || strings.Join(got.Domains, ",") != "asha.co.in,example.com" ||
			strings.Join(got.VerifiedDomains, ",") != "asha.co.in" || got.Verification != saved.Verification || !got.UpdatedAt.Equal(now) {
			t.Errorf("read back: %+v, %v", got, err)
		}
		rows, err := db.AuditSubject(ctx, org.ID, "sso", org.ID)
		if err != nil || len(rows) != 3 || rows[1].Action != "sso.verify" || rows[2].Action != "sso.update" || rows[2].Before == "null" ||
			strings.Contains(rows[0].After+rows[2].After, "s3cret") {
			t.Errorf("audit: %+v, %v", rows, err)
		}
		// Another organisation may name any domain; it verifies one only
		// if no other organisation did (the dropped one is free).
		byRavi := teams.Actor{UserID: ravi.ID, OrganisationID: other.ID}
		if _, err := db.SaveSSOSettings(ctx, byRavi, sso.Settings{Issuer: "https://r.example", ClientID: "r", Domains: []string{"asha.co.in", "asha.example"}}); err != nil {
			t.Errorf("naming: %v", err)
		}
		if got, err := db.VerifySSODomains(ctx, byRavi, []string{"asha.example"}); err != nil || strings.Join(got.VerifiedDomains, ",") != "asha.example" {
			t.Errorf("a freed domain: %+v, %v", got, err)
		}
		if _, err := db.VerifySSODomains(ctx, byRavi, []string{"asha.co.in"}); !errors.Is(err, sso.ErrDomainTaken) || !strings.Contains(err.Error(), "asha.co.in") {
			t.Errorf("a verified domain: %v", err)
		}
		if got, err := db.SSOByDomain(ctx, "ASHA.co.in"); err != nil || got.OrganisationID != org.ID {
			t.Errorf("by domain: %+v, %v", got, err)
		}
		if _, err := db.SSOByDomain(ctx, "nobody.example"); !errors.Is(err, sso.ErrNoOrganisation) {
			t.Errorf("unknown domain: %v", err)
		}

		// A state once; forgotten after its expiry.
		if err := db.UseSSOState(ctx, "h1", now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := db.UseSSOState(ctx, "h1", now.Add(time.Minute)); !errors.Is(err, sso.ErrBadFlow) {
			t.Errorf("replayed: %v", err)
		}

		// Sign-in.
		nu := auth.NewUser{Username: "asha", PasswordHash: "x", FirstName: "New", LastName: "Person"}
		u, err := db.SSOSignIn(ctx, org.ID, sso.Identity{Issuer: "https://idp.example", Subject: "1", Email: "New@Example.com"}, nu)
		if err != nil || u.Username != "asha2" || u.Email != "New@Example.com" {
			t.Fatalf("new: %+v, %v", u, err)
		}
		if m, err := db.Membership(ctx, org.ID, u.ID); err != nil || m.Role != teams.RoleMember {
			t.Errorf("membership: %+v, %v", m, err)
		}
		if rows, err := db.AuditSubject(ctx, org.ID, "member", u.ID); err != nil || len(rows) != 1 || rows[0].Action != "member.sso_join" {
			t.Errorf("audit: %+v, %v", rows, err)
		}
		again, err := db.SSOSignIn(ctx, org.ID, sso.Identity{Email: "new@example.com"}, nu)
		if err != nil || again.ID != u.ID {
			t.Errorf("again: %+v, %v", again, err)
		}
		if got, err := db.SSOSignIn(ctx, org.ID, sso.Identity{Email: asha.Email}, nu); err != nil || got.ID != asha.ID {
			t.Errorf("the admin: %+v, %v", got, err)
		}
		if m, _ := db.Membership(ctx, org.ID, asha.ID); m.Role != teams.RoleAdmin {
			t.Errorf("the admin's role became %q", m.Role)
		}
		if _, err := db.SSOSignIn(ctx, org.ID, sso.Identity{Email: ravi.Email}, nu); !errors.Is(err, sso.ErrNotMember) {
			t.Errorf("an outsider: %v", err)
		}
		// An auditor whose access ended does not come back this way.
		end := now.Add(time.Hour)
		if _, err := db.SetMemberRole(ctx, by, u.ID, teams.RoleAuditor, &end); err != nil {
			t.Fatal(err)
		}
		now = now.Add(2 * time.Hour)
		if _, err := db.SSOSignIn(ctx, org.ID, sso.Identity{Email: u.Email}, nu); !errors.Is(err, sso.ErrNotMember) {
			t.Errorf("an auditor whose access ended: %v", err)
		}
		if err := db.UseSSOState(ctx, "h1", now.Add(time.Minute)); err != nil {
			t.Errorf("a state past its expiry is forgotten: %v", err)
		}
	})
}
