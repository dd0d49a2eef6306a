package store

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/audit"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// TestOrganisations: creating (the creator its admin), listing one's
// own, another's organisation not found, members' roles changed and
// removed but never the last admin, an auditor's access ending by
// itself, and a user in several organisations.
func TestOrganisations(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		asha, ravi, meera := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi"), newAlertUser(t, db, "meera")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", []string{"PSP", "Aggregator"})
		if err != nil {
			t.Fatal(err)
		}
		if org.Role != teams.RoleAdmin || org.Name != "Asha Payments" {
			t.Errorf("created: %+v", org)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: ravi.ID}, "Ravi Cards", nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Organisation(ctx, asha.ID, org.ID)
		if err != nil || got.ID != org.ID || len(got.EntityTypes) != 2 || got.EntityTypes[1] != "Aggregator" || !got.CreatedAt.Equal(now) {
			t.Errorf("asha's organisation: %+v, %v", got, err)
		}
		if _, err := db.Organisation(ctx, asha.ID, other.ID); !errors.Is(err, teams.ErrNoOrganisation) {
			t.Errorf("another's organisation: %v, want ErrNoOrganisation", err)
		}
		if _, err := db.Organisation(ctx, asha.ID, "no-such-id"); !errors.Is(err, teams.ErrNoOrganisation) {
			t.Errorf("no organisation: %v", err)
		}
		// Ravi joins asha's organisation too: a member of two.
		join(t, db, teams.Actor{UserID: asha.ID, OrganisationID: org.ID}, ravi.Email, ravi.ID, teams.RoleMember, nil)
		list, err := db.UserOrganisations(ctx, ravi.ID)
		if err != nil || len(list) != 2 || list[0].Name != "Asha Payments" || list[0].Role != teams.RoleMember || list[1].Role != teams.RoleAdmin {
			t.Errorf("ravi's organisations: %+v, %v", list, err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		// The only admin can neither step down nor be removed.
		if _, err := db.SetMemberRole(ctx, by, asha.ID, teams.RoleViewer, nil); !errors.Is(err, teams.ErrLastAdmin) {
			t.Errorf("demoting the last admin: %v", err)
		}
		if err := db.RemoveMember(ctx, by, asha.ID); !errors.Is(err, teams.ErrLastAdmin) {
			t.Errorf("removing the last admin: %v", err)
		}
		if m, err := db.SetMemberRole(ctx, by, ravi.ID, teams.RoleAdmin, nil); err != nil || m.Role != teams.RoleAdmin {
			t.Fatalf("ravi made admin: %+v, %v", m, err)
		}
		if m, err := db.SetMemberRole(ctx, by, asha.ID, teams.RoleViewer, nil); err != nil || m.Role != teams.RoleViewer {
			t.Errorf("asha steps down with another admin: %+v, %v", m, err)
		}
		if _, err := db.SetMemberRole(ctx, by, meera.ID, teams.RoleViewer, nil); !errors.Is(err, teams.ErrNoMember) {
			t.Errorf("a non-member's role: %v", err)
		}
		// An auditor until tomorrow: a member today, none after.
		end := now.Add(24 * time.Hour)
		join(t, db, by, meera.Email, meera.ID, teams.RoleAuditor, &end)
		members, err := db.Members(ctx, org.ID)
		if err != nil || len(members) != 3 {
			t.Fatalf("members: %+v, %v", members, err)
		}
		if m := members[1]; m.UserID != meera.ID || m.Role != teams.RoleAuditor || m.ExpiresAt == nil || !m.ExpiresAt.Equal(end) || m.Email != meera.Email {
			t.Errorf("the auditor: %+v", m)
		}
		now = end
		if members, _ := db.Members(ctx, org.ID); len(members) != 2 {
			t.Errorf("after the auditor's access ended: %+v", members)
		}
		if _, err := db.Organisation(ctx, meera.ID, org.ID); !errors.Is(err, teams.ErrNoOrganisation) {
			t.Errorf("the auditor after its access ended: %v", err)
		}
		if list, _ := db.UserOrganisations(ctx, meera.ID); len(list) != 0 {
			t.Errorf("the auditor's organisations after its access ended: %+v", list)
		}
		if _, err := db.SetMemberRole(ctx, by, meera.ID, teams.RoleViewer, nil); !errors.Is(err, teams.ErrNoMember) {
			t.Errorf("an ended auditor's role: %v", err)
		}
		// Asha is a viewer now: ravi is the only admin, and cannot go.
		if err := db.RemoveMember(ctx, by, ravi.ID); !errors.Is(err, teams.ErrLastAdmin) {
			t.Errorf("removing the last admin: %v", err)
		}
		if err := db.RemoveMember(ctx, by, asha.ID); err != nil {
			t.Errorf("removing a viewer: %v", err)
		}
		if err := db.RemoveMember(ctx, by, asha.ID); !errors.Is(err, teams.ErrNoMember) {
			t.Errorf("removing again: %v", err)
		}
		if _, err := db.Organisation(ctx, asha.ID, org.ID); !errors.Is(err, teams.ErrNoOrganisation) {
			t.Errorf("a removed member's organisation: %v", err)
		}
	})
}

// join invites email to by's organisation and accepts as userID.
func join(t *testing.T, db *DB, by teams.Actor, email, userID, role string, end *time.Time) teams.Member {
	t.Helper()
	inv := teams.NewInvite(by, email, role, end, db.now())
	if _, err := db.CreateInvite(t.Context(), by, inv, teams.TokenHash("token-"+inv.ID)); err != nil {
		t.Fatal(err)
	}
	m, err := db.AcceptInvite(t.Context(), teams.Actor{UserID: userID, OrganisationID: by.OrganisationID}, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOrganisations_LastAdminRace: two admins demoting each other at
// once leave one admin, never none.
func TestOrganisations_LastAdminRace(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Org", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		join(t, db, by, ravi.Email, ravi.ID, teams.RoleAdmin, nil)
		// Many rounds: each makes both admins, then has both step down at
		// once; one must stay each time.
		for round := range 20 {
			for _, u := range []string{asha.ID, ravi.ID} {
				if _, err := db.SetMemberRole(ctx, by, u, teams.RoleAdmin, nil); err != nil {
					t.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			errs := make([]error, 2)
			start := make(chan struct{})
			for i, u := range []string{asha.ID, ravi.ID} {
				wg.Go(func() { <-start; _, errs[i] = db.SetMemberRole(ctx, by, u, teams.RoleMember, nil) })
			}
			close(start)
			wg.Wait()
			members, err := db.Members(ctx, org.ID)
			if err != nil {
				t.Fatal(err)
			}
			admins := 0
			for _, m := range members {
				if m.Role == teams.RoleAdmin {
					admins++
				}
			}
			if admins != 1 {
				t.Fatalf("round %d: %d admins after both stepped down at once (errors %v)", round, admins, errs)
			}
		}
	})
}

// TestInvites: an invitation found by its token's hash, accepted once,
// by the invited address only, not after its expiry; a new one replaces
// the waiting one; a member is not invited again; expired ones deleted.
func TestInvites(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		asha, ravi, meera := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi"), newAlertUser(t, db, "meera")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Org", []string{"Issuer"})
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		if _, err := db.CreateInvite(ctx, by, teams.NewInvite(by, "ASHA@example.com", teams.RoleViewer, nil, now), "h0"); !errors.Is(err, teams.ErrAlreadyMember) {
			t.Errorf("inviting a member: %v", err)
		}
		end := now.Add(30 * 24 * time.Hour)
		first := teams.NewInvite(by, "Ravi@Example.com", teams.RoleAuditor, &end, now)
		if _, err := db.CreateInvite(ctx, by, first, "h1"); err != nil {
			t.Fatal(err)
		}
		second := teams.NewInvite(by, "ravi@example.com", teams.RoleViewer, nil, now)
		if _, err := db.CreateInvite(ctx, by, second, "h2"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.InviteByTokenHash(ctx, "h1"); !errors.Is(err, teams.ErrNoInvite) {
			t.Errorf("the replaced invitation: %v", err)
		}
		got, err := db.InviteByTokenHash(ctx, "h2")
		if err != nil || got.ID != second.ID || got.Role != teams.RoleViewer || got.InvitedBy != asha.ID || !got.ExpiresAt.Equal(now.Add(teams.InviteFor)) || got.AcceptedAt != nil {
			t.Errorf("by hash: %+v, %v", got, err)
		}
		if _, err := db.AcceptInvite(ctx, teams.Actor{UserID: meera.ID, OrganisationID: org.ID}, second.ID); !errors.Is(err, teams.ErrInviteEmail) {
			t.Errorf("accepted by another address: %v", err)
		}
		m, err := db.AcceptInvite(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: org.ID}, second.ID)
		if err != nil || m.Role != teams.RoleViewer || m.UserID != ravi.ID {
			t.Errorf("accepted: %+v, %v", m, err)
		}
		if _, err := db.AcceptInvite(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: org.ID}, second.ID); !errors.Is(err, teams.ErrInviteUsed) {
			t.Errorf("accepted twice: %v", err)
		}
		if got, _ := db.InviteByTokenHash(ctx, "h2"); got.AcceptedAt == nil {
			t.Errorf("the accepted invitation: %+v", got)
		}
		// Meera's invitation expires unused.
		late := teams.NewInvite(by, meera.Email, teams.RoleMember, nil, now)
		if _, err := db.CreateInvite(ctx, by, late, "h3"); err != nil {
			t.Fatal(err)
		}
		now = now.Add(teams.InviteFor)
		if _, err := db.AcceptInvite(ctx, teams.Actor{UserID: meera.ID, OrganisationID: org.ID}, late.ID); !errors.Is(err, teams.ErrInviteExpired) {
			t.Errorf("accepted after its expiry: %v", err)
		}
		if n, err := db.ExpireInvites(ctx); err != nil || n != 1 {
			t.Errorf("expired: %d, %v; want 1 (the accepted one kept)", n, err)
		}
		if _, err := db.InviteByTokenHash(ctx, "h3"); !errors.Is(err, teams.ErrNoInvite) {
			t.Errorf("an expired invitation: %v", err)
		}
		if _, err := db.InviteByTokenHash(ctx, "h2"); err != nil {
			t.Errorf("the accepted invitation after expiring: %v", err)
		}
		if _, err := db.CreateInvite(ctx, teams.Actor{UserID: asha.ID, OrganisationID: "no-such-org"}, teams.NewInvite(by, "x@example.com", teams.RoleViewer, nil, now), "h4"); !errors.Is(err, teams.ErrNoOrganisation) {
			t.Errorf("an invitation to no organisation: %v", err)
		}
	})
}

// Every change of an organisation writes its row to the organisation's
// audit trail, in its transaction, with who, what, before and after, the
// request and the client; a refused change writes none; the chain
// verifies.
func TestOrganisations_Audited(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		req := func(u string) teams.Actor {
			return teams.Actor{UserID: u, RequestID: "req-" + u, ClientAddr: "203.0.113.7"}
		}
		org, err := db.CreateOrganisation(ctx, req(asha.ID), "Asha Payments", []string{"PSP"})
		if err != nil {
			t.Fatal(err)
		}
		by := req(asha.ID)
		by.OrganisationID = org.ID
		join(t, db, by, ravi.Email, ravi.ID, teams.RoleMember, nil)
		if _, err := db.SetMemberRole(ctx, by, ravi.ID, teams.RoleViewer, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SetMemberRole(ctx, by, asha.ID, teams.RoleViewer, nil); !errors.Is(err, teams.ErrLastAdmin) {
			t.Fatalf("demoting the last admin: %v", err) // refused: no row
		}
		if err := db.RemoveMember(ctx, by, ravi.ID); err != nil {
			t.Fatal(err)
		}
		var got []string
		for r, err := range db.AuditRows(ctx, org.ID) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r.Action+" "+r.SubjectType+" "+r.Before+" "+r.After)
			// (join's acceptance is ravi's, made without a request)
			if r.ActorID == "" || r.ActorID == asha.ID && (r.RequestID != "req-"+asha.ID || r.ClientAddr != "203.0.113.7") {
				t.Errorf("row %d: request %q, client %q, actor %q", r.Seq, r.RequestID, r.ClientAddr, r.ActorID)
			}
		}
		want := []string{
			`organisation.create organisation null {"admin":"` + asha.ID + `","entityTypes":["PSP"],"name":"Asha Payments"}`,
			"invite.create invite",
			"member.join member",
			`member.role member {"expiresAt":null,"role":"member"} {"expiresAt":null,"role":"viewer"}`,
			`member.remove member {"expiresAt":null,"role":"viewer"} null`,
		}
		if len(got) != len(want) {
			t.Fatalf("audit rows:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("row %d = %s, want %s…", i+1, got[i], want[i])
			}
		}
		rep, err := audit.Verify(db.AuditRows(ctx, org.ID))
		if err != nil || rep.Broken != nil || rep.Rows != 5 {
			t.Errorf("verify: %+v, %v", rep, err)
		}
	})
}
