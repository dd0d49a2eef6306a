package alerts_test

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"strings"
	"sync"
	"testing"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/i18n"
	"regpulse/internal/mail"
	"regpulse/internal/store"
)

// syncDirection syncs the fixture's catalog with d as it was with its
// first n versions.
func (f *fixture) syncDirection(d catalog.MasterDirection, n int) {
	f.t.Helper()
	upto, err := directionstest.Upto(d, n)
	if err != nil {
		f.t.Fatal(err)
	}
	f.cat.Directions = []catalog.MasterDirection{upto}
	if _, err := f.db.SyncCatalog(f.t.Context(), f.cat); err != nil {
		f.t.Fatal(err)
	}
}

// TestRun_Follows: a new version of a followed direction reaches each
// follower once, with its redline and its headers; not its earlier
// versions, not a bouncing address; and after a crash and with two
// senders at once, every follower has each version's e-mail exactly once.
func TestRun_Follows(t *testing.T) {
	f := newFixture(t, "bounce@example.com")
	ctx := t.Context()
	d := directionstest.Directions(1, 4, 30, 11)[0].Direction
	f.at("2025-07-01T05:00:00Z")
	f.syncDirection(d, 2)
	if rep := f.run("a"); rep.Sent != 0 || rep.Matched != 0 {
		t.Fatalf("the first sync's versions were sent: %s", rep)
	}
	var users []auth.User
	for _, name := range []string{"asha", "ravi", "bounce"} {
		u := f.user(name, auth.Choices{EmailNotifications: false})
		if _, err := f.db.FollowDirection(ctx, u.ID, d.Slug); err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	f.syncDirection(d, 3)
	f.at("2025-07-01T05:01:00Z")
	rep := f.run("a")
	if rep.Matched != 3 || rep.Sent != 2 || rep.Failed != 1 {
		t.Fatalf("the run after the third version: %s", rep)
	}
	got := f.mail.Received()
	if len(got["asha@example.com"]) != 1 || len(got["ravi@example.com"]) != 1 {
		t.Fatalf("after the run: %v", f.got())
	}
	m := parse(t, got["asha@example.com"][0])
	body, _ := readAll(m)
	v := d.Versions[2]
	compare := fmt.Sprintf("https://regpulse.example/master-directions/%s/compare/%s/%s/", d.Slug, d.Versions[1].Date, v.Date)
	for _, want := range []string{"VERSION OF " + v.Date.Format("2 January 2006"), v.Amending.Title, compare,
		"removed words are in [-...-] and added words in {+...+}", "<ins>", "Manage your alerts: https://regpulse.example/profile#alerts"} {
		if !strings.Contains(body, want) {
			t.Errorf("the e-mail lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "VERSION OF "+d.Versions[1].Date.Format("2 January 2006")) {
		t.Error("a version known before the follow was sent")
	}
	if s, want := m.Header.Get("Subject"), "RegPulse: "+d.Title+" amended (version of "+v.Date.Format("2 January 2006")+")"; s != want {
		t.Errorf("subject %q, want %q", s, want)
	}
	lu := m.Header.Get("List-Unsubscribe")
	if !strings.HasPrefix(lu, "<https://regpulse.example/api/direction-follows/unsubscribe?token=") ||
		m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || !strings.HasPrefix(m.Header.Get("Message-Id"), "<follow-") ||
		m.Header.Get("List-Id") != "RegPulse Master Direction <"+d.Slug+".directions.regpulse.example>" {
		t.Errorf("headers: %v", m.Header)
	}
	// The refused address keeps its version for a later run; nothing else
	// is sent again.
	f.at("2025-07-01T05:02:00Z")
	if rep := f.run("a"); rep.Sent != 0 || rep.Failed != 1 {
		t.Errorf("the next run: %s", rep)
	}
	if n := len(f.mail.Received()["ravi@example.com"]); n != 1 {
		t.Errorf("ravi got %d e-mails, want 1", n)
	}

	// The fourth version: the run dies after the server took one e-mail;
	// two senders then run at once.
	f.syncDirection(d, 4)
	f.at("2025-07-01T05:03:00Z")
	before := f.got()
	crashCtx, cancel := context.WithCancel(ctx)
	if _, err := f.runCtx(crashCtx, "a", func(tr mail.Transport) mail.Transport {
		return &crashAfter{Transport: tr, n: 1, cancel: cancel}
	}); err == nil {
		t.Fatal("the crashed run did not fail")
	}
	f.at("2025-07-01T05:04:00Z")
	var wg sync.WaitGroup
	for _, h := range []string{"b", "c"} {
		wg.Go(func() {
			if _, err := f.runCtx(ctx, h, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	f.at("2025-07-01T05:05:00Z")
	f.run("d")
	after := f.got()
	for _, u := range users[:2] {
		if n := after[u.Email] - before[u.Email]; n != 1 {
			t.Errorf("%s got %d e-mails of the fourth version, want exactly 1", u.Email, n)
		}
	}
}

// failingBetween is the store with DirectionBetween failing: a run that
// cannot read a direction's texts.
type failingBetween struct{ *store.DB }

func (failingBetween) DirectionBetween(context.Context, string, catalog.Date, catalog.Date) (catalog.MasterDirection, error) {
	return catalog.MasterDirection{}, errors.New("the database went away")
}

// TestRun_FollowsStoreFailure: a run that claimed a follower's versions
// and then could not read the direction fails, and gives them back: the
// next run sends them.
func TestRun_FollowsStoreFailure(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	d := directionstest.Directions(1, 3, 10, 12)[0].Direction
	f.at("2025-07-01T05:00:00Z")
	f.syncDirection(d, 2)
	f.run("a")
	u := f.user("asha", auth.Choices{})
	if _, err := f.db.FollowDirection(ctx, u.ID, d.Slug); err != nil {
		t.Fatal(err)
	}
	f.syncDirection(d, 3)
	snd, _ := mail.NewSender("RegPulse Alerts <alerts@regpulse.example>", "")
	if _, err := alerts.Run(ctx, failingBetween{f.db}, discard{}, alerts.Options{Links: f.links, Tokens: f.tokens, Sender: snd, Holder: "a", Now: f.clock}); err == nil {
		t.Fatal("the run did not fail")
	}
	f.at("2025-07-01T05:01:00Z")
	if rep := f.run("a"); rep.Sent != 1 {
		t.Errorf("the next run: %s", rep)
	}
	if n := f.got()[u.Email]; n != 1 {
		t.Errorf("asha got %d e-mails, want 1", n)
	}
}

// TestRun_FollowsLanguage: a followed direction's e-mail is in each
// follower's stored language.
func TestRun_FollowsLanguage(t *testing.T) {
	f := newFixture(t)
	d := directionstest.Directions(1, 4, 30, 11)[0].Direction
	f.at("2025-07-01T05:00:00Z")
	f.syncDirection(d, 2)
	f.run("a") // the first sync's versions are not news
	for _, u := range []struct{ name, lang string }{{"asha", "hi"}, {"ravi", "en"}} {
		usr, err := f.db.CreateUser(t.Context(), auth.NewUser{Username: u.name, Email: u.name + "@example.com", PasswordHash: "x",
			FirstName: u.name, LastName: "T", Language: u.lang})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.db.FollowDirection(t.Context(), usr.ID, d.Slug); err != nil {
			t.Fatal(err)
		}
	}
	f.syncDirection(d, 3)
	f.at("2025-07-01T05:01:00Z")
	if rep := f.run("a"); rep.Sent != 2 {
		t.Fatalf("run: %s", rep)
	}
	v := d.Versions[2]
	got := f.mail.Received()
	for _, tc := range []struct{ to, subject, heading, compare string }{
		{"asha@example.com", "RegPulse: " + d.Title + " में संशोधन (" + i18n.Date("hi", v.Date.Time, "2 January 2006") + " का संस्करण)",
			i18n.Date("hi", v.Date.Time, "2 January 2006") + " का संस्करण", "https://regpulse.example/hi/master-directions/"},
		{"ravi@example.com", "RegPulse: " + d.Title + " amended (version of " + v.Date.Format("2 January 2006") + ")",
			"VERSION OF " + v.Date.Format("2 January 2006"), "https://regpulse.example/master-directions/"},
	} {
		if len(got[tc.to]) != 1 {
			t.Fatalf("%s received %d e-mails", tc.to, len(got[tc.to]))
		}
		m := parse(t, got[tc.to][0])
		if s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject")); err != nil || s != tc.subject {
			t.Errorf("%s: subject %q (%v), want %q", tc.to, s, err, tc.subject)
		}
		body, _ := readAll(m)
		if !strings.Contains(body, tc.heading) || !strings.Contains(body, tc.compare+d.Slug+"/compare/") {
			t.Errorf("%s: the e-mail lacks %q or its compare link:\n%s", tc.to, tc.heading, body)
		}
	}
}
