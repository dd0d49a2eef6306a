//go:build unix

package index

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := info.Size()
	if size == 0 {
		return nil, nil
	}
	if size != int64(int(size)) {
		return nil, fmt.Errorf("%s: %d bytes, too large to map", path, size)
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

// unmapFile undoes mapFile, for a file that was not a snapshot.
func unmapFile(data []byte) {
	if data != nil {
		_ = syscall.Munmap(data)
	}
}
