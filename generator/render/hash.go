package render

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// HashDir adds every file under dir, by path, size and hash, in lexical
// order.
func HashDir(h hash.Hash, dir string) error { return HashFiles(h, dir, nil) }

// HashFiles is HashDir with the record of the files' hashes (nil: none):
// a file whose stamp is the recorded one is not read again (Record).
func HashFiles(h hash.Hash, dir string, rec *Record) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		sum, err := rec.sum(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%x\n", filepath.ToSlash(rel), sum.size, sum.sha)
		return nil
	})
}

// HashNamed adds the files of dir named (slash-separated, relative to
// it), in that order, as HashFiles does.
func HashNamed(h hash.Hash, dir string, names []string, rec *Record) error {
	for _, rel := range names {
		sum, err := rec.sum(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%x\n", rel, sum.size, sum.sha)
	}
	return nil
}

// fileHash is a file's size and SHA-256.
type fileHash struct {
	size int64
	sha  [sha256.Size]byte
}

func hashFile(path string) (fileHash, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileHash{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fileHash{}, err
	}
	out := fileHash{size: n}
	h.Sum(out.sha[:0])
	return out, nil
}

// ProgramHash identifies the running program: what a page's key, the
// inputs' hash and the files kept beside an output hold for. Read once.
var ProgramHash = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return ExecutableHash(exe)
})

// ExecutableHash identifies the program at path: the hash of its Go build
// ID when it has one, else of its bytes. The build ID's last part is the
// go command's hash of the executable's content (as `go tool buildid`
// prints it), so two executables with one ID are the same program; it is
// read from a few kilobytes, where hashing a 90 MB executable was some
// 0.4 s at the start of every build.
func ExecutableHash(path string) (string, error) {
	if id := goBuildID(path); id != "" {
		h := sha256.Sum256([]byte("go build id " + id))
		return hex.EncodeToString(h[:]), nil
	}
	return fileHex(path)
}

// fileHex is the hex SHA-256 of the file at path.
func fileHex(path string) (string, error) {
	h, err := hashFile(path)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.sha[:]), nil
}

// goBuildID is the Go build ID in the ELF executable at path (the note
// the go command's linker writes), "" when it has none: another format,
// or a build with an empty -buildid. It has the form actionID/contentID,
// with more parts for a linked program, the last its content's hash.
func goBuildID(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	// an ELF note: name size, description size, type, then the name and
	// the description, each padded to 4 bytes
	order := f.ByteOrder
	nameSize, descSize, kind := order.Uint32(data), order.Uint32(data[4:]), order.Uint32(data[8:])
	const goBuildIDNote = 4
	name, desc := 12, 12+(uint64(nameSize)+3)&^3
	if kind != goBuildIDNote || nameSize != 4 || string(data[name:name+4]) != "Go\x00\x00" || desc+uint64(descSize) > uint64(len(data)) {
		return ""
	}
	id := string(data[desc : desc+uint64(descSize)])
	if !strings.Contains(id, "/") {
		return ""
	}
	return id
}
