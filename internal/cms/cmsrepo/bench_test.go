package cmsrepo

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// benchRepo is a clone of n content files (built at object level, then
// checked out) with a bare remote, and its backend.
func benchRepo(b *testing.B, n int) *GitBackend {
	b.Helper()
	dir := b.TempDir()
	repo, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	if err != nil {
		b.Fatal(err)
	}
	o := objects{repo}
	changes := make(map[string]*plumbing.Hash, n)
	for i := range n {
		h, err := o.writeBlob([]byte(entryRaw(fmt.Sprintf("Circular %d", i))))
		if err != nil {
			b.Fatal(err)
		}
		changes[fmt.Sprintf("content/circulars/c%05d.md", i)] = &h
	}
	th, err := o.apply(plumbing.ZeroHash, changes)
	if err != nil {
		b.Fatal(err)
	}
	ch, err := o.writeCommit(&object.Commit{Author: importer, Committer: importer, Message: "Import", TreeHash: th})
	if err != nil {
		b.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), ch)); err != nil {
		b.Fatal(err)
	}
	wt, _ := repo.Worktree()
	if err := wt.Reset(&git.ResetOptions{Commit: ch, Mode: git.HardReset}); err != nil {
		b.Fatal(err)
	}
	newBare(b, repo)
	g, err := Git(GitConfig{Dir: dir, Remote: "origin", Validate: &fakeValidator{}, Now: func() time.Time { return importer.When }})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// What it costs (2 shared cores, 10,000 files in one folder): a save
// (getEntry + persistEntry) about 0.1 s, a publish with its fetch and
// push to a local bare remote about 0.35-0.5 s. Both are dominated by
// decoding, diffing and re-encoding the one 10,000-entry tree object
// (about 0.5 MB) along the path, and the push's walk of what the remote
// has; nothing is proportional to a checkout of the working tree.

// BenchmarkPersistEntry is an editor's save of an existing entry as a
// new draft, on a repository of 10,000 content files.
func BenchmarkPersistEntry(b *testing.B) {
	g := benchRepo(b, 10000)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		slug := fmt.Sprintf("c%05d", i%10000)
		path := "content/circulars/" + slug + ".md"
		mustDo(b, g, alice, "getEntry", m{"branch": "main", "path": path})
		mustDo(b, g, alice, "persistEntry", saveDraft("circulars", slug, path, entryRaw(fmt.Sprintf("Edit %d", i)), false))
	}
}

// BenchmarkPublish is a reviewer's publish of a one-file draft, pushed to
// a bare remote, on a repository of 10,000 content files.
func BenchmarkPublish(b *testing.B) {
	g := benchRepo(b, 10000)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		slug := fmt.Sprintf("c%05d", i%10000)
		path := "content/circulars/" + slug + ".md"
		mustDo(b, g, alice, "getEntry", m{"branch": "main", "path": path})
		mustDo(b, g, alice, "persistEntry", saveDraft("circulars", slug, path, entryRaw(fmt.Sprintf("Edit %d", i)), false))
		b.StartTimer()
		mustDo(b, g, rita, "publishUnpublishedEntry", m{"branch": "main", "collection": "circulars", "slug": slug})
	}
}
