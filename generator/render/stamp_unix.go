//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package render

import (
	"io/fs"
	"syscall"
)

// stampOf is fi's stamp: size, modification and change times, inode and
// device.
func stampOf(fi fs.FileInfo) stamp {
	s := stamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.CTime = statCtime(st)
		s.Ino, s.Dev = uint64(st.Ino), uint64(st.Dev)
	}
	return s
}
