package api

import (
	"testing"

	"regpulse/internal/store/storetest"
)

func TestHandler_ListFintechCompanies(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	runListCases(t, f, []listCase{
		{"All", "/fintech-companies", []string{"klarna", "razorpay"}},
		{"EmptyMeansAll", "/fintech-companies?category=", []string{"klarna", "razorpay"}},
		{"Category", "/fintech-companies?category=BNPL", []string{"klarna"}},
		{"CategoryCaseInsensitive", "/fintech-companies?category=payment+processing", []string{"razorpay"}},
		{"Limit", "/fintech-companies?limit=1", []string{"klarna"}},
		{"NoMatch", "/fintech-companies?category=Insurance", []string{}},
	})
	runErrCases(t, f, []errCase{
		{"ErrUnknownCategory", "/fintech-companies?category=Crypto", 400, []string{"category"}},
		{"ErrLimitAboveCap", "/fintech-companies?limit=101", 400, []string{"limit"}},
		{"ErrUnknownParameter", "/fintech-companies?country=India", 400, []string{"country"}},
	})
	t.Run("Fields", func(t *testing.T) {
		res := f.get(t, "/fintech-companies?category=BNPL")
		want := `[{"id":"` + idOf("companies", "klarna") + `","slug":"klarna","name":"Klarna","founder":null,` +
			`"description":"Buy now, pay later.","country":"Sweden","category":"BNPL","founded":null,"headquarters":null,` +
			`"websiteUrl":null,"linkedinProfile":null,"xProfile":null}]` + "\n"
		if string(res.body) != want {
			t.Errorf("got  %s\nwant %s", res.body, want)
		}
	})
}

func TestHandler_ListPIIRegulations(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	runListCases(t, f, []listCase{
		{"All", "/pii-regulations", []string{"aus-privacy-reform", "dpdpa", "gdpr"}},
		{"EmptyMeansAll", "/pii-regulations?country=&status=", []string{"aus-privacy-reform", "dpdpa", "gdpr"}},
		{"Country", "/pii-regulations?country=European+Union", []string{"gdpr"}},
		{"Status", "/pii-regulations?status=active", []string{"dpdpa", "gdpr"}},
		{"CountryAndStatus", "/pii-regulations?country=Australia&status=proposed", []string{"aus-privacy-reform"}},
		{"NoMatch", "/pii-regulations?country=Canada", []string{}},
	})
	runErrCases(t, f, []errCase{
		{"ErrUnknownCountry", "/pii-regulations?country=France", 400, []string{"country"}},
		{"ErrUnknownStatus", "/pii-regulations?status=repealed", 400, []string{"status"}},
		{"ErrBoth", "/pii-regulations?country=France&status=repealed", 400, []string{"country", "status"}},
	})
	t.Run("Fields", func(t *testing.T) {
		res := f.get(t, "/pii-regulations?country=India")
		want := `[{"id":"` + idOf("regulations", "dpdpa") + `","slug":"dpdpa","name":"Digital Personal Data Protection Act",` +
			`"shortName":"DPDPA","country":"India","description":"India's data law.","status":"active","effectiveDate":null,` +
			`"regulator":null,"keyProvisions":["Consent","Notice"],"complianceRequirements":["Appoint a DPO"],"officialTextUrl":null}]` + "\n"
		if string(res.body) != want {
			t.Errorf("got  %s\nwant %s", res.body, want)
		}
	})
}

func TestHandler_ListPaymentNetworks(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	runListCases(t, f, []listCase{
		{"All", "/payment-networks", []string{"upi", "visa"}},
		{"Limit", "/payment-networks?limit=1", []string{"upi"}},
	})
	runErrCases(t, f, []errCase{
		{"ErrLimit", "/payment-networks?limit=x", 400, []string{"limit"}},
		{"ErrUnknownParameter", "/payment-networks?filter=Visa", 400, []string{"filter"}},
	})
	t.Run("Fields", func(t *testing.T) {
		res := f.get(t, "/payment-networks?limit=1")
		want := `[{"id":"` + idOf("networks", "upi") + `","slug":"upi","name":"UPI (NPCI)","fullName":null,"type":null,` +
			`"operator":null,"description":"Instant payments.","guidelines":["Limits"],"contactInfo":null,` +
			`"websiteUrl":"https://www.npci.org.in"}]` + "\n"
		if string(res.body) != want {
			t.Errorf("got  %s\nwant %s", res.body, want)
		}
	})
}

func TestHandler_ListSibosEvents(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	runListCases(t, f, []listCase{
		{"NewestFirst", "/sibos-events", []string{"sibos-2025", "sibos-2019"}},
		{"Limit", "/sibos-events?limit=1", []string{"sibos-2025"}},
	})
	runErrCases(t, f, []errCase{
		{"ErrLimit", "/sibos-events?limit=0", 400, []string{"limit"}},
		{"ErrUnknownParameter", "/sibos-events?status=upcoming", 400, []string{"status"}},
	})
	t.Run("Fields", func(t *testing.T) {
		res := f.get(t, "/sibos-events")
		want := `[{"id":"` + idOf("sibos", "sibos-2025") + `","slug":"sibos-2025","title":"Sibos 2025","year":2025,"theme":"Next",` +
			`"description":"Frankfurt.","status":"upcoming","startDate":"2025-09-29","endDate":"2025-10-02","location":"Frankfurt",` +
			`"venue":null,"expectedAttendees":10000,"registrationOpen":true,"keyTopics":["AI","Payments","ISO 20022","Fraud"],` +
			`"speakers":[],"websiteUrl":"https://www.sibos.com"},` +
			`{"id":"` + idOf("sibos", "sibos-2019") + `","slug":"sibos-2019","title":"Sibos 2019","year":2019,"theme":null,` +
			`"description":"London.","status":"completed","startDate":null,"endDate":null,"location":null,"venue":null,` +
			`"expectedAttendees":null,"registrationOpen":false,"keyTopics":[],"speakers":[],"websiteUrl":null}]` + "\n"
		if string(res.body) != want {
			t.Errorf("got  %s\nwant %s", res.body, want)
		}
	})
}
