package webhooks_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"regpulse/internal/mail"
	"regpulse/internal/mail/mailtest"
	"regpulse/internal/webhooks"
)

// TestDisabledEmail_Golden: the e-mails telling of an endpoint turned
// off do not change unnoticed; a chat channel's URL (its secret) is not
// shown, a webhook's query neither; names are escaped in HTML.
func TestDisabledEmail_Golden(t *testing.T) {
	site, _ := mail.ParseSite("https://regpulse.example/")
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	at := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	since := at.Add(-25 * time.Hour)
	webhook := webhooks.Disabled{OrganisationName: "Asha <Payments>", Reason: "every delivery failed since 2 March 2026, 09:00 UTC", At: at,
		Endpoint: webhooks.Endpoint{ID: "ep-1", OrganisationID: "o1", Kind: webhooks.KindWebhook, URL: "https://grc.example.com/hooks/regpulse?token=s3cret",
			Description: "ServiceNow & GRC", Failures: 3, FailingSince: &since}}
	teams := webhooks.Disabled{AlertName: "UPI <limits>", Reason: "the endpoint answered 410 Gone", At: at,
		Endpoint: webhooks.Endpoint{ID: "ep-2", AlertID: "a1", Kind: webhooks.KindTeams, URL: "https://prod-00.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=s3cret"}}
	for _, tc := range []struct {
		name string
		d    webhooks.Disabled
		not  string
		lang string
	}{
		// in Hindi: the e-mail's words, the month, the links to /hi/
		{"disabled-webhook-hi", webhook, "s3cret", "hi"},
		{"disabled-teams-hi", teams, "workflows", "hi"},
		{"disabled-webhook", webhooks.Disabled{OrganisationName: "Asha <Payments>", Reason: "every delivery failed since 2 March 2026, 09:00 UTC", At: at,
			Endpoint: webhooks.Endpoint{ID: "ep-1", OrganisationID: "o1", Kind: webhooks.KindWebhook, URL: "https://grc.example.com/hooks/regpulse?token=s3cret",
				Description: "ServiceNow & GRC", Failures: 3, FailingSince: &since}}, "s3cret", ""},
		{"disabled-teams", webhooks.Disabled{AlertName: "UPI <limits>", Reason: "the endpoint answered 410 Gone", At: at,
			Endpoint: webhooks.Endpoint{ID: "ep-2", AlertID: "a1", Kind: webhooks.KindTeams, URL: "https://prod-00.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=s3cret"}}, "workflows", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := webhooks.DisabledEmail{To: webhooks.Recipient{Email: "ravi@example.com", Name: "Ravi Rao", Language: tc.lang}, Disabled: tc.d, Site: site}
			r, err := e.Render()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(r.Text+r.HTML, tc.not) {
				t.Errorf("shows %q", tc.not)
			}
			mailtest.Golden(t, tc.name+".html.golden", []byte(r.HTML))
			mailtest.Golden(t, tc.name+".txt.golden", []byte(r.Text))
			m, err := e.Message(snd, at)
			if err != nil {
				t.Fatal(err)
			}
			msg, err := snd.Build(m)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if _, err := msg.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			mailtest.Golden(t, tc.name+".eml.golden", mailtest.Stable(t, b.Bytes()))
		})
	}
}
