package render

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback starts writing f's bytes to disk, without waiting; false
// where the file system cannot (the file is then not worth keeping open).
func startWriteback(f *os.File) bool {
	return unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE) == nil
}

// dropCached lets go of f's pages in the page cache that are on disk.
func dropCached(f *os.File) { _ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED) }
