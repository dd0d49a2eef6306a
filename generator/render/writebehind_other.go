//go:build !linux

package render

import "os"

// startWriteback is false: only Linux has sync_file_range.
func startWriteback(*os.File) bool { return false }

func dropCached(*os.File) {}
