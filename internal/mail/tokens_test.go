package mail

import (
	"errors"
	"strings"
	"testing"
)

func TestTokens_Parse(t *testing.T) {
	a, err := NewTokens([]byte("secret-a-secret-a-secret-a-secret-a"), "test v1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewTokens([]byte("secret-b-secret-b-secret-b-secret-b"), "test v1")
	other, _ := NewTokens([]byte("secret-a-secret-a-secret-a-secret-a"), "another purpose v1")
	good := a.Token("id-1")
	sig := good[strings.IndexByte(good, '.'):]
	cases := []struct {
		name, token, wantID string
		wantErr             error
	}{
		{"Good", good, "id-1", nil},
		{"ErrOtherKey", b.Token("id-1"), "", ErrBadToken},
		{"ErrOtherPurpose", other.Token("id-1"), "", ErrBadToken},
		{"ErrOtherID", "id-2" + sig, "", ErrBadToken},
		{"ErrTruncated", good[:len(good)-1], "", ErrBadToken},
		{"ErrNoSignature", "id-1", "", ErrBadToken},
		{"ErrEmpty", "", "", ErrBadToken},
		{"ErrPadding", good + "=", "", ErrBadToken},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, err := a.Parse(tc.token)
			if id != tc.wantID || !errors.Is(err, tc.wantErr) {
				t.Errorf("Parse(%q) = %q, %v; want %q, %v", tc.token, id, err, tc.wantID, tc.wantErr)
			}
		})
	}
	t.Run("ErrShortSecret", func(t *testing.T) {
		if _, err := NewTokens([]byte("short"), "test v1"); err == nil {
			t.Error("a 5-byte secret was accepted")
		}
	})
}
