package webhooks

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// The example of the Standard Webhooks specification's libraries
// (secret, id, timestamp, body and the signature they give).
const (
	specSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	specID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	specBody   = `{"test": 2432232314}`
	specSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

var specTime = time.Unix(1614265330, 0)

func TestSign_Spec(t *testing.T) {
	got, err := Sign(specSecret, specID, specTime, []byte(specBody))
	if err != nil || got != specSig {
		t.Fatalf("Sign = %q, %v; want %q", got, err, specSig)
	}
}

func TestVerify(t *testing.T) {
	headers := func(id, ts, sig string) http.Header {
		h := http.Header{}
		h.Set("webhook-id", id)
		h.Set("webhook-timestamp", ts)
		h.Set("webhook-signature", sig)
		return h
	}
	for _, tc := range []struct {
		name   string
		secret string
		h      http.Header
		body   string
		now    time.Time
		want   error
	}{
		{"Valid", specSecret, headers(specID, "1614265330", specSig), specBody, specTime, nil},
		{"OneOfSeveral", specSecret, headers(specID, "1614265330", "v1,AAAA "+specSig), specBody, specTime, nil},
		{"JustInside", specSecret, headers(specID, "1614265330", specSig), specBody, specTime.Add(Tolerance), nil},
		{"Late", specSecret, headers(specID, "1614265330", specSig), specBody, specTime.Add(Tolerance + time.Second), ErrTimestamp},
		{"Early", specSecret, headers(specID, "1614265330", specSig), specBody, specTime.Add(-Tolerance - time.Second), ErrTimestamp},
		{"NoTimestamp", specSecret, headers(specID, "", specSig), specBody, specTime, ErrTimestamp},
		{"BodyChanged", specSecret, headers(specID, "1614265330", specSig), specBody + " ", specTime, ErrNoSignature},
		{"OtherID", specSecret, headers("msg_other", "1614265330", specSig), specBody, specTime, ErrNoSignature},
		{"OtherVersion", specSecret, headers(specID, "1614265330", "v1a,"+specSig[3:]), specBody, specTime, ErrNoSignature},
		{"OtherSecret", NewSecret(), headers(specID, "1614265330", specSig), specBody, specTime, ErrNoSignature},
		{"BadSecret", "nope", headers(specID, "1614265330", specSig), specBody, specTime, ErrSecret},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Verify(tc.secret, tc.h, []byte(tc.body), tc.now); !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestSetHeaders_RoundTrip(t *testing.T) {
	secret := NewSecret()
	h := http.Header{}
	now := time.Now()
	if err := SetHeaders(h, secret, "msg_1", now, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := Verify(secret, h, []byte("{}"), now); err != nil {
		t.Fatal(err)
	}
}
