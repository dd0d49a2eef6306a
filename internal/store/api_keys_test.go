package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"regpulse/internal/apikeys"
	"regpulse/internal/decisions"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// TestAPIKeys: a key is stored by its hash only, listed newest first
// with its prefix, name, scope, expiry, creator and uses; looked up by
// hash; touched at most once a minute; revoked once (a second revoke
// records nothing); each change audited without the hash; another
// organisation's key is not found.
func TestAPIKeys(t *testing.T) {
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
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID, RequestID: "req-1", ClientAddr: "192.0.2.1"}
		create := func(name string, scope apikeys.Scope) (apikeys.Key, string) {
			t.Helper()
			token, hash, prefix := apikeys.New()
			k, err := db.CreateAPIKey(ctx, by, apikeys.Key{ID: uuid.NewString(), Name: name, Prefix: prefix, Scope: scope, ExpiresAt: now.Add(30 * 24 * time.Hour)}, hash)
			if err != nil {
				t.Fatal(err)
			}
			return k, token
		}
		first, token := create("GRC feed", apikeys.Read)
		want := apikeys.Key{ID: first.ID, OrganisationID: org.ID, Name: "GRC feed", Prefix: token[:12], Scope: apikeys.Read,
			ExpiresAt: now.Add(30 * 24 * time.Hour), CreatedBy: asha.ID, CreatedByName: "A B", CreatedAt: now}
		if diff := cmp.Diff(want, first); diff != "" {
			t.Errorf("created (-want +got):\n%s", diff)
		}
		now = now.Add(time.Minute)
		second, _ := create("ServiceNow", apikeys.ReadWrite)

		// The token is nowhere in the table, its hash is.
		var stored int
		if err := db.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM api_keys WHERE token_hash = ? AND token_hash <> ?", apikeys.Hash(token), token).Scan(&stored); err != nil || stored != 1 {
			t.Errorf("by hash: %d, %v", stored, err)
		}

		got, err := db.APIKeyByHash(ctx, apikeys.Hash(token))
		if err != nil || got.ID != first.ID {
			t.Errorf("by hash: %+v, %v", got, err)
		}
		if _, err := db.APIKeyByHash(ctx, apikeys.Hash(token+"x")); !errors.Is(err, apikeys.ErrNoKey) {
			t.Errorf("unknown: %v", err)
		}

		// Touched once a minute at most.
		for i, tc := range []struct {
			at   time.Duration
			want bool
		}{{0, true}, {30 * time.Second, false}, {59 * time.Second, false}, {60 * time.Second, true}, {61 * time.Second, false}} {
			wrote, err := db.TouchAPIKey(ctx, first.ID, now.Add(tc.at))
			if err != nil || wrote != tc.want {
				t.Errorf("touch %d at +%v: %v, %v; want %v", i, tc.at, wrote, err, tc.want)
			}
		}
		got, _ = db.APIKeyByHash(ctx, apikeys.Hash(token))
		if got.LastUsedAt == nil || !got.LastUsedAt.Equal(now.Add(time.Minute)) {
			t.Errorf("last used %v, want %v", got.LastUsedAt, now.Add(time.Minute))
		}

		list, err := db.APIKeys(ctx, org.ID)
		if err != nil || len(list) != 2 || list[0].ID != second.ID || list[1].ID != first.ID || list[1].LastUsedAt == nil {
			t.Errorf("list: %+v, %v", list, err)
		}
		if list, err := db.APIKeys(ctx, other.ID); err != nil || len(list) != 0 || list == nil {
			t.Errorf("another organisation's list: %+v, %v", list, err)
		}

		// Revoked by its own organisation only, once.
		if _, err := db.RevokeAPIKey(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: other.ID}, first.ID); !errors.Is(err, apikeys.ErrNoKey) {
			t.Errorf("revoked by another organisation: %v", err)
		}
		now = now.Add(time.Hour)
		revoked, err := db.RevokeAPIKey(ctx, by, first.ID)
		if err != nil || revoked.RevokedAt == nil || !revoked.RevokedAt.Equal(now) || revoked.Check(now) != apikeys.ErrRevoked {
			t.Errorf("revoked: %+v, %v", revoked, err)
		}
		now = now.Add(time.Hour)
		again, err := db.RevokeAPIKey(ctx, by, first.ID)
		if err != nil || !again.RevokedAt.Equal(*revoked.RevokedAt) {
			t.Errorf("revoked again: %+v, %v", again, err)
		}
		if got, _ := db.APIKeyByHash(ctx, apikeys.Hash(token)); got.RevokedAt == nil {
			t.Errorf("looked up after revoking: %+v", got)
		}

		rows, err := db.AuditSubject(ctx, org.ID, "apikey", first.ID)
		if err != nil || len(rows) != 2 || rows[0].Action != "apikey.create" || rows[1].Action != "apikey.revoke" ||
			rows[0].ActorID != asha.ID || rows[0].RequestID != "req-1" || rows[1].Before == "null" {
			t.Errorf("audit: %+v, %v", rows, err)
		}
		for _, r := range rows {
			if strings.Contains(r.Before+r.After, apikeys.Hash(token)) || strings.Contains(r.Before+r.After, token) {
				t.Errorf("the trail keeps the token or its hash: %s %s", r.Before, r.After)
			}
		}

		// The organisation as a key sees it.
		o, err := db.KeyOrganisation(ctx, org.ID)
		if err != nil || o.Name != "Asha Payments" || o.Role != "" {
			t.Errorf("key organisation: %+v, %v", o, err)
		}
		if _, err := db.KeyOrganisation(ctx, uuid.NewString()); !errors.Is(err, teams.ErrNoOrganisation) {
			t.Errorf("none: %v", err)
		}

		// A key's action is audited as the key; what it changes names
		// no author (no user has the key's id).
		keyBy := teams.Actor{KeyID: second.ID, OrganisationID: org.ID}
		circ := decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"}
		d, err := db.PutDecision(ctx, keyBy, decisions.Decision{Subject: circ, Applicability: decisions.Applicable})
		if err != nil || d.DecidedBy != "" {
			t.Fatalf("a key's decision: %+v, %v", d, err)
		}
		if d, err := db.Decision(ctx, org.ID, circ); err != nil || d.DecidedBy != "" {
			t.Errorf("read back: %+v, %v", d, err)
		}
		c, _, err := db.AddComment(ctx, keyBy, circ, "From the GRC tool.")
		if err != nil || c.AuthorID != "" {
			t.Errorf("a key's comment: %+v, %v", c, err)
		}
		if rows, err := db.AuditSubject(ctx, org.ID, "decision", circ.String()); err != nil || len(rows) != 1 || rows[0].ActorID != "apikey:"+second.ID {
			t.Errorf("the decision's row: %+v, %v", rows, err)
		}
		if _, err := db.AppendAudit(ctx, auditEntry(keyBy, "apikey.use", "apikey", second.ID, nil, map[string]any{"status": 200})); err != nil {
			t.Fatal(err)
		}
		rows, err = db.AuditSubject(ctx, org.ID, "apikey", second.ID)
		if err != nil || len(rows) != 2 || rows[1].ActorID != "apikey:"+second.ID {
			t.Errorf("a key's row: %+v, %v", rows, err)
		}
	})
}
