package app

import (
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/mail"
	"regpulse/internal/readcache"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
)

// config is a Config of the flags' defaults over a SQLite store in a
// temporary folder, with fast password hashing.
func config(t *testing.T) Config {
	t.Helper()
	var c Config
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	c.Register(fs, "")
	if err := fs.Parse([]string{"--data", t.TempDir(), "--content", "", "--hash-memory", "64", "--hash-iterations", "1"}); err != nil {
		t.Fatal(err)
	}
	return c
}

func getenv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

var discard = slog.New(slog.DiscardHandler)

func TestOpen(t *testing.T) {
	t.Run("Server", func(t *testing.T) {
		a, err := Open(t.Context(), config(t), Env{Getenv: getenv(nil)}, discard)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		rec := httptest.NewRecorder()
		a.Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/health", nil))
		if rec.Code != http.StatusOK || a.Reads == nil {
			t.Errorf("GET /health = %d, read cache %v", rec.Code, a.Reads)
		}
	})
	t.Run("ServerExtractsInTheBackground", func(t *testing.T) {
		c := config(t)
		c.Content = "../../content"
		a, err := Open(t.Context(), c, Env{Getenv: getenv(nil)}, discard)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		// Open returned with the catalog synced and the extraction started,
		// not ended: the server answers meanwhile
		if st := a.Extraction.Status(); st.StartedAt == nil || st.Total == 0 {
			t.Fatalf("extraction status once open: %+v, want started over the catalog", st)
		}
		if _, n, err := a.DB.ListCirculars(t.Context(), catalog.CircularQuery{Page: catalog.Page{Limit: 1}}); err != nil || n == 0 {
			t.Fatalf("%d circulars in the store once open (%v), want the catalog synced", n, err)
		}
		select {
		case <-a.Extraction.Idle():
		case <-time.After(time.Minute):
			t.Fatal("the extraction did not end")
		}
		rec := httptest.NewRecorder()
		a.Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/obligations/extraction", nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"running":false`) || !strings.Contains(rec.Body.String(), `"last":{"extracted":`) {
			t.Errorf("GET /obligations/extraction once over = %d %s", rec.Code, rec.Body)
		}
		states, err := a.DB.ExtractedStates(t.Context())
		if st := a.Extraction.Status(); err != nil || len(states) == 0 || st.Running || st.Last == nil || st.Last.Extracted != len(states) {
			t.Errorf("after the extraction: %d circulars' obligations stored (%v), status %+v", len(states), err, st)
		}
	})
	for _, tc := range []struct {
		name  string
		edit  func(c *Config)
		env   Env
		wants string
	}{
		{"ErrFunctionWithoutDatabase", func(*Config) {}, Env{Getenv: getenv(map[string]string{"REGPULSE_JWT_SECRET": strings.Repeat("s", 40)}), Function: true}, DatabaseURLEnv},
		{"ErrFunctionWithoutSecret", func(c *Config) { c.Store.URL = "postgres://x" }, Env{Getenv: getenv(nil), Function: true}, "REGPULSE_JWT_SECRET"},
		{"ErrReadCacheTTL", func(c *Config) { c.ReadCacheTTL = 0 }, Env{Getenv: getenv(nil)}, "--read-cache-ttl"},
		{"ErrAIRateLimit", func(c *Config) { c.AI.RateLimit = 0 }, Env{Getenv: getenv(nil)}, "--ai-rate-limit"},
		{"ErrNotPostgres", func(c *Config) { c.Store.URL = "mysql://x" }, Env{Getenv: getenv(nil)}, "--database-url"},
		{"ErrLoginLimit", func(c *Config) { c.Auth.LoginLimit = 0 }, Env{Getenv: getenv(nil)}, "--login-limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t)
			tc.edit(&c)
			if _, err := Open(t.Context(), c, tc.env, discard); err == nil || !strings.Contains(err.Error(), tc.wants) {
				t.Errorf("Open = %v, want an error naming %s", err, tc.wants)
			}
		})
	}
}

// TestAPI_Sync: a sync starts a new data version of the read cache, so a
// read cached before it is not served after it.
func TestAPI_Sync(t *testing.T) {
	a, err := Open(t.Context(), config(t), Env{Getenv: getenv(nil)}, discard)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.Reads.Add(readcache.Key{Path: "/api/circulars"}, readcache.NewEntry(a.Reads.Version(), http.Header{}, []byte("[]")))
	a.Sync(t.Context(), storetest.Catalog(), "", discard)
	if _, ok := a.Reads.Get(readcache.Key{Path: "/api/circulars"}); ok {
		t.Error("a read cached before the sync is still served after it")
	}
	rec := httptest.NewRecorder()
	a.Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/circulars?limit=1", nil))
	if got := rec.Header().Get("X-Total-Count"); got != "5" {
		t.Errorf("after the sync X-Total-Count = %q, want the fixture's 5", got)
	}
}

// Flags are the names of the flags Config registers, for the binaries'
// tests of their own flags.
func TestFlags(t *testing.T) {
	names := Flags()
	for _, want := range []string{"data", "database-url", "content", "login-limit", "openai-model", "ai-rate-limit", "read-cache-ttl"} {
		if !names[want] {
			t.Errorf("no --%s among %v", want, names)
		}
	}
}

// TestConfig_ServeMetrics serves /metrics on the address of its own and
// nothing else there; a taken address fails at start, naming the flag.
func TestConfig_ServeMetrics(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := config(t)
	c.MetricsAddr = addr
	if err := c.ServeMetrics(t.Context(), slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "regpulse_build_info{") {
		t.Errorf("GET /metrics = %d %.200q", code, body)
	}
	if code, _ := get("/api/health"); code != 404 {
		t.Errorf("GET /api/health on the metrics address = %d, want 404", code)
	}
	t.Run("ErrAddressTaken", func(t *testing.T) {
		if err := c.ServeMetrics(t.Context(), slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "--metrics-addr") {
			t.Errorf("second listener on %s: %v, want an error naming --metrics-addr", addr, err)
		}
	})
	t.Run("Off", func(t *testing.T) {
		if err := config(t).ServeMetrics(t.Context(), slog.New(slog.DiscardHandler)); err != nil {
			t.Errorf("no --metrics-addr: %v", err)
		}
	})
}

// TestInviteMailer: invitations leave through $SMTP_URL (a bad one fails
// the start), else into DATA/outbox/invites; a function without one
// sends none.
func TestInviteMailer(t *testing.T) {
	env := func(smtp string, function bool) Env {
		return Env{Getenv: func(k string) string {
			if k == SMTPURLEnv {
				return smtp
			}
			return ""
		}, Function: function}
	}
	if _, err := inviteMailer(t.TempDir(), env("http://nope", false)); err == nil {
		t.Error("a bad SMTP_URL: no error")
	}
	if m, err := inviteMailer(t.TempDir(), env("", true)); err != nil || m != nil {
		t.Errorf("a function without SMTP_URL: %v, %v; want none", m, err)
	}
	if m, err := inviteMailer(t.TempDir(), env("smtp://127.0.0.1:2525?tls=none", true)); err != nil || m == nil {
		t.Errorf("a function with SMTP_URL: %v, %v", m, err)
	}
	data := t.TempDir()
	m, err := inviteMailer(data, env("", false))
	if err != nil || m == nil {
		t.Fatalf("a server without SMTP_URL: %v, %v", m, err)
	}
	inv := teams.NewInvite(teams.Actor{UserID: "u", OrganisationID: "o"}, "ravi@example.com", teams.RoleViewer, nil, time.Now())
	if err := m.SendInvite(t.Context(), teams.InviteEmail{Invite: inv, Organisation: "Org", InvitedBy: "Asha", AcceptURL: "https://regpulse.example/join/?token=x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(data, "outbox", "invites", "invite-"+inv.ID+".eml")); err != nil {
		t.Errorf("the .eml: %v", err)
	}
	// The mentions' e-mails leave the same ways, into their own folder.
	if mm, err := mentionMailer(t.TempDir(), env("", true)); err != nil || mm != nil {
		t.Errorf("mentions, a function without SMTP_URL: %v, %v; want none", mm, err)
	}
	mm, err := mentionMailer(data, env("", false))
	if err != nil || mm == nil {
		t.Fatalf("mentions, a server without SMTP_URL: %v, %v", mm, err)
	}
	site, _ := mail.ParseSite("https://regpulse.example/")
	e := teammail.NewMention(teams.Member{UserID: "u-ravi", Email: "ravi@example.com"}, teams.Member{Username: "asha"}, "Org",
		decisions.Comment{ID: "c1", Body: "@ravi look"}, teammail.Page{Title: "A circular", Path: "/circulars/a"}, site)
	if failed, err := mm.SendMentions(t.Context(), []teammail.MentionEmail{e}); err != nil || len(failed) != 0 {
		t.Fatal(failed, err)
	}
	if _, err := os.Stat(filepath.Join(data, "outbox", "mentions", "mention-c1-u-ravi.eml")); err != nil {
		t.Errorf("the mention's .eml: %v", err)
	}
}
