//go:build !unix

package index

import "os"

// mapFile reads the file at path whole where mapping is not written for.
func mapFile(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	return data, false, err
}

func unmapFile([]byte) {}

func releasePages([]byte) {}
