package mail

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSMTP_ParseURL(t *testing.T) {
	cases := []struct {
		name, url string
		want      smtpURL
		wantErr   bool
	}{
		{"STARTTLS", "smtp://user:p%40ss@mail.example.com:587", smtpURL{host: "mail.example.com", user: "user", pass: "p@ss", port: 587}, false},
		{"DefaultPort", "smtp://mail.example.com", smtpURL{host: "mail.example.com", port: 587}, false},
		{"ImplicitTLS", "smtps://u:p@mail.example.com", smtpURL{host: "mail.example.com", user: "u", pass: "p", port: 465, implicitTLS: true}, false},
		{"LocalRelay", "smtp://127.0.0.1:2525?tls=none", smtpURL{host: "127.0.0.1", port: 2525, noTLS: true}, false},
		{"ErrScheme", "http://mail.example.com", smtpURL{}, true},
		{"ErrNoHost", "smtp://", smtpURL{}, true},
		{"ErrPort", "smtp://mail.example.com:99999", smtpURL{}, true},
		{"ErrTLSValue", "smtp://mail.example.com?tls=maybe", smtpURL{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSMTPURL(tc.url)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(smtpURL{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
