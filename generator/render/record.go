package render

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Record is what the last build knew of its inputs' files: each file's
// hash with the stamp it had when it was hashed (size, modification and
// change times in ns, inode and device: stamp). A file whose stamp is the
// recorded one is taken to hold the recorded bytes and is neither read
// nor hashed again, as git's index and Go's build cache do. It is kept
// beside the output (RecordPath) and written with its manifest.
//
// A file whose stamp is not a second older than the moment it was taken
// (recentCutoff) is hashed but not recorded as known: a write within the
// file system's timestamp granularity could otherwise leave a changed
// file with the recorded stamp (git's "racily clean" entries). The
// change time is not settable (a rewrite or a touch back moves it), and
// a rename keeps the inode but the path is the key; a file replaced by
// another (an editor's save: write and rename) has a new inode.
//
// Lookups and additions are safe from several goroutines at once.
type Record struct {
	mu   sync.Mutex
	last map[string]recorded // the last build's, by absolute path
	next map[string]recorded // this build's: what Write records
	// seen are this build's stamps of files not yet hashed (Scan), by
	// absolute path: a file hashed later is recorded with the stamp it
	// had before it was read, so a change after the stat shows next time.
	seen map[string]stamp
	// hashed are the hashes of the files this build read, recorded or
	// not (too recent to be: put), by absolute path (Sum).
	hashed map[string][sha256.Size]byte
	// files is where last was read: Write writes what changed since (a
	// one-file edit at 100,000 circulars, a few entries, not 15 MB)
	files *BesideMap[string, recorded]
}

// recorded is a file's stamp and hash (its size is the stamp's), and
// the site's note of what it found in those bytes (SetNote).
type recorded struct {
	Stamp stamp
	SHA   [sha256.Size]byte
	Note  string
}

// recordName names the record among the files beside an output
// (BesidePath): its notes hold for the program that wrote them only.
const recordName = "inputs.gob"

func (r recorded) sum() fileHash { return fileHash{size: r.Stamp.Size, sha: r.SHA} }

// stamp is what a file's status says of its bytes' identity: trusted
// only when equal in every field.
type stamp struct {
	Size         int64
	MTime, CTime int64 // ns since 1970
	Ino, Dev     uint64
}

// recentCutoff is how old a file's last change must be, when it is
// stat'ed, for its stamp to be trusted next time (Go's build cache
// uses 2 s for its file hashes: more than any timestamp granularity but
// FAT's).
var recentCutoff = 2 * time.Second

// RecordPath is where the record of outDir's inputs is: beside it, as
// its manifest is (public/ has .public.inputs.gob).
func RecordPath(outDir string) string { return BesidePath(outDir, recordName) }

// ReadRecord returns the record of outDir's last build: empty when there
// is none, it cannot be read, or another program wrote it (another may
// find other things in the same bytes: the notes; and a build of
// another program renders every page again anyway).
func ReadRecord(outDir string) *Record {
	r := &Record{next: map[string]recorded{}, seen: map[string]stamp{}, hashed: map[string][sha256.Size]byte{}}
	r.last, r.files = ReadBesideMap[string, recorded](outDir, recordName)
	if r.last == nil {
		r.last = map[string]recorded{}
	}
	return r
}

// Note is the note the last build kept of the file p (absolute), if this
// build has found p to hold the same bytes (Scan, HashFiles or Reader).
func (r *Record) Note(p string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	last, ok := r.last[p]
	next, found := r.next[p]
	if !ok || !found || last.Note == "" || last.SHA != next.SHA || last.Stamp.Size != next.Stamp.Size {
		return "", false
	}
	return last.Note, true
}

// SetNote keeps note (what the site found in the file p: a circular's
// language) with p's hash, when this build recorded p.
func (r *Record) SetNote(p, note string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.next[p]; ok {
		f.Note = note
		r.next[p] = f
	}
}

// Write records the files this build hashed or found unchanged, beside
// outDir.
func (r *Record) Write(outDir string) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.files.Write(outDir, r.next, r.files.Changes(r.last, r.next, func(a, b recorded) bool { return a == b }))
}

// Scan stats every regular file under dir (as HashFiles walks it) and
// takes the recorded hash of each whose stamp is the recorded one; it
// returns how many files there are and how many it does not know: those
// are read and hashed when something reads them (Reader) or by
// HashFiles.
func (r *Record) Scan(dir string) (files, unknown int, err error) {
	// the walk reads folders only; the stats, one per file (100,000 at
	// the archive's size), run on every core
	var paths []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	var missed atomic.Int64
	err = InBatches(context.Background(), len(paths), 512, func(i int) error {
		st, ok, err := r.stat(paths[i])
		if err != nil || ok {
			return err
		}
		missed.Add(1)
		r.mu.Lock()
		r.seen[paths[i]] = st
		r.mu.Unlock()
		return nil
	})
	return len(paths), int(missed.Load()), err
}

// Reader is catalog.WithRead's function for the files of dir: it hashes
// the bytes read of a file the record does not know already (Scan), so
// that HashFiles need not read it again.
func (r *Record) Reader(dir string) func(rel string, data []byte) {
	return func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		r.mu.Lock()
		_, known := r.next[p]
		st, seen := r.seen[p]
		r.mu.Unlock()
		if known || !seen {
			// known: hashed already; not seen: not stat'ed before it was
			// read, so its stamp could be newer than these bytes (HashFiles
			// reads it again)
			return
		}
		sum := fileHash{size: int64(len(data)), sha: sha256.Sum256(data)}
		r.put(p, st, sum)
	}
}

// stat takes p's stamp and, when it is the recorded one, its recorded
// hash into this build's record (ok).
func (r *Record) stat(p string) (stamp, bool, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return stamp{}, false, err
	}
	st := stampOf(fi)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.next[p]; ok {
		return st, true, nil
	}
	if last, ok := r.last[p]; ok && last.Stamp == st {
		r.next[p] = last
		return st, true, nil
	}
	return st, false, nil
}

// sum is p's hash: the record's when p's stamp is the recorded one, else
// read and hashed (and recorded with the stamp taken before the read).
func (r *Record) sum(p string) (fileHash, error) {
	if r == nil {
		return hashFile(p)
	}
	r.mu.Lock()
	got, ok := r.next[p]
	r.mu.Unlock()
	if ok {
		return got.sum(), nil
	}
	st, ok, err := r.stat(p)
	if err != nil {
		return fileHash{}, err
	}
	if ok {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.next[p].sum(), nil
	}
	sum, err := hashFile(p)
	if err != nil {
		return fileHash{}, err
	}
	r.put(p, st, sum)
	return sum, nil
}

// put records p's hash with the stamp it had before it was read, unless
// that stamp is too recent to be trusted (recentCutoff): then p is hashed
// again next time.
func (r *Record) put(p string, st stamp, sum fileHash) {
	r.mu.Lock()
	r.hashed[p] = sum.sha
	r.mu.Unlock()
	if st.Size != sum.size || !st.settled(time.Now()) {
		// a size other than the stamp's: the file changed under the read
		return
	}
	r.mu.Lock()
	r.next[p] = recorded{Stamp: st, SHA: sum.sha}
	r.mu.Unlock()
}

// settled says the file's last change is older than recentCutoff at now.
func (s stamp) settled(now time.Time) bool {
	return now.UnixNano()-max(s.MTime, s.CTime) > int64(recentCutoff)
}

// WriteChanged is Write when this build's record is not the last one's.
func (r *Record) WriteChanged(outDir string) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	same := maps.Equal(r.last, r.next)
	r.mu.Unlock()
	if same {
		return nil
	}
	return r.Write(outDir)
}

// Sum is the hash of the file p (absolute) as this build found it
// (Scan, HashFiles or Reader), when it did, recorded or too recently
// changed to be.
func (r *Record) Sum(p string) ([sha256.Size]byte, bool) {
	if r == nil {
		return [sha256.Size]byte{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.next[p]; ok {
		return f.SHA, true
	}
	sum, ok := r.hashed[p]
	return sum, ok
}
