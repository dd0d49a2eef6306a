package index

import (
	"fmt"
	"os"
	"path/filepath"
)

// OpenSnapshotFile opens the snapshot at path: mapped into memory,
// privately, where the system can (the pages a search touches are read
// from the file as it needs them; a page the index appends to is copied,
// and the file never changes), else read whole. The mapping lives as
// long as the process: an index opened from it may be in use by a search
// at any time.
func OpenSnapshotFile(path string) (*Index, Stamp, error) {
	data, mapped, err := mapFile(path)
	if err != nil {
		return nil, Stamp{}, err
	}
	open := OpenSnapshot
	if mapped {
		open = OpenMappedSnapshot
	}
	x, st, err := open(data)
	if err != nil {
		if mapped {
			unmapFile(data)
		}
		return nil, Stamp{}, fmt.Errorf("%s: %w", path, err)
	}
	return x, st, nil
}

// WriteSnapshotFile writes x's snapshot stamped st to path, whole or not
// at all: into a temporary file beside it, synced, then renamed over it.
func (x *Index) WriteSnapshotFile(path string, st Stamp) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := x.WriteSnapshot(f, st); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
