package auth

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SecretEnv names the environment variable that holds the token secret.
const SecretEnv = "REGPULSE_JWT_SECRET"

// SecretFile is the secret's file in the data folder when SecretEnv is unset.
const SecretFile = "jwt-secret"

// LoadSecret returns the token signing secret: SecretEnv's value when set
// (at least MinSecretLen bytes), otherwise the one kept in
// dataDir/SecretFile, generated (32 random bytes, mode 0600) the first
// time. Keeping it means restarts keep users signed in; replacing it signs
// everyone out. A kept file readable by others is refused.
func LoadSecret(dataDir string, getenv func(string) string) ([]byte, error) {
	if v := getenv(SecretEnv); v != "" {
		if len(v) < MinSecretLen {
			return nil, fmt.Errorf("%s is %d bytes; use at least %d random bytes (e.g. openssl rand -base64 48)", SecretEnv, len(v), MinSecretLen)
		}
		return []byte(v), nil
	}
	path := filepath.Join(dataDir, SecretFile)
	if s, err := readSecret(path); !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	text := base64.RawURLEncoding.EncodeToString(raw)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readSecret(path) // another process made it first
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString(text + "\n"); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, err
	}
	return []byte(text), nil
}

func readSecret(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s has mode %o; the token secret must be private (chmod 600 %s)", path, info.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := strings.TrimSpace(string(b))
	if len(s) < MinSecretLen {
		return nil, fmt.Errorf("%s holds %d bytes; use at least %d (delete it to generate a new one, which signs everyone out)", path, len(s), MinSecretLen)
	}
	return []byte(s), nil
}
