package cmsrepo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/cms"
)

func newFiles(t *testing.T) (*FilesBackend, string, *fakeValidator) {
	t.Helper()
	dir := t.TempDir()
	for p, s := range baseFiles {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := &fakeValidator{}
	b, err := Files(FilesConfig{Dir: dir, Validate: v})
	if err != nil {
		t.Fatal(err)
	}
	return b, dir, v
}

func TestFiles(t *testing.T) {
	b, dir, v := newFiles(t)
	me := cms.Person{Name: "Local Editor", Email: "me@example.org"}

	if _, err := do(t, b, cms.Person{}, "getEntry", m{"path": "content/news/n1.md"}); err != nil {
		wantStatus(t, err, 403)
	} else {
		t.Error("no person: want 403")
	}
	if got := mustDo(t, b, me, "info", nil).(map[string]any); got["type"] != "local_fs" {
		t.Errorf("info: %v", got)
	}
	got := mustDo(t, b, me, "entriesByFolder", m{"folder": "content", "extension": ".md", "depth": 2})
	if len(got.([]any)) != 2 {
		t.Errorf("entriesByFolder depth 2: %v", got)
	}
	got = mustDo(t, b, me, "entriesByFolder", m{"folder": "content", "extension": ".md", "depth": 1})
	if len(got.([]any)) != 0 {
		t.Errorf("entriesByFolder depth 1: %v", got)
	}
	got = mustDo(t, b, me, "getEntry", m{"path": "content/news/n1.md"})
	e := got.(map[string]any)
	// The id is the git blob id, as in git mode.
	if e["data"] != "---\ntitle: N1\n---\n" || e["file"].(map[string]any)["id"] != plumbing.ComputeHash(plumbing.BlobObject, []byte("---\ntitle: N1\n---\n")).String() {
		t.Errorf("getEntry: %v", e)
	}
	got = mustDo(t, b, me, "getEntry", m{"path": "content/news/none.md"})
	if diff := cmp.Diff(m{"data": nil, "file": m{"path": "content/news/none.md", "id": nil}}, got); diff != "" {
		t.Errorf("getEntry missing: %s", diff)
	}

	// A save writes the file (and its media), after validation.
	p := saveDraft("news", "n2", "content/news/n2.md", entryRaw("N2"), true, pngAsset("media/n2.png"))
	p["options"].(m)["useWorkflow"] = false
	mustDo(t, b, me, "persistEntry", p)
	if data, _ := os.ReadFile(filepath.Join(dir, "content/news/n2.md")); string(data) != entryRaw("N2") {
		t.Errorf("written: %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "media/n2.png")); !bytes.Equal(data, pngBytes) {
		t.Error("media not written")
	}
	if len(v.calls) != 1 || len(v.calls[0]) != 2 {
		t.Errorf("validator calls: %d", len(v.calls))
	}
	_, err := do(t, b, me, "persistEntry", saveDraft("news", "bad", "content/news/bad.md", "---\ndate: 2024-13-01\n---\n", true))
	wantStatus(t, err, 422, "content/news/bad.md:2: publishedDate")
	if _, err := os.Stat(filepath.Join(dir, "content/news/bad.md")); !os.IsNotExist(err) {
		t.Error("an invalid file was written")
	}

	// Media.
	got = mustDo(t, b, me, "persistMedia", m{"asset": pngAsset("media/up.png"), "options": m{"commitMessage": "x"}})
	if got.(map[string]any)["path"] != "media/up.png" {
		t.Errorf("persistMedia: %v", got)
	}
	if got := mustDo(t, b, me, "getMedia", m{"mediaFolder": "media"}); len(got.([]any)) != 3 {
		t.Errorf("getMedia: %v", got)
	}
	_, err = do(t, b, me, "persistMedia", m{"asset": m{"path": "media/x.svg", "content": "PHN2Zz4=", "encoding": "base64"}, "options": m{}})
	wantStatus(t, err, 415)
	_, err = do(t, b, me, "getMediaFile", m{"path": "media/none.png"})
	wantStatus(t, err, 404)

	// Deletes.
	mustDo(t, b, me, "deleteFiles", m{"paths": []string{"media/up.png", "content/news/n2.md"}, "options": m{"commitMessage": "x"}})
	if _, err := os.Stat(filepath.Join(dir, "media/up.png")); !os.IsNotExist(err) {
		t.Error("not deleted")
	}
	mustDo(t, b, me, "deleteFile", m{"path": "media/n2.png", "options": m{"commitMessage": "x"}})

	// The workflow's list is empty, so a config with it still loads.
	if got := mustDo(t, b, me, "unpublishedEntries", m{}); len(got.([]any)) != 0 {
		t.Errorf("unpublishedEntries: %v", got)
	}
	_, err = do(t, b, me, "unpublishedEntry", m{"id": "news/x"})
	wantStatus(t, err, 404)
	_, err = do(t, b, me, "publishUnpublishedEntry", m{"collection": "news", "slug": "x"})
	wantStatus(t, err, 400)
}

func TestFilesPathsRefused(t *testing.T) {
	b, dir, _ := newFiles(t)
	me := cms.Person{Name: "Local Editor", Email: "me@example.org"}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "content", "evil")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "content", "news", "link.md")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"../x.md", "/etc/passwd", "content/../.git/config", ".git/config", `content\..\x.md`, "content/a\x00.md",
		"content/evil/secret.md", "content/news/link.md", "README.md",
	} {
		t.Run(p, func(t *testing.T) {
			_, err := do(t, b, me, "getEntry", m{"path": p})
			wantStatus(t, err, 400)
			_, err = do(t, b, me, "persistEntry", saveDraft("news", "x", p, entryRaw("X"), true))
			wantStatus(t, err, 400)
			_, err = do(t, b, me, "deleteFiles", m{"paths": []string{p}, "options": m{}})
			wantStatus(t, err, 400)
		})
	}
	_, err := do(t, b, me, "persistEntry", saveDraft("news", "x", "content/news/x.md", entryRaw("X"), true, pngAsset("content/x.png")))
	wantStatus(t, err, 400)
	_, err = do(t, b, me, "entriesByFolder", m{"folder": "content/evil", "extension": ".md", "depth": 1})
	wantStatus(t, err, 400)
	// The listing leaves links out.
	got := mustDo(t, b, me, "entriesByFolder", m{"folder": "content/news", "extension": ".md", "depth": 1})
	if len(got.([]any)) != 1 {
		t.Errorf("entriesByFolder listed a link: %v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.md")); string(data) != "secret" {
		t.Error("a file outside was changed")
	}
}
