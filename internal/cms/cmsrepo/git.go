package cmsrepo

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"regpulse/internal/cms"
)

// GitConfig configures the server's backend over its own clone.
type GitConfig struct {
	Dir        string // the clone's root: a non-bare repository with Branch checked out
	Branch     string // the published branch, "main" when empty
	Remote     string // the remote a publish is pushed to ("origin"); "" pushes nothing
	ContentDir string // "content" when empty
	MediaDir   string // "media" when empty
	MaxMedia   int64  // the largest media file in bytes, 10 MB when 0
	Validate   cms.Validator
	// Published is called, outside the lock but before Do answers, after
	// a change reached Branch (and the remote), with the repo-relative
	// paths that changed: serve rebuilds their pages. It should start the
	// rebuild and return, or the reviewer waits for it.
	Published func(paths []string)
	Now       func() time.Time
	Log       *slog.Logger
}

// GitBackend answers the proxy protocol over a git clone with Decap's
// editorial workflow: an editor's saves are commits on the draft branch
// cms/<collection>/<slug>, a reviewer publishes the draft as one commit
// on Branch and pushes it.
//
// Why go-git: a pure Go library runs where no git binary is (a Lambda, a
// distroless container), reads no user git config and runs no hooks, and
// lets a save be an object-level commit (new blobs, the trees along their
// paths, a commit, a ref) with no checkout, so a repository of 100,000
// files costs a save nothing more than one of 100.
//
// Where a draft's status lives: in the branch's description in the
// clone's .git/config (branch.cms/x/y.description = "decap-cms/draft"),
// as decap-server keeps it: it needs no object, it goes when the branch
// goes, and `git config` shows it to an operator.
//
// Drafts are not pushed: the remote is what deploys (and may be a public
// repository), so an unreviewed draft of compliance text stays on the
// server; a branch pushed there could also start a branch deploy on the
// static host. The clone must therefore sit on a persistent disk (a
// volume that is backed up); a lost disk loses drafts, never published
// content, which is on the remote.
type GitBackend struct {
	cfg    GitConfig
	l      layout
	root   string // Dir with its links resolved
	main   plumbing.ReferenceName
	repo   *git.Repository
	o      objects
	lock   chan struct{} // one git operation at a time
	seen   *seenBlobs
	remote string

	// beforePush, when set (tests), runs between the publish commit and
	// its push: the moment another server could push first.
	beforePush func()
}

// Git opens the clone at cfg.Dir.
func Git(cfg GitConfig) (*GitBackend, error) {
	if cfg.Branch == "" {
		cfg.Branch = "main"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	root, l, err := open(cfg.Dir, cfg.ContentDir, cfg.MediaDir, cfg.MaxMedia, cfg.Validate, &cfg.Log)
	if err != nil {
		return nil, err
	}
	repo, err := git.PlainOpen(root)
	if err != nil {
		return nil, fmt.Errorf("cms: open %s: %w", root, err)
	}
	main := plumbing.NewBranchReferenceName(cfg.Branch)
	head, err := repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return nil, fmt.Errorf("cms: %s: %w", root, err)
	}
	// A publish writes its files into the working tree; that is right
	// only when the published branch is the one checked out.
	if head.Type() != plumbing.SymbolicReference || head.Target() != main {
		return nil, fmt.Errorf("cms: %s must have %s checked out (HEAD is %s)", root, cfg.Branch, head)
	}
	if _, err := repo.Storer.Reference(main); err != nil {
		return nil, fmt.Errorf("cms: %s: branch %s: %w", root, cfg.Branch, err)
	}
	if cfg.Remote != "" {
		if _, err := repo.Remote(cfg.Remote); err != nil {
			return nil, fmt.Errorf("cms: %s: remote %q: %w", root, cfg.Remote, err)
		}
		useInProcessFileTransport()
	}
	return &GitBackend{
		cfg: cfg, l: l, root: root, main: main, repo: repo, o: objects{repo},
		lock: make(chan struct{}, 1), seen: newSeenBlobs(), remote: cfg.Remote,
	}, nil
}

// Do answers one action for who.
func (g *GitBackend) Do(ctx context.Context, who cms.Person, req cms.Request) (any, error) {
	if who.Role != cms.RoleEditor && who.Role != cms.RoleReviewer {
		return nil, cms.Errorf(http.StatusForbidden, "you have no role in the CMS: an operator grants editor or reviewer")
	}
	p, err := parseParams(req)
	if err != nil {
		return nil, err
	}
	if p.Branch != "" && p.Branch != g.cfg.Branch {
		return nil, cms.Errorf(http.StatusBadRequest, "branch %q: this server publishes to %q", p.Branch, g.cfg.Branch)
	}
	select {
	case g.lock <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var published []string
	defer func() {
		<-g.lock
		if len(published) > 0 && g.cfg.Published != nil {
			g.cfg.Published(published)
		}
	}()
	// Opened afresh for each operation: an operator's git pull in the
	// clone adds packs and moves refs that a long-lived handle would not
	// see. Opening reads only .git/config.
	repo, err := git.PlainOpen(g.root)
	if err != nil {
		return nil, err
	}
	g.repo, g.o = repo, objects{repo}
	switch req.Action {
	case "info":
		return map[string]any{"repo": filepath.Base(g.root), "publish_modes": []string{"editorial_workflow"}, "type": "local_git"}, nil
	case "entriesByFolder":
		return g.entriesByFolder(who, p)
	case "entriesByFiles":
		return g.entriesByFiles(who, p.Files)
	case "getEntry":
		es, err := g.entriesByFiles(who, []fileRef{{Path: p.Path}})
		if err != nil {
			return nil, err
		}
		return es[0], nil
	case "getMedia":
		return g.getMedia(p)
	case "getMediaFile":
		return g.getMediaFile(p)
	case "getDeployPreview":
		return nil, nil
	case "persistEntry":
		return g.persistEntry(ctx, who, p)
	case "persistMedia":
		return g.persistMedia(ctx, who, p, &published)
	case "deleteFile":
		return g.deleteFiles(ctx, who, []string{p.Path}, &published)
	case "deleteFiles":
		return g.deleteFiles(ctx, who, p.Paths, &published)
	case "unpublishedEntries":
		return g.unpublishedEntries()
	case "unpublishedEntry":
		return g.unpublishedEntry(p)
	case "unpublishedEntryDataFile":
		return g.unpublishedEntryDataFile(who, p)
	case "unpublishedEntryMediaFile":
		return g.unpublishedEntryMediaFile(p)
	case "deleteUnpublishedEntry":
		return g.deleteUnpublishedEntry(who, p)
	case "updateUnpublishedEntryStatus":
		return g.updateStatus(who, p)
	case "publishUnpublishedEntry":
		return g.publish(ctx, who, p, &published)
	}
	return nil, cms.Errorf(http.StatusBadRequest, "unknown action %q", req.Action)
}

func (g *GitBackend) mainTip() (*object.Commit, *object.Tree, error) {
	c, err := g.o.tip(g.main)
	if err == nil && c == nil {
		err = fmt.Errorf("branch %s is gone", g.cfg.Branch)
	}
	if err != nil {
		return nil, nil, err
	}
	t, err := c.Tree()
	return c, t, err
}

func (g *GitBackend) entriesByFolder(who cms.Person, p *params) ([]entryFile, error) {
	if err := g.l.folder(p.Folder, areaContent); err != nil {
		return nil, err
	}
	_, t, err := g.mainTip()
	if err != nil {
		return nil, err
	}
	paths, err := g.o.list(t, p.Folder, p.Extension, p.Depth)
	if err != nil {
		return nil, err
	}
	paths = newest(paths, MaxListed)
	refs := make([]fileRef, len(paths))
	for i, p := range paths {
		refs[i] = fileRef{Path: p}
	}
	return g.readEntries(who, t, refs)
}

func (g *GitBackend) entriesByFiles(who cms.Person, files []fileRef) ([]entryFile, error) {
	for _, f := range files {
		if err := g.l.file(f.Path, areaContent); err != nil {
			return nil, err
		}
	}
	_, t, err := g.mainTip()
	if err != nil {
		return nil, err
	}
	return g.readEntries(who, t, files)
}

// readEntries reads files from t and remembers, for who, the blob each
// was given as: the base of their next save.
func (g *GitBackend) readEntries(who cms.Person, t *object.Tree, files []fileRef) ([]entryFile, error) {
	out := make([]entryFile, 0, len(files))
	for _, f := range files {
		h, data, err := g.o.file(t, f.Path)
		if err != nil {
			return nil, err
		}
		e := entryFile{File: entryMeta{Path: f.Path, Label: f.Label}}
		g.seen.remember(who, f.Path, h)
		if !h.IsZero() {
			s, id := string(data), h.String()
			e.Data, e.File.ID = &s, &id
		}
		out = append(out, e)
	}
	return out, nil
}

func (g *GitBackend) getMedia(p *params) ([]mediaFile, error) {
	if err := g.l.folder(p.MediaFolder, areaMedia); err != nil {
		return nil, err
	}
	_, t, err := g.mainTip()
	if err != nil {
		return nil, err
	}
	paths, err := g.o.list(t, p.MediaFolder, "", 1)
	if err != nil {
		return nil, err
	}
	out := make([]mediaFile, 0, len(paths))
	for _, mp := range paths {
		h, data, err := g.o.file(t, mp)
		if err != nil {
			return nil, err
		}
		out = append(out, newMediaFile(mp, h.String(), data))
	}
	return out, nil
}

func (g *GitBackend) getMediaFile(p *params) (mediaFile, error) {
	if err := g.l.file(p.Path, areaMedia); err != nil {
		return mediaFile{}, err
	}
	_, t, err := g.mainTip()
	if err != nil {
		return mediaFile{}, err
	}
	return g.mediaFrom(t, p.Path)
}

func (g *GitBackend) mediaFrom(t *object.Tree, p string) (mediaFile, error) {
	h, data, err := g.o.file(t, p)
	if err != nil {
		return mediaFile{}, err
	}
	if h.IsZero() {
		return mediaFile{}, cms.Errorf(http.StatusNotFound, "%s: no such file", p)
	}
	return newMediaFile(p, h.String(), data), nil
}

// draftRef is the branch of an entry's draft, as Decap names it.
func draftRef(collection, slug string) (plumbing.ReferenceName, error) {
	bad := func(what, v string) error {
		return cms.Errorf(http.StatusBadRequest, "%s %q: not a valid name", what, v)
	}
	if collection == "" || strings.Contains(collection, "/") || strings.ContainsAny(collection, "\\\x00") {
		return "", bad("collection", collection)
	}
	if slug == "" || strings.ContainsAny(slug, "\\\x00") {
		return "", bad("slug", slug)
	}
	ref := plumbing.NewBranchReferenceName("cms/" + collection + "/" + slug)
	if ref.Validate() != nil {
		return "", bad("slug", slug)
	}
	return ref, nil
}

// draft is an entry's draft: its branch, tip, where it left main, and
// the files it changes.
type draft struct {
	ref        plumbing.ReferenceName
	tip, base  *object.Commit
	tipTree    *object.Tree
	baseTree   *object.Tree
	changes    []change
	collection string
	slug       string
}

// loadDraft reads the draft of collection/slug; nil when there is none.
func (g *GitBackend) loadDraft(collection, slug string) (*draft, error) {
	ref, err := draftRef(collection, slug)
	if err != nil {
		return nil, err
	}
	tip, err := g.o.tip(ref)
	if err != nil || tip == nil {
		return nil, err
	}
	mainC, _, err := g.mainTip()
	if err != nil {
		return nil, err
	}
	d := &draft{ref: ref, tip: tip, collection: collection, slug: slug}
	if d.base, err = g.o.base(tip, mainC); err != nil {
		return nil, err
	}
	if d.tipTree, err = tip.Tree(); err != nil {
		return nil, err
	}
	if d.baseTree, err = d.base.Tree(); err != nil {
		return nil, err
	}
	if d.changes, err = g.o.diff(d.baseTree, d.tipTree); err != nil {
		return nil, err
	}
	return d, nil
}

func (g *GitBackend) mustDraft(collection, slug string) (*draft, error) {
	d, err := g.loadDraft(collection, slug)
	if err == nil && d == nil {
		err = cms.Errorf(http.StatusNotFound, "%s/%s: no unpublished entry", collection, slug)
	}
	return d, err
}

// workflowKey is collection and slug from params: id ("collection/slug",
// as unpublishedEntries answers) or the two fields.
func workflowKey(p *params) (string, string) {
	if p.ID != "" && p.Collection == "" {
		c, s, _ := strings.Cut(p.ID, "/")
		return c, s
	}
	return p.Collection, p.Slug
}

func (g *GitBackend) unpublishedEntries() ([]string, error) {
	refs, err := g.repo.References()
	if err != nil {
		return nil, err
	}
	out := []string{}
	err = refs.ForEach(func(r *plumbing.Reference) error {
		if name := r.Name(); name.IsBranch() && strings.HasPrefix(name.Short(), "cms/") {
			out = append(out, strings.TrimPrefix(name.Short(), "cms/"))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func (g *GitBackend) unpublishedEntry(p *params) (*unpublishedEntry, error) {
	c, s := workflowKey(p)
	d, err := g.mustDraft(c, s)
	if err != nil {
		return nil, err
	}
	status, err := g.status(d.ref, p.CMSLabelPrefix)
	if err != nil {
		return nil, err
	}
	ue := &unpublishedEntry{
		Collection: c, Slug: s, Status: status, Diffs: []diffFile{},
		UpdatedAt:         d.tip.Committer.When.UTC().Format(time.RFC3339),
		PullRequestAuthor: d.tip.Author.Name,
	}
	for _, ch := range d.changes {
		if ch.to.IsZero() {
			continue // a deletion has nothing to show
		}
		ue.Diffs = append(ue.Diffs, diffFile{ID: ch.to.String(), Path: ch.path, NewFile: ch.from.IsZero()})
	}
	return ue, nil
}

func (g *GitBackend) unpublishedEntryDataFile(who cms.Person, p *params) (any, error) {
	if err := g.l.file(p.Path, areaContent); err != nil {
		return nil, err
	}
	d, err := g.mustDraft(p.Collection, p.Slug)
	if err != nil {
		return nil, err
	}
	h, data, err := g.o.file(d.tipTree, p.Path)
	if err != nil {
		return nil, err
	}
	if h.IsZero() {
		return nil, cms.Errorf(http.StatusNotFound, "%s: not in the draft of %s/%s", p.Path, p.Collection, p.Slug)
	}
	g.seen.remember(who, p.Path, h)
	return map[string]string{"data": string(data)}, nil
}

func (g *GitBackend) unpublishedEntryMediaFile(p *params) (mediaFile, error) {
	if err := g.l.file(p.Path, areaMedia); err != nil {
		return mediaFile{}, err
	}
	d, err := g.mustDraft(p.Collection, p.Slug)
	if err != nil {
		return mediaFile{}, err
	}
	return g.mediaFrom(d.tipTree, p.Path)
}

// status is a draft's workflow status, "draft" when none was recorded.
func (g *GitBackend) status(ref plumbing.ReferenceName, prefix string) (string, error) {
	cfg, err := g.repo.Config()
	if err != nil {
		return "", err
	}
	if b := cfg.Branches[ref.Short()]; b != nil && b.Description != "" {
		return labelToStatus(strings.TrimSpace(b.Description), prefix), nil
	}
	return statusDraft, nil
}

func (g *GitBackend) setStatus(ref plumbing.ReferenceName, label string) error {
	cfg, err := g.repo.Config()
	if err != nil {
		return err
	}
	name := ref.Short()
	b := cfg.Branches[name]
	if b == nil {
		b = &config.Branch{Name: name}
		cfg.Branches[name] = b
	}
	b.Description = label
	return g.repo.SetConfig(cfg)
}

func (g *GitBackend) dropStatus(ref plumbing.ReferenceName) error {
	cfg, err := g.repo.Config()
	if err != nil {
		return err
	}
	if _, ok := cfg.Branches[ref.Short()]; !ok {
		return nil
	}
	delete(cfg.Branches, ref.Short())
	return g.repo.SetConfig(cfg)
}

func (g *GitBackend) updateStatus(who cms.Person, p *params) (message, error) {
	switch p.NewStatus {
	case statusDraft, statusPendingReview:
	case statusPendingPublish:
		if who.Role != cms.RoleReviewer {
			return message{}, cms.Errorf(http.StatusForbidden, "only a reviewer marks an entry ready to publish")
		}
	default:
		return message{}, cms.Errorf(http.StatusBadRequest, "status %q: want draft, pending_review or pending_publish", p.NewStatus)
	}
	d, err := g.mustDraft(p.Collection, p.Slug)
	if err != nil {
		return message{}, err
	}
	label := statusToLabel(p.NewStatus, p.CMSLabelPrefix)
	if err := g.setStatus(d.ref, label); err != nil {
		return message{}, err
	}
	return message{Message: fmt.Sprintf("%s description was updated to %s", d.ref.Short(), label)}, nil
}

func (g *GitBackend) deleteUnpublishedEntry(who cms.Person, p *params) (message, error) {
	d, err := g.mustDraft(p.Collection, p.Slug)
	if err != nil {
		return message{}, err
	}
	if who.Role != cms.RoleReviewer {
		commits, err := g.o.since(d.tip, d.base)
		if err != nil {
			return message{}, err
		}
		for _, c := range commits {
			if !isAuthor(who, c) {
				return message{}, cms.Errorf(http.StatusForbidden, "%s wrote part of this draft: only a reviewer may delete it", c.Author.Name)
			}
		}
	}
	if err := g.dropDraft(d.ref); err != nil {
		return message{}, err
	}
	return message{Message: "deleted branch: " + d.ref.Short()}, nil
}

func (g *GitBackend) dropDraft(ref plumbing.ReferenceName) error {
	if err := g.repo.Storer.RemoveReference(ref); err != nil {
		return err
	}
	return g.dropStatus(ref)
}

// accountTrailer names, in a draft commit's message, the account that
// wrote it: the two-person rule holds even when the account's e-mail or
// name has changed since.
const accountTrailer = "RegPulse-Account: "

// withAccount adds who's account trailer to a commit message.
func withAccount(msg string, who cms.Person) string {
	if who.ID == "" {
		return msg
	}
	return strings.TrimRight(msg, "\n") + "\n\n" + accountTrailer + who.ID + "\n"
}

// isAuthor tells whether who wrote c: by the account trailer, else (a
// commit made outside the CMS) by e-mail, or by name for accounts
// without one.
func isAuthor(who cms.Person, c *object.Commit) bool {
	for _, line := range strings.Split(c.Message, "\n") {
		if id, ok := strings.CutPrefix(line, accountTrailer); ok && who.ID != "" && strings.TrimSpace(id) == who.ID {
			return true
		}
	}
	if who.Email != "" {
		return strings.EqualFold(c.Author.Email, who.Email)
	}
	return c.Author.Email == "" && c.Author.Name == who.Name
}

func (g *GitBackend) sig(who cms.Person) object.Signature {
	return object.Signature{Name: who.Name, Email: who.Email, When: g.cfg.Now()}
}

// useInProcessFileTransport serves file:// and plain-path remotes with
// go-git's own server instead of running git-upload-pack and
// git-receive-pack, so a local bare repository works with no git binary.
func useInProcessFileTransport() {
	installFileTransport.Do(func() {
		fileTransport()
	})
}
