//go:build !unix

package index

import "os"

// mapFile reads the file at path whole where mapping is not written for.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

func unmapFile([]byte) {}
