package api

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/store/storetest"
)

func followsOf(t *testing.T, res response) []alerts.Follow {
	t.Helper()
	var out []alerts.Follow
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatalf("%d %s: %v", res.status, res.body, err)
	}
	return out
}

// TestFollows_Calls: following, listing, unfollowing, the e-mail's link,
// and every status the calls document.
func TestFollows_Calls(t *testing.T) {
	f, tokens := newAlertsFixture(t)
	ctx := t.Context()
	d, err := directionstest.Upto(directionstest.Directions(1, 2, 5, 3)[0].Direction, 2)
	if err != nil {
		t.Fatal(err)
	}
	cat := storetest.Catalog()
	cat.Directions = []catalog.MasterDirection{d}
	if _, err := f.db.SyncCatalog(ctx, cat); err != nil {
		t.Fatal(err)
	}
	asha, ravi := bearer(f.signup(t, "asha")), bearer(f.signup(t, "ravi"))
	if got := followsOf(t, f.call(t, "GET", "/direction-follows", "", asha...)); len(got) != 0 {
		t.Fatalf("a new user follows %+v", got)
	}
	res := f.call(t, "PUT", "/direction-follows/"+d.Slug, "", asha...)
	var fl alerts.Follow
	if err := json.Unmarshal(res.body, &fl); err != nil || res.status != 200 {
		t.Fatalf("follow: %d %s", res.status, res.body)
	}
	if again := f.call(t, "PUT", "/direction-follows/"+d.Slug, "", asha...); again.status != 200 || !strings.Contains(string(again.body), fl.ID) {
		t.Errorf("following again: %d %s", again.status, again.body)
	}
	want := []alerts.Follow{{ID: fl.ID, Direction: d.Slug, Title: d.Title, CreatedAt: storetest.Now}}
	if got := followsOf(t, f.call(t, "GET", "/direction-follows", "", asha...)); !cmp.Equal(got, want) {
		t.Errorf("asha's follows:\n%s", cmp.Diff(want, got))
	}
	if got := followsOf(t, f.call(t, "GET", "/direction-follows", "", ravi...)); len(got) != 0 {
		t.Errorf("ravi sees %+v", got)
	}
	wantError(t, f.call(t, "PUT", "/direction-follows/no-such-direction", "", asha...), 404, nil)

	// ravi unfollowing what he does not follow changes nothing of asha's.
	for range 2 {
		if res := f.call(t, "DELETE", "/direction-follows/"+d.Slug, "", ravi...); res.status != 204 {
			t.Errorf("unfollow: %d %s", res.status, res.body)
		}
	}
	if got := followsOf(t, f.call(t, "GET", "/direction-follows", "", asha...)); len(got) != 1 {
		t.Errorf("asha's follows after ravi's unfollow: %+v", got)
	}

	t.Run("Unsubscribe", func(t *testing.T) {
		tok := url.QueryEscape(tokens.Unfollow(fl.ID))
		if res := f.call(t, "GET", "/direction-follows/unsubscribe?token="+tok, ""); res.status != 200 || !strings.Contains(string(res.body), "Stop following") {
			t.Errorf("page: %d %s", res.status, res.body)
		}
		if got := followsOf(t, f.call(t, "GET", "/direction-follows", "", asha...)); len(got) != 1 {
			t.Error("the GET unfollowed")
		}
		// An alert's unsubscribe token is not a follow's.
		wantError(t, f.call(t, "POST", "/direction-follows/unsubscribe?token="+url.QueryEscape(tokens.Unsubscribe(fl.ID)), "List-Unsubscribe=One-Click",
			"Content-Type", "application/x-www-form-urlencoded"), 400, map[string]string{"token": "not valid"})
		for range 2 { // idempotent
			res := f.call(t, "POST", "/direction-follows/unsubscribe?token="+tok, "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded")
			if res.status != 200 || !strings.Contains(string(res.body), `"unsubscribed"`) {
				t.Errorf("one-click: %d %s", res.status, res.body)
			}
		}
		if res := f.call(t, "POST", "/direction-follows/unsubscribe?token="+tok, "", "Content-Type", "application/x-www-form-urlencoded"); res.status != 200 ||
			!strings.Contains(string(res.body), "You no longer follow this Master Direction") {
			t.Errorf("the page's button: %d %s", res.status, res.body)
		}
		if got := followsOf(t, f.call(t, "GET", "/direction-follows", "", asha...)); len(got) != 0 {
			t.Errorf("still following: %+v", got)
		}
	})

	for _, tc := range []struct {
		name, method, target string
		headers              []string
		want                 int
	}{
		{"ListSignedOut", "GET", "/direction-follows", nil, 401},
		{"ListUnknownParam", "GET", "/direction-follows?all=1", asha, 400},
		{"FollowSignedOut", "PUT", "/direction-follows/" + d.Slug, nil, 401},
		{"FollowUnknownParam", "PUT", "/direction-follows/" + d.Slug + "?daily=1", asha, 400},
		{"UnfollowSignedOut", "DELETE", "/direction-follows/" + d.Slug, nil, 401},
		{"UnfollowUnknownParam", "DELETE", "/direction-follows/" + d.Slug + "?all=1", asha, 400},
		{"UnsubscribePageForged", "GET", "/direction-follows/unsubscribe?token=x.y", nil, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if res := f.call(t, tc.method, tc.target, "", tc.headers...); res.status != tc.want {
				t.Errorf("%d %s, want %d", res.status, res.body, tc.want)
			}
		})
	}
}
