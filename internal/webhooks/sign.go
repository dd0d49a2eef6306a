package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Standard Webhooks 1.0 (https://www.standardwebhooks.com): a delivery
// carries webhook-id (the event's ID), webhook-timestamp (Unix seconds)
// and webhook-signature ("v1," and the base64 HMAC-SHA256 of
// "id.timestamp.body" under the secret's key). The secret is "whsec_"
// and the key in base64. Receivers refuse a timestamp more than
// Tolerance from their clock, which stops a replay once it is stale;
// within it they drop a webhook-id seen before.

// SecretPrefix starts every signing secret.
const SecretPrefix = "whsec_"

// Tolerance is how far a receiver lets a timestamp be from its clock.
const Tolerance = 5 * time.Minute

// secretBytes is a key's length: 32 bytes, as long as the HMAC's output.
const secretBytes = 32

// NewSecret is a new random signing secret.
func NewSecret() string {
	b := make([]byte, secretBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// ErrSecret is a secret that is not "whsec_" and base64.
var ErrSecret = errors.New("webhooks: a signing secret is whsec_ and base64")

func secretKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || !strings.HasPrefix(secret, SecretPrefix) || len(key) == 0 {
		return nil, ErrSecret
	}
	return key, nil
}

// Sign is the webhook-signature of body sent as id at ts under secret.
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(mac(key, id, ts.Unix(), body)), nil
}

func mac(key []byte, id string, unix int64, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write(strconv.AppendInt(nil, unix, 10))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// SetHeaders sets a delivery's three headers on h.
func SetHeaders(h http.Header, secret, id string, ts time.Time, body []byte) error {
	sig, err := Sign(secret, id, ts, body)
	if err != nil {
		return err
	}
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	h.Set("webhook-signature", sig)
	return nil
}

// Errors of Verify.
var (
	ErrNoSignature = errors.New("webhooks: no valid v1 signature")
	ErrTimestamp   = errors.New("webhooks: timestamp outside the tolerance")
)

// Verify checks a delivery's headers and body as a receiver does, at
// now: the Go side of the tests' receivers and a reference for
// customers; the tests' main receiver is an independent implementation.
func Verify(secret string, h http.Header, body []byte, now time.Time) error {
	key, err := secretKey(secret)
	if err != nil {
		return err
	}
	unix, err := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
	if err != nil {
		return ErrTimestamp
	}
	if d := now.Sub(time.Unix(unix, 0)); d > Tolerance || d < -Tolerance {
		return ErrTimestamp
	}
	want := mac(key, h.Get("webhook-id"), unix, body)
	for sig := range strings.FieldsSeq(h.Get("webhook-signature")) {
		v, b64, ok := strings.Cut(sig, ",")
		if !ok || v != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrNoSignature
}
