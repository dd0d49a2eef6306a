package cmsrepo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"regpulse/internal/cms"
)

var (
	alice    = cms.Person{ID: "1", Name: "Alice Editor", Email: "alice@example.org", Role: cms.RoleEditor}
	bob      = cms.Person{ID: "2", Name: "Bob Editor", Email: "bob@example.org", Role: cms.RoleEditor}
	rita     = cms.Person{ID: "3", Name: "Rita Reviewer", Email: "rita@example.org", Role: cms.RoleReviewer}
	ravi     = cms.Person{ID: "4", Name: "Ravi Reviewer", Email: "ravi@example.org", Role: cms.RoleReviewer}
	nobody   = cms.Person{ID: "5", Name: "No Role", Email: "none@example.org"}
	importer = object.Signature{Name: "Importer", Email: "import@example.org", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
)

// pngBytes is a 1x1 PNG: enough for http.DetectContentType.
var pngBytes, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

const circular = `---
title: "Old rule"
publishedDate: 2024-01-05
---
Body.
`

func entryRaw(title string) string {
	return "---\ntitle: \"" + title + "\"\npublishedDate: 2024-02-01\n---\nText.\n"
}

// fakeValidator refuses a file whose text holds "2024-13-01", naming the
// file and line as the loader does, and counts its calls.
type fakeValidator struct {
	mu    sync.Mutex
	calls []map[string][]byte
}

func (v *fakeValidator) Validate(_ context.Context, changes map[string][]byte) error {
	v.mu.Lock()
	v.calls = append(v.calls, changes)
	v.mu.Unlock()
	var problems []string
	for p, b := range changes {
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "2024-13-01") {
				problems = append(problems, p+":"+strconv.Itoa(i+1)+`: publishedDate: not a date "2024-13-01" (want YYYY-MM-DD)`)
			}
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// fixture is a server clone with a bare remote.
type fixture struct {
	dir, remoteDir string
	repo           *git.Repository
	b              *GitBackend
	v              *fakeValidator
	published      [][]string
	mu             sync.Mutex
}

// newClone makes a non-bare repository on main with files committed by
// the importer (a value starting "->" is a symbolic link to the rest).
func newClone(t testing.TB, files map[string]string) (string, *git.Repository) {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	if err != nil {
		t.Fatal(err)
	}
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(s, "->"); ok {
			err = os.Symlink(target, full)
		} else {
			err = os.WriteFile(full, []byte(s), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Commit("Import", &git.CommitOptions{Author: &importer, Committer: &importer}); err != nil {
		t.Fatal(err)
	}
	return dir, repo
}

// newBare makes a bare remote for repo (named origin) and pushes main.
func newBare(t testing.TB, repo *git.Repository) string {
	t.Helper()
	useInProcessFileTransport()
	remoteDir := filepath.Join(t.TempDir(), "remote.git")
	bare, err := git.PlainInitWithOptions(remoteDir, &git.PlainInitOptions{Bare: true, InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	if err != nil {
		t.Fatal(err)
	}
	_ = bare
	if _, err := repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{remoteDir}}); err != nil {
		t.Fatal(err)
	}
	if err := repo.Push(&git.PushOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{"refs/heads/main:refs/heads/main"}}); err != nil {
		t.Fatal(err)
	}
	return remoteDir
}

func newFixture(t testing.TB, files map[string]string, withRemote bool, mod ...func(*GitConfig)) *fixture {
	t.Helper()
	f := &fixture{v: &fakeValidator{}}
	f.dir, f.repo = newClone(t, files)
	cfg := GitConfig{
		Dir: f.dir, Validate: f.v,
		Published: func(paths []string) { f.mu.Lock(); f.published = append(f.published, paths); f.mu.Unlock() },
		Now:       func() time.Time { return time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC) },
	}
	if withRemote {
		f.remoteDir = newBare(t, f.repo)
		cfg.Remote = "origin"
	}
	for _, m := range mod {
		m(&cfg)
	}
	b, err := Git(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.b = b
	return f
}

// do runs one action and answers its JSON (decoded), as the API sends it.
func do(t testing.TB, b cms.Backend, who cms.Person, action string, params any) (any, error) {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Do(context.Background(), who, cms.Request{Action: action, Params: raw})
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v, nil
}

func mustDo(t testing.TB, b cms.Backend, who cms.Person, action string, params any) any {
	t.Helper()
	v, err := do(t, b, who, action, params)
	if err != nil {
		t.Fatalf("%s as %s: %v", action, who.Name, err)
	}
	return v
}

// wantStatus checks err is an *Error with status (and, if given, a
// message containing each of subs).
func wantStatus(t testing.TB, err error, status int, subs ...string) {
	t.Helper()
	var e *cms.Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error %d, got %v", status, err)
	}
	if e.Status != status {
		t.Fatalf("want status %d, got %d: %s", status, e.Status, e.Message)
	}
	for _, s := range subs {
		if !strings.Contains(e.Message, s) {
			t.Errorf("message %q lacks %q", e.Message, s)
		}
	}
}

type m = map[string]any

func saveDraft(collection, slug, path, raw string, newEntry bool, assets ...m) m {
	if assets == nil {
		assets = []m{}
	}
	return m{
		"branch":    "main",
		"dataFiles": []m{{"slug": slug, "path": path, "raw": raw}},
		"assets":    assets,
		"options": m{
			"collectionName": collection, "commitMessage": "Create Circulars “" + slug + "”",
			"useWorkflow": true, "status": "draft", "newEntry": newEntry, "unpublished": true,
		},
	}
}

func pngAsset(p string) m {
	return m{"path": p, "content": base64.StdEncoding.EncodeToString(pngBytes), "encoding": "base64"}
}

func ref(t testing.TB, r *git.Repository, name string) plumbing.Hash {
	t.Helper()
	rf, err := r.Reference(plumbing.ReferenceName(name), true)
	if err != nil {
		return plumbing.ZeroHash
	}
	return rf.Hash()
}

// changedFiles is the paths a commit changes against its first parent.
func changedFiles(t testing.TB, c *object.Commit) []string {
	t.Helper()
	p, err := c.Parent(0)
	if err != nil {
		t.Fatal(err)
	}
	pt, _ := p.Tree()
	ct, _ := c.Tree()
	chs, err := object.DiffTree(pt, ct)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ch := range chs {
		n := ch.To.Name
		if n == "" {
			n = ch.From.Name
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// wantClean checks git status of the clone is clean, with a repository
// opened afresh (an older handle does not see packs fetched since).
func wantClean(t testing.TB, dir string) {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	st, err := wt.Status()
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsClean() {
		t.Errorf("git status not clean:\n%s", st)
	}
}
