//go:build unix

package index

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps the file at path privately, readable and writable: writes
// copy the page they touch, and the file never changes.
func mapFile(path string) (data []byte, mapped bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	size := info.Size()
	if size == 0 {
		return nil, false, nil
	}
	if size != int64(int(size)) {
		return nil, false, fmt.Errorf("%s: %d bytes, too large to map", path, size)
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	return data, err == nil, err
}

// unmapFile undoes mapFile, for a file that was not a snapshot.
func unmapFile(data []byte) { _ = syscall.Munmap(data) }

// releasePages gives back the whole pages of b, which is mapped from a file
// and unchanged: they leave the process's resident memory and are read
// again from the file (the page cache) when touched.
func releasePages(b []byte) {
	if len(b) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	first := ((start+page-1)&^(page-1) - start)         // into b
	last := ((start+uintptr(len(b)))&^(page-1) - start) // into b
	if last <= first {
		return
	}
	_ = syscall.Madvise(b[first:last], syscall.MADV_DONTNEED)
}
