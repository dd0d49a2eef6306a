package teams

import (
	"errors"
	"testing"
	"time"
)

var now = time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)

// TestPermissions: what each role may do, and no other value.
func TestPermissions(t *testing.T) {
	for _, tc := range []struct {
		role                           string
		manage, decide, read, evidence bool
	}{
		{RoleAdmin, true, true, true, true},
		{RoleMember, false, true, true, false},
		{RoleViewer, false, false, true, false},
		{RoleAuditor, false, false, true, true},
		{"owner", false, false, false, false},
		{"", false, false, false, false},
	} {
		got := [4]bool{CanManageMembers(tc.role), CanDecide(tc.role), CanRead(tc.role), CanReviewEvidence(tc.role)}
		if want := [4]bool{tc.manage, tc.decide, tc.read, tc.evidence}; got != want {
			t.Errorf("%q: manage, decide, read, evidence = %v, want %v", tc.role, got, want)
		}
		if o := (Organisation{Role: tc.role}).WithPermissions(); o.CanManageMembers != tc.manage || o.CanDecide != tc.decide || o.CanReviewEvidence != tc.evidence {
			t.Errorf("%q: WithPermissions' manage, decide, evidence = %t %t %t", tc.role, o.CanManageMembers, o.CanDecide, o.CanReviewEvidence)
		}
	}
}

// TestMember_Active: an auditor stops being a member at its access end,
// by itself; the other roles have none.
func TestMember_Active(t *testing.T) {
	end := now.Add(time.Hour)
	for _, tc := range []struct {
		m    Member
		at   time.Time
		want bool
	}{
		{Member{Role: RoleAuditor, ExpiresAt: &end}, now, true},
		{Member{Role: RoleAuditor, ExpiresAt: &end}, end.Add(-time.Nanosecond), true},
		{Member{Role: RoleAuditor, ExpiresAt: &end}, end, false},
		{Member{Role: RoleAuditor, ExpiresAt: &end}, end.Add(24 * time.Hour), false},
		{Member{Role: RoleViewer}, end.Add(24 * time.Hour), true},
		{Member{Role: RoleAdmin, ExpiresAt: &end}, end.Add(time.Hour), true},
	} {
		if got := tc.m.Active(tc.at); got != tc.want {
			t.Errorf("%s until %v at %v: active %v, want %v", tc.m.Role, tc.m.ExpiresAt, tc.at, got, tc.want)
		}
	}
}

// TestInvite_CheckAccept: once, before its expiry, by its address (any
// case).
func TestInvite_CheckAccept(t *testing.T) {
	inv := NewInvite(Actor{UserID: "u1", OrganisationID: "o1"}, " Ravi@Example.com ", RoleMember, nil, now.Add(500*time.Millisecond))
	if inv.Email != "Ravi@Example.com" || !inv.ExpiresAt.Equal(now.Add(InviteFor)) || inv.OrganisationID != "o1" || inv.InvitedBy != "u1" {
		t.Fatalf("invite: %+v", inv)
	}
	accepted := inv
	accepted.AcceptedAt = &now
	for _, tc := range []struct {
		name  string
		inv   Invite
		email string
		at    time.Time
		want  error
	}{
		{"ok", inv, "ravi@example.com", now, nil},
		{"another address", inv, "meera@example.com", now, ErrInviteEmail},
		{"expired", inv, "ravi@example.com", inv.ExpiresAt, ErrInviteExpired},
		{"used", accepted, "ravi@example.com", now, ErrInviteUsed},
	} {
		if err := tc.inv.CheckAccept(tc.email, tc.at); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestTokens: a token names its invitation until its expiry; another
// key's, a changed one and one past its expiry are refused.
func TestTokens(t *testing.T) {
	tk, err := NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := NewTokens([]byte("fedcba9876543210fedcba9876543210"))
	inv := NewInvite(Actor{UserID: "u1", OrganisationID: "o1"}, "a@example.com", RoleViewer, nil, now)
	token := tk.Invite(inv)
	if id, err := tk.ParseInvite(token, now); err != nil || id != inv.ID {
		t.Errorf("parse: %q, %v", id, err)
	}
	if _, err := tk.ParseInvite(token, inv.ExpiresAt); !errors.Is(err, ErrInviteExpired) {
		t.Errorf("at its expiry: %v", err)
	}
	if _, err := other.ParseInvite(token, now); !errors.Is(err, ErrBadToken) {
		t.Errorf("another key: %v", err)
	}
	if _, err := tk.ParseInvite(token+"x", now); !errors.Is(err, ErrBadToken) {
		t.Errorf("changed: %v", err)
	}
	if TokenHash(token) == TokenHash(token+"x") || len(TokenHash(token)) != 64 {
		t.Errorf("hash: %s", TokenHash(token))
	}
}
