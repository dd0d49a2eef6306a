package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/store/storetest"
)

func TestDB_CMSRoles(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		asha := mustCreate(t, db, newUser("asha", "asha@example.com"))
		ravi := mustCreate(t, db, newUser("ravi", "ravi@example.com"))
		mustCreate(t, db, newUser("meera", "meera@example.com"))

		role := func(id string) string {
			t.Helper()
			r, err := db.CMSRole(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		if got := role(asha.ID); got != "" {
			t.Errorf("new user's CMS role = %q", got)
		}
		for _, step := range []struct{ user, role, want string }{
			{"ASHA", "editor", "editor"},
			{"asha", "reviewer", "reviewer"}, // replaces
			{"ravi", "editor", "editor"},
		} {
			u, err := db.SetCMSRole(ctx, step.user, step.role, "operator")
			if err != nil {
				t.Fatalf("SetCMSRole(%s, %s): %v", step.user, step.role, err)
			}
			if got := role(u.ID); got != step.want {
				t.Errorf("after SetCMSRole(%s, %s): %q", step.user, step.role, got)
			}
		}
		list, err := db.ListCMSRoles(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []CMSRole{
			{UserID: asha.ID, Username: "asha", Role: "reviewer", GrantedAt: storetest.Now, GrantedBy: "operator"},
			{UserID: ravi.ID, Username: "ravi", Role: "editor", GrantedAt: storetest.Now, GrantedBy: "operator"},
		}
		if diff := cmp.Diff(want, list); diff != "" {
			t.Errorf("ListCMSRoles (-want +got):\n%s", diff)
		}

		if _, err := db.SetCMSRole(ctx, "asha", "", "operator"); err != nil {
			t.Fatal(err)
		}
		if got := role(asha.ID); got != "" {
			t.Errorf("removed role = %q", got)
		}
		if _, err := db.SetCMSRole(ctx, "asha", "", "operator"); err != nil {
			t.Errorf("removing no role: %v", err)
		}
		if _, err := db.SetCMSRole(ctx, "nobody", "editor", ""); !errors.Is(err, auth.ErrNoUser) {
			t.Errorf("unknown user: %v", err)
		}
		for _, bad := range []string{"admin", "Editor", "none"} {
			if _, err := db.SetCMSRole(ctx, "ravi", bad, ""); !errors.Is(err, ErrBadCMSRole) {
				t.Errorf("role %q: %v", bad, err)
			}
		}
		if got := role(ravi.ID); got != "editor" {
			t.Errorf("a refused role changed ravi's to %q", got)
		}
		// A deleted account's grant goes with it.
		if err := db.DeleteUser(ctx, ravi.ID); err != nil {
			t.Fatal(err)
		}
		if list, err := db.ListCMSRoles(ctx); err != nil || len(list) != 0 {
			t.Errorf("after deleting ravi: %+v, %v", list, err)
		}
	})
}
