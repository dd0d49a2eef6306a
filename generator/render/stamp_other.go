//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package render

import "io/fs"

// stampOf is fi's stamp where the system gives no change time nor
// inode: size and modification time only.
func stampOf(fi fs.FileInfo) stamp { return stamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()} }
