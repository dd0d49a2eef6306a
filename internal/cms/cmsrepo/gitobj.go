package cmsrepo

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"regpulse/internal/cms"
)

// Git at object level: blobs and trees are read from a commit and a new
// commit is built by replacing the blobs along the changed paths only, so
// a save costs the depth of the path, not the size of the repository, and
// no branch is ever checked out.

// objects wraps a repository's object store.
type objects struct {
	r *git.Repository
}

// tip is the commit a branch points at, nil when there is no such branch.
func (o objects) tip(branch plumbing.ReferenceName) (*object.Commit, error) {
	ref, err := o.r.Storer.Reference(branch)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return o.r.CommitObject(ref.Hash())
}

// entry finds the tree entry at p, refusing a symbolic link anywhere on
// the way (400): a link in the tree could point a later checkout outside
// the content. nil when p does not exist or a file sits where a folder
// should be.
func (o objects) entry(t *object.Tree, p string) (*object.TreeEntry, error) {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		var e *object.TreeEntry
		for j := range t.Entries {
			if t.Entries[j].Name == seg {
				e = &t.Entries[j]
				break
			}
		}
		switch {
		case e == nil:
			return nil, nil
		case e.Mode == filemode.Symlink:
			return nil, cms.Errorf(http.StatusBadRequest, "path %q: goes through a symbolic link", p)
		case i == len(segs)-1:
			return e, nil
		case e.Mode != filemode.Dir:
			return nil, nil
		}
		var err error
		if t, err = object.GetTree(o.r.Storer, e.Hash); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// file is the blob at p: its id and bytes, or a zero hash when p is not a
// file in t.
func (o objects) file(t *object.Tree, p string) (plumbing.Hash, []byte, error) {
	e, err := o.entry(t, p)
	if err != nil || e == nil || !e.Mode.IsFile() {
		return plumbing.ZeroHash, nil, err
	}
	b, err := o.blob(e.Hash)
	return e.Hash, b, err
}

// blobID is the blob at p, zero when p is not a file in t.
func (o objects) blobID(t *object.Tree, p string) (plumbing.Hash, error) {
	e, err := o.entry(t, p)
	if err != nil || e == nil || !e.Mode.IsFile() {
		return plumbing.ZeroHash, err
	}
	return e.Hash, nil
}

func (o objects) blob(h plumbing.Hash) ([]byte, error) {
	b, err := object.GetBlob(o.r.Storer, h)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// list is the files under folder ending in ext, depth levels deep (1:
// the folder's own files), as decap-server's listRepoFiles. Symbolic
// links are left out.
func (o objects) list(t *object.Tree, folder, ext string, depth int) ([]string, error) {
	e, err := o.entry(t, folder)
	if err != nil || e == nil || e.Mode != filemode.Dir {
		return nil, err
	}
	var out []string
	var walk func(h plumbing.Hash, dir string, depth int) error
	walk = func(h plumbing.Hash, dir string, depth int) error {
		if depth <= 0 {
			return nil
		}
		t, err := object.GetTree(o.r.Storer, h)
		if err != nil {
			return err
		}
		for _, e := range t.Entries {
			p := dir + "/" + e.Name
			switch {
			case e.Mode == filemode.Dir:
				if err := walk(e.Hash, p, depth-1); err != nil {
					return err
				}
			case e.Mode.IsFile() && strings.HasSuffix(e.Name, ext):
				out = append(out, p)
			}
		}
		return nil
	}
	return out, walk(e.Hash, folder, depth)
}

func (o objects) writeBlob(data []byte) (plumbing.Hash, error) {
	obj := o.r.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return o.r.Storer.SetEncodedObject(obj)
}

// apply builds the tree that is root with changes made: path → new blob
// id, nil to delete. Only the trees along the changed paths are written;
// folders left empty disappear, as git has no empty folders.
func (o objects) apply(root plumbing.Hash, changes map[string]*plumbing.Hash) (plumbing.Hash, error) {
	h, _, err := o.applyAt(root, "", changes)
	return h, err
}

func (o objects) applyAt(h plumbing.Hash, dir string, changes map[string]*plumbing.Hash) (plumbing.Hash, bool, error) {
	var entries []object.TreeEntry
	if !h.IsZero() {
		t, err := object.GetTree(o.r.Storer, h)
		if err != nil {
			return h, false, err
		}
		entries = append(entries, t.Entries...)
	}
	leaves := map[string]*plumbing.Hash{}
	subs := map[string]map[string]*plumbing.Hash{}
	for p, c := range changes {
		first, rest, deeper := strings.Cut(p, "/")
		if !deeper {
			leaves[first] = c
			continue
		}
		if subs[first] == nil {
			subs[first] = map[string]*plumbing.Hash{}
		}
		subs[first][rest] = c
	}
	find := func(name string) int {
		for i := range entries {
			if entries[i].Name == name {
				return i
			}
		}
		return -1
	}
	remove := func(i int) { entries = append(entries[:i], entries[i+1:]...) }
	for name, c := range leaves {
		full := join(dir, name)
		i := find(name)
		if i >= 0 {
			switch entries[i].Mode {
			case filemode.Dir:
				return h, false, cms.Errorf(http.StatusBadRequest, "path %q: is a folder", full)
			case filemode.Symlink:
				return h, false, cms.Errorf(http.StatusBadRequest, "path %q: is a symbolic link", full)
			case filemode.Submodule:
				return h, false, cms.Errorf(http.StatusBadRequest, "path %q: is a submodule", full)
			}
		}
		switch {
		case c == nil && i >= 0:
			remove(i)
		case c == nil:
		case i >= 0:
			entries[i].Hash = *c
		default:
			entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: *c})
		}
	}
	for name, sub := range subs {
		full := join(dir, name)
		i := find(name)
		child := plumbing.ZeroHash
		if i >= 0 {
			switch entries[i].Mode {
			case filemode.Dir:
				child = entries[i].Hash
			case filemode.Symlink:
				return h, false, cms.Errorf(http.StatusBadRequest, "path %q: goes through a symbolic link", full)
			default:
				return h, false, cms.Errorf(http.StatusBadRequest, "path %q: goes through a file", full)
			}
		}
		nh, empty, err := o.applyAt(child, full, sub)
		if err != nil {
			return h, false, err
		}
		switch {
		case empty && i >= 0:
			remove(i)
		case empty:
		case i >= 0:
			entries[i].Hash = nh
		default:
			entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: nh})
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, true, nil
	}
	// git's order: names compared as bytes, a folder as if it ended in "/".
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	t := &object.Tree{Entries: entries}
	obj := o.r.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return h, false, err
	}
	nh, err := o.r.Storer.SetEncodedObject(obj)
	return nh, false, err
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func (o objects) writeCommit(c *object.Commit) (plumbing.Hash, error) {
	obj := o.r.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return o.r.Storer.SetEncodedObject(obj)
}

// change is one path a branch changes against its base.
type change struct {
	path     string
	from, to plumbing.Hash // zero when absent
}

// diff is the files that differ between two trees (nil a: empty). Equal
// subtrees are skipped by their hashes, so this is cheap on a large repo.
func (o objects) diff(a, b *object.Tree) ([]change, error) {
	if a == nil {
		a = &object.Tree{}
	}
	chs, err := object.DiffTree(a, b)
	if err != nil {
		return nil, err
	}
	out := make([]change, 0, len(chs))
	for _, c := range chs {
		ch := change{path: c.To.Name, from: c.From.TreeEntry.Hash, to: c.To.TreeEntry.Hash}
		if ch.path == "" {
			ch.path = c.From.Name
		}
		out = append(out, ch)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

// base is where a draft branch left main: their merge base.
func (o objects) base(draft, main *object.Commit) (*object.Commit, error) {
	bases, err := draft.MergeBase(main)
	if err != nil {
		return nil, err
	}
	if len(bases) == 0 {
		return nil, fmt.Errorf("branch %s shares no history with main", draft.Hash)
	}
	return bases[0], nil
}

// since is the commits from tip back to base, base excluded, newest
// first: a draft branch's own commits.
func (o objects) since(tip, base *object.Commit) ([]*object.Commit, error) {
	var out []*object.Commit
	it := object.NewCommitPreorderIter(tip, map[plumbing.Hash]bool{base.Hash: true}, nil)
	err := it.ForEach(func(c *object.Commit) error {
		if c.Hash == base.Hash {
			return storer.ErrStop
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// lastChange is the newest commit from tip that changed p (looking at
// most limit commits back), nil when none is found.
func (o objects) lastChange(tip *object.Commit, p string, limit int) (*object.Commit, error) {
	var found *object.Commit
	it := object.NewCommitPreorderIter(tip, nil, nil)
	n := 0
	err := it.ForEach(func(c *object.Commit) error {
		if n++; n > limit {
			return storer.ErrStop
		}
		t, err := c.Tree()
		if err != nil {
			return err
		}
		cur, err := o.blobID(t, p)
		if err != nil {
			return err
		}
		prev := plumbing.ZeroHash
		if c.NumParents() > 0 {
			pc, err := c.Parent(0)
			if err != nil {
				return err
			}
			pt, err := pc.Tree()
			if err != nil {
				return err
			}
			if prev, err = o.blobID(pt, p); err != nil {
				return err
			}
		}
		if cur != prev {
			found = c
			return storer.ErrStop
		}
		return nil
	})
	return found, err
}
