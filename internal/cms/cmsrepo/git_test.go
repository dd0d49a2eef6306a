package cmsrepo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/cms"
)

var baseFiles = map[string]string{
	"content/circulars/old-rule.md": circular,
	"content/news/n1.md":            "---\ntitle: N1\n---\n",
	"media/logo.png":                string(pngBytes),
	"README.md":                     "repo\n",
}

func TestGitDraftReviewPublish(t *testing.T) {
	f := newFixture(t, baseFiles, true)
	b := f.b
	const path = "content/circulars/new-rule.md"

	// Reads: the shapes Decap's proxy backend reads.
	got := mustDo(t, b, alice, "entriesByFolder", m{"branch": "main", "folder": "content/circulars", "extension": "md", "depth": 1})
	list := got.([]any)
	if len(list) != 1 {
		t.Fatalf("entriesByFolder: %v", got)
	}
	e := list[0].(map[string]any)
	if e["data"] != circular || e["file"].(map[string]any)["path"] != "content/circulars/old-rule.md" || e["file"].(map[string]any)["id"] == nil {
		t.Errorf("entriesByFolder entry: %v", e)
	}
	got = mustDo(t, b, alice, "getEntry", m{"branch": "main", "path": "content/circulars/missing.md"})
	if diff := cmp.Diff(m{"data": nil, "file": m{"path": "content/circulars/missing.md", "id": nil}}, got); diff != "" {
		t.Errorf("getEntry of a missing file (-want +got):\n%s", diff)
	}
	got = mustDo(t, b, alice, "entriesByFiles", m{"branch": "main", "files": []m{{"path": "content/news/n1.md", "label": "N"}}})
	if e := got.([]any)[0].(map[string]any); e["data"] != "---\ntitle: N1\n---\n" || e["file"].(map[string]any)["label"] != "N" {
		t.Errorf("entriesByFiles: %v", got)
	}
	got = mustDo(t, b, alice, "getMedia", m{"branch": "main", "mediaFolder": "media"})
	if mf := got.([]any)[0].(map[string]any); mf["path"] != "media/logo.png" || mf["name"] != "logo.png" || mf["encoding"] != "base64" ||
		mf["content"] != base64.StdEncoding.EncodeToString(pngBytes) || mf["id"] == "" {
		t.Errorf("getMedia: %v", got)
	}
	if got := mustDo(t, b, alice, "getDeployPreview", m{"branch": "main", "collection": "circulars", "slug": "x"}); got != nil {
		t.Errorf("getDeployPreview: %v", got)
	}
	if got := mustDo(t, b, alice, "info", nil).(map[string]any); got["type"] != "local_git" {
		t.Errorf("info: %v", got)
	}

	// An editor saves a new draft with an image.
	mainBefore := ref(t, f.repo, "refs/heads/main")
	got = mustDo(t, b, alice, "persistEntry", saveDraft("circulars", "new-rule", path, entryRaw("New rule"), true, pngAsset("media/chart.png")))
	if diff := cmp.Diff(m{"message": "entry persisted"}, got); diff != "" {
		t.Errorf("persistEntry: %s", diff)
	}
	if ref(t, f.repo, "refs/heads/main") != mainBefore {
		t.Fatal("a draft moved main")
	}
	draftTip, err := f.repo.CommitObject(ref(t, f.repo, "refs/heads/cms/circulars/new-rule"))
	if err != nil {
		t.Fatal(err)
	}
	if draftTip.Author.Email != alice.Email || !strings.HasPrefix(draftTip.Message, "Create Circulars “new-rule”") {
		t.Errorf("draft commit: %s <%s> %q", draftTip.Author.Name, draftTip.Author.Email, draftTip.Message)
	}
	if diff := cmp.Diff([]string{"content/circulars/new-rule.md", "media/chart.png"}, changedFiles(t, draftTip)); diff != "" {
		t.Errorf("draft changes: %s", diff)
	}
	// The validator saw the whole change.
	last := f.v.calls[len(f.v.calls)-1]
	if len(last) != 2 || string(last[path]) != entryRaw("New rule") {
		t.Errorf("validator got %v", last)
	}

	if diff := cmp.Diff([]any{"circulars/new-rule"}, mustDo(t, b, rita, "unpublishedEntries", m{"branch": "main"})); diff != "" {
		t.Errorf("unpublishedEntries: %s", diff)
	}
	got = mustDo(t, b, rita, "unpublishedEntry", m{"branch": "main", "id": "circulars/new-rule"})
	ue := got.(map[string]any)
	if ue["collection"] != "circulars" || ue["slug"] != "new-rule" || ue["status"] != "draft" || ue["updatedAt"] != "2026-12-02T09:00:00Z" || ue["pullRequestAuthor"] != alice.Name {
		t.Errorf("unpublishedEntry: %v", ue)
	}
	diffs := ue["diffs"].([]any)
	if len(diffs) != 2 || diffs[0].(map[string]any)["path"] != path || diffs[0].(map[string]any)["newFile"] != true || diffs[1].(map[string]any)["path"] != "media/chart.png" {
		t.Errorf("unpublishedEntry diffs: %v", diffs)
	}
	got = mustDo(t, b, rita, "unpublishedEntryDataFile", m{"branch": "main", "collection": "circulars", "slug": "new-rule", "path": path, "id": "x"})
	if diff := cmp.Diff(m{"data": entryRaw("New rule")}, got); diff != "" {
		t.Errorf("unpublishedEntryDataFile: %s", diff)
	}
	got = mustDo(t, b, rita, "unpublishedEntryMediaFile", m{"branch": "main", "collection": "circulars", "slug": "new-rule", "path": "media/chart.png", "id": "x"})
	if got.(map[string]any)["name"] != "chart.png" {
		t.Errorf("unpublishedEntryMediaFile: %v", got)
	}
	if _, err := do(t, b, rita, "unpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "nope"}); err != nil {
		wantStatus(t, err, 404)
	} else {
		t.Error("unpublishedEntry of no draft: want 404")
	}

	// Status: editors draft and pending_review, reviewers also ready.
	_, err = do(t, b, alice, "updateUnpublishedEntryStatus", m{"branch": "main", "collection": "circulars", "slug": "new-rule", "newStatus": "pending_publish"})
	wantStatus(t, err, 403)
	mustDo(t, b, alice, "updateUnpublishedEntryStatus", m{"branch": "main", "collection": "circulars", "slug": "new-rule", "newStatus": "pending_review"})
	mustDo(t, b, rita, "updateUnpublishedEntryStatus", m{"branch": "main", "collection": "circulars", "slug": "new-rule", "newStatus": "pending_publish"})
	if s := mustDo(t, b, rita, "unpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "new-rule"}).(map[string]any)["status"]; s != "pending_publish" {
		t.Errorf("status: %v", s)
	}

	// The editor cannot publish; the reviewer does.
	_, err = do(t, b, alice, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "new-rule"})
	wantStatus(t, err, 403, "reviewer")
	mustDo(t, b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "new-rule"})

	// The bare remote has the publish commit.
	remote, err := git.PlainOpen(f.remoteDir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := remote.CommitObject(ref(t, remote, "refs/heads/main"))
	if err != nil {
		t.Fatal(err)
	}
	if head.Author.Name != alice.Name || head.Author.Email != alice.Email || head.Committer.Name != rita.Name || head.Committer.Email != rita.Email {
		t.Errorf("publish commit author %v committer %v", head.Author, head.Committer)
	}
	wantMsg := "Publish circulars new-rule: New rule\n\nReviewed-by: Rita Reviewer <rita@example.org>\n"
	if head.Message != wantMsg {
		t.Errorf("publish message %q, want %q", head.Message, wantMsg)
	}
	if diff := cmp.Diff([]string{"content/circulars/new-rule.md", "media/chart.png"}, changedFiles(t, head)); diff != "" {
		t.Errorf("publish changes: %s", diff)
	}
	if head.ParentHashes[0] != mainBefore || ref(t, f.repo, "refs/heads/main") != head.Hash {
		t.Error("the publish is not one commit on main, pushed")
	}
	if ref(t, f.repo, "refs/heads/cms/circulars/new-rule") != plumbing.ZeroHash {
		t.Error("the draft branch is still there")
	}
	cfg, _ := f.repo.Config()
	if _, ok := cfg.Branches["cms/circulars/new-rule"]; ok {
		t.Error("the draft's status is still in the config")
	}
	if diff := cmp.Diff([][]string{{"content/circulars/new-rule.md", "media/chart.png"}}, f.published); diff != "" {
		t.Errorf("Published: %s", diff)
	}

	// The working tree and index have the published files.
	disk, err := os.ReadFile(filepath.Join(f.dir, "content/circulars/new-rule.md"))
	if err != nil || string(disk) != entryRaw("New rule") {
		t.Errorf("working tree: %q %v", disk, err)
	}
	if img, _ := os.ReadFile(filepath.Join(f.dir, "media/chart.png")); !bytes.Equal(img, pngBytes) {
		t.Error("working tree: media/chart.png")
	}
	wantClean(t, f.dir)
	if got := mustDo(t, b, alice, "unpublishedEntries", m{"branch": "main"}); len(got.([]any)) != 0 {
		t.Errorf("unpublishedEntries after publish: %v", got)
	}
}

func TestGitUpdateAndPublishWithoutRemote(t *testing.T) {
	f := newFixture(t, baseFiles, false)
	const path = "content/circulars/old-rule.md"
	mustDo(t, f.b, alice, "getEntry", m{"branch": "main", "path": path})
	mustDo(t, f.b, alice, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Old rule, amended"), false))
	tip, _ := f.repo.CommitObject(ref(t, f.repo, "refs/heads/cms/circulars/old-rule"))
	if !strings.HasPrefix(tip.Message, "Create Circulars") { // Decap's own message names the item
		t.Errorf("message %q", tip.Message)
	}
	// A second save with Decap's message not naming the slug: ours.
	p := saveDraft("circulars", "old-rule", path, entryRaw("Old rule, amended twice"), false)
	p["options"].(m)["commitMessage"] = "edit"
	mustDo(t, f.b, alice, "persistEntry", p)
	tip, _ = f.repo.CommitObject(ref(t, f.repo, "refs/heads/cms/circulars/old-rule"))
	if tip.Message != "Update circulars old-rule\n\nRegPulse-Account: 1\n" {
		t.Errorf("message %q", tip.Message)
	}
	ue := mustDo(t, f.b, rita, "unpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "old-rule"}).(map[string]any)
	if d := ue["diffs"].([]any); len(d) != 1 || d[0].(map[string]any)["newFile"] != false {
		t.Errorf("diffs: %v", d)
	}
	mustDo(t, f.b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "old-rule"})
	head, _ := f.repo.CommitObject(ref(t, f.repo, "refs/heads/main"))
	if !strings.HasPrefix(head.Message, "Publish circulars old-rule: Old rule, amended twice\n\nReviewed-by: Rita") {
		t.Errorf("publish message %q", head.Message)
	}
	if diff := cmp.Diff([]string{path}, changedFiles(t, head)); diff != "" {
		t.Errorf("publish changes: %s", diff)
	}
	wantClean(t, f.dir)
}

func TestGitRoles(t *testing.T) {
	f := newFixture(t, baseFiles, false)
	b := f.b
	const path = "content/circulars/r.md"

	_, err := do(t, b, nobody, "entriesByFolder", m{"branch": "main", "folder": "content/circulars", "extension": "md", "depth": 1})
	wantStatus(t, err, 403)
	_, err = do(t, b, alice, "frobnicate", m{})
	wantStatus(t, err, 400, "frobnicate")
	_, err = do(t, b, alice, "getEntry", m{"branch": "dev", "path": path})
	wantStatus(t, err, 400)

	p := saveDraft("circulars", "r", path, entryRaw("R"), true)
	p["options"].(m)["useWorkflow"] = false
	_, err = do(t, b, rita, "persistEntry", p)
	wantStatus(t, err, 403, "changes go through review")

	// A reviewer's own change needs another reviewer.
	mustDo(t, b, rita, "persistEntry", saveDraft("circulars", "r", path, entryRaw("R"), true))
	_, err = do(t, b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "r"})
	wantStatus(t, err, 403, "another reviewer")
	// Also when someone else saved after them.
	mustDo(t, b, alice, "unpublishedEntryDataFile", m{"branch": "main", "collection": "circulars", "slug": "r", "path": path, "id": "x"})
	mustDo(t, b, alice, "persistEntry", saveDraft("circulars", "r", path, entryRaw("R2"), false))
	_, err = do(t, b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "r"})
	wantStatus(t, err, 403)
	// An editor may not delete a draft someone else wrote part of.
	_, err = do(t, b, alice, "deleteUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "r"})
	wantStatus(t, err, 403)
	mustDo(t, b, ravi, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "r"})
	head, _ := f.repo.CommitObject(ref(t, f.repo, "refs/heads/main"))
	if head.Author.Email != alice.Email || head.Committer.Email != ravi.Email {
		t.Errorf("author %v committer %v", head.Author, head.Committer)
	}

	// An editor deletes their own draft.
	mustDo(t, b, bob, "persistEntry", saveDraft("news", "b", "content/news/b.md", entryRaw("B"), true))
	mustDo(t, b, bob, "deleteUnpublishedEntry", m{"branch": "main", "collection": "news", "slug": "b"})
	if ref(t, f.repo, "refs/heads/cms/news/b") != plumbing.ZeroHash {
		t.Error("the draft is still there")
	}

	// Published files and the media library: reviewers only.
	_, err = do(t, b, alice, "deleteFiles", m{"branch": "main", "paths": []string{"content/news/n1.md"}, "options": m{"commitMessage": "x"}})
	wantStatus(t, err, 403)
	_, err = do(t, b, alice, "persistMedia", m{"branch": "main", "asset": pngAsset("media/a.png"), "options": m{"commitMessage": "x"}})
	wantStatus(t, err, 403)
	got := mustDo(t, b, rita, "persistMedia", m{"branch": "main", "asset": pngAsset("media/sub/a.png"), "options": m{"commitMessage": "Upload “media/sub/a.png”"}})
	if got.(map[string]any)["path"] != "media/sub/a.png" {
		t.Errorf("persistMedia: %v", got)
	}
	// A published entry is not deleted by one person, reviewer or not.
	_, err = do(t, b, rita, "deleteFiles", m{"branch": "main", "paths": []string{"content/news/n1.md"}, "options": m{"commitMessage": "x"}})
	wantStatus(t, err, 403, "withdrawn")
	if _, err := os.Stat(filepath.Join(f.dir, "content/news/n1.md")); err != nil {
		t.Errorf("refused delete: %v", err)
	}
	mustDo(t, b, rita, "deleteFile", m{"branch": "main", "path": "media/sub/a.png", "options": m{"commitMessage": "x"}})
	if _, err := os.Stat(filepath.Join(f.dir, "media/sub/a.png")); !os.IsNotExist(err) {
		t.Errorf("deleted file still on disk: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "media/sub")); !os.IsNotExist(err) {
		t.Errorf("emptied folder still on disk: %v", err)
	}
	head, _ = f.repo.CommitObject(ref(t, f.repo, "refs/heads/main"))
	if diff := cmp.Diff([]string{"media/sub/a.png"}, changedFiles(t, head)); diff != "" {
		t.Errorf("deleteFile changes: %s", diff)
	}
	wantClean(t, f.dir)
}

func TestGitInvalidContent(t *testing.T) {
	f := newFixture(t, baseFiles, false)
	const path = "content/circulars/bad.md"
	raw := "---\ntitle: Bad\npublishedDate: 2024-13-01\n---\n"
	_, err := do(t, f.b, alice, "persistEntry", saveDraft("circulars", "bad", path, raw, true))
	wantStatus(t, err, 422, `content/circulars/bad.md:3: publishedDate: not a date "2024-13-01" (want YYYY-MM-DD)`)
	if ref(t, f.repo, "refs/heads/cms/circulars/bad") != plumbing.ZeroHash {
		t.Error("an invalid draft was committed")
	}
	if got := mustDo(t, f.b, alice, "unpublishedEntries", m{"branch": "main"}); len(got.([]any)) != 0 {
		t.Errorf("unpublishedEntries: %v", got)
	}
}

func TestGitPathsRefused(t *testing.T) {
	files := map[string]string{}
	for k, v := range baseFiles {
		files[k] = v
	}
	files["content/linked"] = "->../README.md"
	files["content/dirlink"] = "->circulars"
	f := newFixture(t, files, false)
	// A link on disk only (untracked): a publish must not write through it.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(f.dir, "content", "evil")); err != nil {
		t.Fatal(err)
	}

	for _, p := range []string{
		"../etc/passwd", "/etc/passwd", "content/../.git/config", ".git/config", "content/.git/config",
		"content/.GIT/config", "content/.git./x", `content\..\.git\config`, "content/a\x00.md", "content//a.md",
		"content/./a.md", "README.md", "media/logo.png", "content", "", "content/linked", "content/dirlink/old-rule.md",
	} {
		t.Run("getEntry "+p, func(t *testing.T) {
			_, err := do(t, f.b, alice, "getEntry", m{"branch": "main", "path": p})
			wantStatus(t, err, 400)
		})
	}
	for _, c := range []struct{ name, path, asset string }{
		{"dot-dot", "content/../x.md", ""},
		{"git dir", "content/.git/hooks/pre-commit", ""},
		{"absolute", "/content/x.md", ""},
		{"outside content", "static/x.md", ""},
		{"through a tree link", "content/dirlink/x.md", ""},
		{"media outside media/", "content/circulars/x.md", "content/circulars/x.png"},
		{"media escaping", "content/circulars/x.md", "media/../content/x.png"},
		{"media into git", "content/circulars/x.md", "media/.git/x.png"},
	} {
		t.Run("persistEntry "+c.name, func(t *testing.T) {
			p := saveDraft("circulars", "x", c.path, entryRaw("X"), true)
			if c.asset != "" {
				p = saveDraft("circulars", "x", c.path, entryRaw("X"), true, pngAsset(c.asset))
			}
			_, err := do(t, f.b, alice, "persistEntry", p)
			wantStatus(t, err, 400)
		})
	}
	for _, c := range []struct{ action, folder string }{
		{"entriesByFolder", "content/../.git"}, {"entriesByFolder", "media"}, {"entriesByFolder", "."},
		{"getMedia", "content"}, {"getMedia", "/media"},
	} {
		t.Run(c.action+" "+c.folder, func(t *testing.T) {
			_, err := do(t, f.b, alice, c.action, m{"branch": "main", "folder": c.folder, "mediaFolder": c.folder, "extension": "md", "depth": 1})
			wantStatus(t, err, 400)
		})
	}
	t.Run("slug", func(t *testing.T) {
		_, err := do(t, f.b, alice, "persistEntry", saveDraft("circulars", "../x", "content/circulars/x.md", entryRaw("X"), true))
		wantStatus(t, err, 400)
		_, err = do(t, f.b, alice, "persistEntry", saveDraft("a/b", "x", "content/circulars/x.md", entryRaw("X"), true))
		wantStatus(t, err, 400)
	})
	t.Run("publish through a link on disk", func(t *testing.T) {
		mustDo(t, f.b, alice, "persistEntry", saveDraft("circulars", "e", "content/evil/e.md", entryRaw("E"), true))
		before := ref(t, f.repo, "refs/heads/main")
		_, err := do(t, f.b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "e"})
		wantStatus(t, err, 400, "symbolic link")
		if ref(t, f.repo, "refs/heads/main") != before {
			t.Error("main moved")
		}
		if des, _ := os.ReadDir(outside); len(des) != 0 {
			t.Errorf("written outside the repository: %v", des)
		}
	})
	t.Run("deleteFiles", func(t *testing.T) {
		_, err := do(t, f.b, rita, "deleteFiles", m{"branch": "main", "paths": []string{".git/config"}, "options": m{"commitMessage": "x"}})
		wantStatus(t, err, 400)
		_, err = do(t, f.b, rita, "deleteFiles", m{"branch": "main", "paths": []string{"README.md"}, "options": m{"commitMessage": "x"}})
		wantStatus(t, err, 400)
	})
}

func TestMediaChecks(t *testing.T) {
	f := newFixture(t, baseFiles, false, func(c *GitConfig) { c.MaxMedia = 1000 })
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	pdf := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
	for _, c := range []struct {
		name, path string
		data       []byte
		status     int
	}{
		{"png", "media/a.png", pngBytes, 0},
		{"pdf", "media/a.pdf", pdf, 0},
		{"svg refused", "media/a.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), 415},
		{"exe", "media/a.exe", []byte("MZ\x90\x00"), 415},
		{"html named png", "media/b.png", []byte("<html><script>alert(1)</script></html>"), 415},
		{"pdf named jpg", "media/c.jpg", pdf, 415},
		{"too large", "media/big.png", append(append([]byte{}, pngBytes...), make([]byte, 1000)...), 413},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := m{"path": c.path, "content": b64(c.data), "encoding": "base64"}
			_, err := do(t, f.b, alice, "persistEntry", saveDraft("circulars", "m-"+strings.ReplaceAll(c.name, " ", "-"), "content/circulars/m-"+strings.ReplaceAll(c.name, " ", "-")+".md", entryRaw("M"), true, a))
			if c.status == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantStatus(t, err, c.status, c.path)
			_, err = do(t, f.b, rita, "persistMedia", m{"branch": "main", "asset": a, "options": m{"commitMessage": "x"}})
			wantStatus(t, err, c.status)
		})
	}
}

func TestGitConflicts(t *testing.T) {
	f := newFixture(t, baseFiles, false)
	const path = "content/circulars/old-rule.md"
	// Both open the entry; Alice saves first; Bob's save is refused.
	mustDo(t, f.b, alice, "getEntry", m{"branch": "main", "path": path})
	mustDo(t, f.b, bob, "entriesByFolder", m{"branch": "main", "folder": "content/circulars", "extension": "md", "depth": 1})
	mustDo(t, f.b, alice, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Alice's"), false))
	_, err := do(t, f.b, bob, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Bob's"), false))
	wantStatus(t, err, 409, "Alice Editor changed this entry at 2026-12-02 09:00 UTC since you opened it; reload it")
	tip, _ := f.repo.CommitObject(ref(t, f.repo, "refs/heads/cms/circulars/old-rule"))
	if tip.Author.Email != alice.Email {
		t.Error("Bob's save was committed")
	}
	// Alice saves again: her own last save is her base.
	mustDo(t, f.b, alice, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Alice's 2"), false))
	// Bob reloads the draft, then saves.
	mustDo(t, f.b, bob, "unpublishedEntryDataFile", m{"branch": "main", "collection": "circulars", "slug": "old-rule", "path": path, "id": "x"})
	mustDo(t, f.b, bob, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Bob's"), false))

	// After a restart nobody has a record: a file last changed by someone
	// else is refused, one's own is not.
	b2, err := Git(f.b.cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = do(t, b2, alice, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Alice's 3"), false))
	wantStatus(t, err, 409, "Bob Editor")
	mustDo(t, b2, bob, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Bob's 2"), false))

	// A new entry made again after its draft was deleted has no base.
	mustDo(t, f.b, alice, "persistEntry", saveDraft("news", "again", "content/news/again.md", entryRaw("A"), true))
	mustDo(t, f.b, rita, "deleteUnpublishedEntry", m{"branch": "main", "collection": "news", "slug": "again"})
	mustDo(t, f.b, alice, "persistEntry", saveDraft("news", "again", "content/news/again.md", entryRaw("A2"), true))
	// Editing on after one's draft was deleted is a conflict.
	mustDo(t, f.b, rita, "deleteUnpublishedEntry", m{"branch": "main", "collection": "news", "slug": "again"})
	_, err = do(t, f.b, alice, "persistEntry", saveDraft("news", "again", "content/news/again.md", entryRaw("A3"), false))
	wantStatus(t, err, 409, "deleted")

	// A new entry whose file is already published, or already a draft.
	_, err = do(t, f.b, alice, "persistEntry", saveDraft("news", "n1", "content/news/n1.md", entryRaw("N"), true))
	wantStatus(t, err, 409, "already exists")
	_, err = do(t, f.b, alice, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("N"), true))
	wantStatus(t, err, 409)
}

func TestGitPushRefused(t *testing.T) {
	const path = "content/circulars/old-rule.md"
	prepare := func(t *testing.T, f *fixture) {
		mustDo(t, f.b, alice, "getEntry", m{"branch": "main", "path": path})
		mustDo(t, f.b, alice, "persistEntry", saveDraft("circulars", "old-rule", path, entryRaw("Alice's"), false))
	}
	// remoteCommit commits files straight to the bare remote's main, as
	// another server would push.
	remoteCommit := func(t *testing.T, f *fixture, files map[string]string) {
		t.Helper()
		r, err := git.PlainOpen(f.remoteDir)
		if err != nil {
			t.Fatal(err)
		}
		o := objects{r}
		tip, err := o.tip("refs/heads/main")
		if err != nil {
			t.Fatal(err)
		}
		changes := map[string]*plumbing.Hash{}
		for p, s := range files {
			h, err := o.writeBlob([]byte(s))
			if err != nil {
				t.Fatal(err)
			}
			changes[p] = &h
		}
		th, err := o.apply(tip.TreeHash, changes)
		if err != nil {
			t.Fatal(err)
		}
		c := tip
		c2 := *c
		c2.Hash, c2.TreeHash, c2.ParentHashes, c2.Message = plumbing.ZeroHash, th, []plumbing.Hash{tip.Hash}, "Elsewhere"
		c2.Author.Name = "Other Server"
		h, err := o.writeCommit(&c2)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Storer.SetReference(plumbing.NewHashReference("refs/heads/main", h)); err != nil {
			t.Fatal(err)
		}
	}
	unchanged := func(t *testing.T, f *fixture, before plumbing.Hash) {
		t.Helper()
		if got := ref(t, f.repo, "refs/heads/main"); got != before {
			t.Errorf("main moved from %s to %s", before, got)
		}
		if ref(t, f.repo, "refs/heads/cms/circulars/old-rule") == plumbing.ZeroHash {
			t.Error("the draft is gone")
		}
		if len(f.published) != 0 {
			t.Error("Published was called")
		}
	}

	t.Run("remote moved between fetch and push", func(t *testing.T) {
		f := newFixture(t, baseFiles, true)
		prepare(t, f)
		before := ref(t, f.repo, "refs/heads/main")
		f.b.beforePush = func() { remoteCommit(t, f, map[string]string{"content/news/other.md": "x"}) }
		_, err := do(t, f.b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "old-rule"})
		wantStatus(t, err, 502, "the remote refused the publish: ", "the entry stays unpublished")
		unchanged(t, f, before)
		// Once the race is over, the publish goes through on top.
		f.b.beforePush = nil
		mustDo(t, f.b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "old-rule"})
		if b, err := os.ReadFile(filepath.Join(f.dir, "content/news/other.md")); err != nil || string(b) != "x" {
			t.Errorf("the remote's file is not in the working tree: %q %v", b, err)
		}
		wantClean(t, f.dir)
	})
	t.Run("no such remote repository", func(t *testing.T) {
		f := newFixture(t, baseFiles, true)
		prepare(t, f)
		before := ref(t, f.repo, "refs/heads/main")
		if err := os.RemoveAll(f.remoteDir); err != nil {
			t.Fatal(err)
		}
		_, err := do(t, f.b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "old-rule"})
		wantStatus(t, err, 502, "the remote refused the publish")
		unchanged(t, f, before)
	})
	t.Run("remote changed the same file", func(t *testing.T) {
		f := newFixture(t, baseFiles, true)
		prepare(t, f)
		remoteCommit(t, f, map[string]string{path: entryRaw("Theirs")})
		before := ref(t, f.repo, "refs/heads/main")
		_, err := do(t, f.b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": "old-rule"})
		// The publish would undo their change: a conflict, not a push.
		wantStatus(t, err, 409, "Other Server published a change to "+path)
		if ref(t, f.repo, "refs/heads/cms/circulars/old-rule") == plumbing.ZeroHash {
			t.Error("the draft is gone")
		}
		// main was brought level with the remote (a fast-forward), and
		// the working tree with it.
		if ref(t, f.repo, "refs/heads/main") == before {
			t.Error("main was not fast-forwarded")
		}
		if b, _ := os.ReadFile(filepath.Join(f.dir, path)); string(b) != entryRaw("Theirs") {
			t.Errorf("working tree: %q", b)
		}
	})
}

func TestGitConcurrentDo(t *testing.T) {
	f := newFixture(t, baseFiles, true)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slug := fmt.Sprintf("c%d", i)
			path := "content/circulars/" + slug + ".md"
			who := alice
			if i%2 == 1 {
				who = bob
			}
			if _, err := do(t, f.b, who, "persistEntry", saveDraft("circulars", slug, path, entryRaw(slug), true)); err != nil {
				errs <- err
				return
			}
			if _, err := do(t, f.b, who, "entriesByFolder", m{"branch": "main", "folder": "content/circulars", "extension": "md", "depth": 1}); err != nil {
				errs <- err
				return
			}
			if _, err := do(t, f.b, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": slug}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := mustDo(t, f.b, alice, "entriesByFolder", m{"branch": "main", "folder": "content/circulars", "extension": "md", "depth": 1})
	if len(got.([]any)) != 9 {
		t.Errorf("want 9 published circulars, got %d", len(got.([]any)))
	}
	remote, _ := git.PlainOpen(f.remoteDir)
	if ref(t, remote, "refs/heads/main") != ref(t, f.repo, "refs/heads/main") {
		t.Error("the remote lags")
	}
	wantClean(t, f.dir)
}

func TestGitLockHonoursContext(t *testing.T) {
	f := newFixture(t, baseFiles, false)
	f.b.lock <- struct{}{} // someone holds the lock
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := f.b.Do(ctx, alice, cms.Request{Action: "info", Params: json.RawMessage(`{}`)})
	if err != context.Canceled {
		t.Errorf("want context.Canceled, got %v", err)
	}
	<-f.b.lock
}

func TestGitConstructor(t *testing.T) {
	dir, repo := newClone(t, baseFiles)
	if _, err := Git(GitConfig{Dir: dir}); err == nil {
		t.Error("no validator: want an error")
	}
	if _, err := Git(GitConfig{Dir: dir, Validate: &fakeValidator{}, Remote: "origin"}); err == nil {
		t.Error("no such remote: want an error")
	}
	wt, _ := repo.Worktree()
	if err := wt.Checkout(&git.CheckoutOptions{Branch: "refs/heads/other", Create: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := Git(GitConfig{Dir: dir, Validate: &fakeValidator{}}); err == nil || !strings.Contains(err.Error(), "checked out") {
		t.Errorf("another branch checked out: %v", err)
	}
}

// slowValidator holds the first check of a file holding hold until
// released, so a test can act while it runs.
type slowValidator struct {
	hold    string
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func (v *slowValidator) Validate(_ context.Context, changes map[string][]byte) error {
	for _, b := range changes {
		if strings.Contains(string(b), v.hold) {
			v.once.Do(func() { close(v.started); <-v.release })
		}
	}
	return nil
}

// TestGitSaveWhileChecked: the loader's check runs without the lock, so
// others read and save meanwhile, and the checked save is then refused
// as a conflict rather than written over theirs.
func TestGitSaveWhileChecked(t *testing.T) {
	for _, tc := range []struct {
		name     string
		newEntry bool
		path     string
		draft    bool // a draft exists before both saves
	}{
		{"existing entry", false, "content/circulars/old-rule.md", false},
		{"existing draft", false, "content/circulars/old-rule.md", true},
		{"new entry", true, "content/news/fresh.md", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &slowValidator{hold: "Alice's", started: make(chan struct{}), release: make(chan struct{})}
			f := newFixture(t, baseFiles, false, func(c *GitConfig) { c.Validate = v })
			collection, slug := "circulars", "old-rule"
			if tc.newEntry {
				collection, slug = "news", "fresh"
			} else {
				mustDo(t, f.b, alice, "getEntry", m{"branch": "main", "path": tc.path})
				mustDo(t, f.b, bob, "getEntry", m{"branch": "main", "path": tc.path})
			}
			if tc.draft {
				mustDo(t, f.b, alice, "persistEntry", saveDraft(collection, slug, tc.path, entryRaw("Alice first"), false))
				mustDo(t, f.b, bob, "unpublishedEntryDataFile", m{"branch": "main", "collection": collection, "slug": slug, "path": tc.path, "id": "x"})
			}
			done := make(chan error)
			go func() {
				_, err := do(t, f.b, alice, "persistEntry", saveDraft(collection, slug, tc.path, entryRaw("Alice's"), tc.newEntry))
				done <- err
			}()
			<-v.started
			// Alice's save is being checked: Bob reads and saves meanwhile.
			mustDo(t, f.b, bob, "entriesByFolder", m{"branch": "main", "folder": "content/news", "extension": "md", "depth": 1})
			mustDo(t, f.b, bob, "persistEntry", saveDraft(collection, slug, tc.path, entryRaw("Bob's"), tc.newEntry))
			close(v.release)
			wantStatus(t, <-done, 409, "while yours was being checked", "reload it")
			tip, err := f.repo.CommitObject(ref(t, f.repo, "refs/heads/cms/"+collection+"/"+slug))
			if err != nil {
				t.Fatal(err)
			}
			if tip.Author.Email != bob.Email {
				t.Errorf("the draft's tip is %s's, want Bob's", tip.Author.Name)
			}
		})
	}
}
