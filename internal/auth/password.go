package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Hasher hashes passwords with argon2id. Its cost is what a new hash uses;
// a stored hash names its own parameters, so raising the cost keeps every
// existing password valid.
type Hasher struct {
	MemoryKiB  uint32 // memory per hash, in KiB
	Iterations uint32 // passes over the memory
	Threads    uint8
}

// DefaultHasher is OWASP's recommended argon2id minimum (19 MiB, 2 passes,
// 1 thread): about 30 ms a hash on a current server core.
var DefaultHasher = Hasher{MemoryKiB: 19 * 1024, Iterations: 2, Threads: 1}

// Bounds of the parameters Verify accepts from a stored hash, so a
// corrupted or planted row cannot make one sign-in use gigabytes.
const (
	maxMemoryKiB  = 1 << 20 // 1 GiB
	maxIterations = 64
	saltLen       = 16
	keyLen        = 32
)

// ErrBadHash is a stored hash Verify cannot read.
var ErrBadHash = errors.New("auth: malformed password hash")

// Check reports whether the hasher's cost is usable.
func (h Hasher) Check() error {
	if h.MemoryKiB < 8*uint32(max(h.Threads, 1)) || h.MemoryKiB > maxMemoryKiB {
		return fmt.Errorf("argon2id memory %d KiB: use 8 KiB per thread to %d KiB", h.MemoryKiB, maxMemoryKiB)
	}
	if h.Iterations < 1 || h.Iterations > maxIterations {
		return fmt.Errorf("argon2id iterations %d: use 1 to %d", h.Iterations, maxIterations)
	}
	if h.Threads < 1 {
		return errors.New("argon2id threads: use at least 1")
	}
	return nil
}

// Hash returns the PHC-format argon2id hash of password with a new random
// salt: $argon2id$v=19$m=…,t=…,p=…$salt$key.
func (h Hasher) Hash(password string) (string, error) {
	if err := h.Check(); err != nil {
		return "", err
	}
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, h.Iterations, h.MemoryKiB, h.Threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.MemoryKiB, h.Iterations, h.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether password matches encoded, in constant time.
func Verify(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, ErrBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, ErrBadHash
	}
	var h Hasher
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &h.MemoryKiB, &h.Iterations, &h.Threads); err != nil || h.Check() != nil {
		return false, ErrBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return false, ErrBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 64 {
		return false, ErrBadHash
	}
	got := argon2.IDKey([]byte(password), salt, h.Iterations, h.MemoryKiB, h.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
