package main

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"gopkg.in/yaml.v3"

	"regpulse/internal/web"
)

func TestCMSFlags_Content(t *testing.T) {
	repo := t.TempDir()
	f := cmsFlags{repo: repo}
	want := filepath.Join(repo, "content")
	for _, tc := range []struct {
		given string
		set   bool
		ok    bool
	}{
		{"content", false, true}, // --content left out: the clone's
		{want, true, true},
		{filepath.Join(repo, ".", "content"), true, true},
		{"content", true, false}, // the working directory's, not the clone's
		{filepath.Join(repo, "other"), true, false},
	} {
		got, err := f.content(tc.given, tc.set)
		if tc.ok && (err != nil || got != want) {
			t.Errorf("content(%q, %v) = %q, %v; want %q", tc.given, tc.set, got, err, want)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "--content")) {
			t.Errorf("content(%q, %v) = %q, %v; want an error naming --content", tc.given, tc.set, got, err)
		}
	}
}

func TestServe_ErrCMSFlags(t *testing.T) {
	repo := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cms-repo", repo, "--content", "../../content"}, "is not --cms-repo's content"},
		{[]string{"--cms-repo", repo}, "no content/ folder"},
	} {
		args := append([]string{"serve", "--data", t.TempDir(), "--public", newPublic(t, false)}, tc.args...)
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("serve %v = %v, want %q", tc.args, err, tc.want)
		}
	}
}

// newPublic is a built site of two pages, with /admin when admin is set.
func newPublic(t *testing.T, admin bool) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"index.html": "home", "404.html": "not found"}
	if admin {
		files["admin/index.html"] = "decap"
		files["admin/config.yml"] = "# generated\nbackend:\n  name: proxy\n  proxy_url: /api/cms\n  branch: main\npublish_mode: editorial_workflow\nmedia_folder: media\n"
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCMS_Refusals(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	public := newPublic(t, true)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", repo, "--public", public, "--addr", "0.0.0.0:8081"}, "loopback only"},
		{[]string{"--dir", repo, "--public", public, "--addr", ":8081"}, "loopback only"},
		{[]string{"--dir", repo, "--public", public, "--addr", "192.168.1.5:8081"}, "loopback only"},
		{[]string{"--dir", repo, "--public", public, "--addr", "example.com:8081"}, "loopback only"},
		{[]string{"--dir", repo, "--public", public, "--addr", "8081"}, "--addr"},
		{[]string{"--dir", repo, "--public", newPublic(t, false)}, "no admin/index.html"},
		{[]string{"--dir", t.TempDir(), "--public", public}, "no content/ folder"},
		{[]string{"--dir", repo, "--public", public, "extra"}, "no arguments"},
	} {
		if _, _, err := runCmd(t, append([]string{"cms"}, tc.args...)...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("cms %v = %v, want %q", tc.args, err, tc.want)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "[::1]:8081", "localhost:8081", "127.0.0.2:80"} {
		if err := loopbackOnly(addr); err != nil {
			t.Errorf("loopbackOnly(%s) = %v", addr, err)
		}
	}
}

func TestLocalCMSHandler(t *testing.T) {
	public := newPublic(t, true)
	site, err := web.NewSite(public)
	if err != nil {
		t.Fatal(err)
	}
	cmsAPI := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"ok":true}`)) })
	h := localCMSHandler(site, public, cmsAPI)
	for _, tc := range []struct {
		method, target, host, origin string
		status                       int
		body                         string
	}{
		{"GET", "/admin/", "127.0.0.1:8081", "", 200, "decap"},
		{"GET", "/admin/config.yml", "localhost:8081", "", 200, "publish_mode: simple"},
		{"POST", "/api/cms", "127.0.0.1:8081", "http://127.0.0.1:8081", 200, `{"ok":true}`},
		{"POST", "/api/cms", "127.0.0.1:8081", "", 200, `{"ok":true}`},
		{"POST", "/api/cms", "[::1]:8081", "http://[::1]:8081", 200, `{"ok":true}`},
		// A page elsewhere, or a name rebound to 127.0.0.1, is refused.
		{"POST", "/api/cms", "127.0.0.1:8081", "https://evil.example", 403, "cross-origin"},
		{"POST", "/api/cms", "evil.example:8081", "http://evil.example:8081", 421, "localhost only"},
		{"GET", "/admin/config.yml", "evil.example:8081", "", 421, "localhost only"},
	} {
		req := httptest.NewRequest(tc.method, tc.target, strings.NewReader(`{"action":"getMedia"}`))
		req.Host = tc.host
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.body) {
			t.Errorf("%s %s (Host %s, Origin %q) = %d %q, want %d with %q", tc.method, tc.target, tc.host, tc.origin, rec.Code, rec.Body, tc.status, tc.body)
		}
	}
}

func TestSimplePublishing(t *testing.T) {
	for _, in := range []string{
		"backend:\n  name: proxy\npublish_mode: editorial_workflow\ncollections: []\n",
		"backend:\n  name: proxy\ncollections: []\n",
	} {
		out, err := simplePublishing([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := yaml.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if got["publish_mode"] != "simple" || got["backend"].(map[string]any)["name"] != "proxy" || got["collections"] == nil {
			t.Errorf("%q → %q", in, out)
		}
	}
	for _, bad := range []string{"- a list\n", "publish_mode: [\n"} {
		if _, err := simplePublishing([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestGitPerson(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Global Editor\n\temail = global@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir() // no repository: the global identity
	if p, err := gitPerson(plain); err != nil || p.Name != "Global Editor" || p.Email != "global@example.com" || p.Role != "editor" {
		t.Errorf("outside a repository: %+v, %v", p, err)
	}
	repoDir := t.TempDir()
	repo, err := git.PlainInit(repoDir, false)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := gitPerson(repoDir); err != nil || p.Name != "Global Editor" {
		t.Errorf("a repository with no identity of its own: %+v, %v", p, err)
	}
	cfg, err := repo.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.User.Name, cfg.User.Email = "Asha Rao", "asha@example.com"
	if err := repo.SetConfig(cfg); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repoDir, "content")
	os.Mkdir(sub, 0o755)
	if p, err := gitPerson(sub); err != nil || p.Name != "Asha Rao" || p.Email != "asha@example.com" {
		t.Errorf("the repository's own identity, from a folder inside it: %+v, %v", p, err)
	}
}

// TestCMSFlags_Published: a publish rebuilds at once, and posts to the
// build hook when one is set.
func TestCMSFlags_Published(t *testing.T) {
	hooked := make(chan string, 2)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hooked <- r.Method }))
	defer hook.Close()
	for _, tc := range []struct {
		hook  string
		posts int
	}{{"", 0}, {hook.URL, 1}} {
		rebuilds := 0
		cmsFlags{hook: tc.hook}.published(t.Context(), func() { rebuilds++ }, slog.New(slog.DiscardHandler))([]string{"content/circulars/x.md"})
		if rebuilds != 1 {
			t.Errorf("hook %q: %d rebuilds, want 1", tc.hook, rebuilds)
		}
		for range tc.posts {
			if m := <-hooked; m != http.MethodPost {
				t.Errorf("the hook got %s", m)
			}
		}
	}
}

// TestServe_CMSRepo: serve --cms-repo answers /api/cms (an account
// without a CMS role: 403), a server without it does not (503).
func TestServe_CMSRepo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	repo := t.TempDir()
	if err := os.CopyFS(filepath.Join(repo, "content"), os.DirFS("../../content")); err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainInitWithOptions(repo, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")}})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddGlob("content"); err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Commit("content", &git.CommitOptions{Author: &object.Signature{Name: "Seed", Email: "seed@example.com", When: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flags  []string
		status int
	}{
		{[]string{"--cms-repo", repo, "--cms-remote", "", "--content", filepath.Join(repo, "content")}, 403},
		{nil, 503},
	} {
		in := startServe(t, append([]string{"--data", t.TempDir()}, tc.flags...)...)
		waitReady(t, in)
		if res := signedInPost(t, in.url); res.StatusCode != tc.status {
			t.Errorf("serve %v: POST /api/cms = %d, want %d\n%s", tc.flags, res.StatusCode, tc.status, in.log)
		}
		in.kill()
	}
}

// signedInPost signs up on the server at url and posts an info action.
func signedInPost(t *testing.T, url string) *http.Response {
	t.Helper()
	res, err := http.Post(url+"/api/auth/signup", "application/json",
		strings.NewReader(`{"username":"asha","email":"asha@example.com","password":"S3cret-Pa55word!","firstName":"Asha","lastName":"Rao"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct{ Token string }
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.Token == "" {
		t.Fatalf("signup: %d %v", res.StatusCode, err)
	}
	req, _ := http.NewRequest("POST", url+"/api/cms", strings.NewReader(`{"action":"info"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+body.Token)
	out, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out.Body.Close()
	return out
}
