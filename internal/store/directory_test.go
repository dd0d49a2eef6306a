package store

import (
	"context"
	"slices"
	"testing"

	"regpulse/internal/store/storetest"
)

func TestListCompanies(t *testing.T) {
	ctx := context.Background()
	db := openSynced(t, storetest.Catalog())
	for _, tc := range []struct {
		name string
		q    CompanyQuery
		want []string
	}{
		{"All", CompanyQuery{Limit: 100}, []string{"klarna", "razorpay"}},
		{"Category", CompanyQuery{Category: "BNPL", Limit: 100}, []string{"klarna"}},
		{"Limit", CompanyQuery{Limit: 1}, []string{"klarna"}},
		{"NoMatch", CompanyQuery{Category: "Insurance", Limit: 100}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list, err := db.ListCompanies(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string = []string{}
			for _, c := range list {
				got = append(got, c.Slug)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("Fields", func(t *testing.T) {
		list, _ := db.ListCompanies(ctx, CompanyQuery{Category: "Payment Processing", Limit: 1})
		if len(list) != 1 {
			t.Fatal(list)
		}
		c := list[0]
		if c.Name != "Razorpay" || c.Founder != "Harshil Mathur, Shashank Kumar" || c.Founded != 2014 || c.Country != "India" ||
			c.LinkedinProfile == "" || c.XProfile != "" {
			t.Errorf("got %+v", c)
		}
		list, _ = db.ListCompanies(ctx, CompanyQuery{Category: "BNPL", Limit: 1})
		if len(list) != 1 || list[0].Founded != 0 || list[0].Founder != "" {
			t.Errorf("company without founder or year: %+v", list)
		}
	})
	t.Run("ErrBadLimit", func(t *testing.T) {
		if _, err := db.ListCompanies(ctx, CompanyQuery{}); err == nil {
			t.Error("limit 0 accepted")
		}
	})
}

func TestListRegulations(t *testing.T) {
	ctx := context.Background()
	db := openSynced(t, storetest.Catalog())
	for _, tc := range []struct {
		name string
		q    RegulationQuery
		want []string
	}{
		{"All", RegulationQuery{}, []string{"aus-privacy-reform", "dpdpa", "gdpr"}},
		{"Country", RegulationQuery{Country: "India"}, []string{"dpdpa"}},
		{"Status", RegulationQuery{Status: "active"}, []string{"dpdpa", "gdpr"}},
		{"CountryAndStatus", RegulationQuery{Country: "Australia", Status: "active"}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Limit = 100
			list, err := db.ListRegulations(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, r := range list {
				got = append(got, r.Slug)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("Fields", func(t *testing.T) {
		list, _ := db.ListRegulations(ctx, RegulationQuery{Country: "European Union", Limit: 1})
		if len(list) != 1 {
			t.Fatal(list)
		}
		r := list[0]
		if r.ShortName != "GDPR" || r.EffectiveDate == nil || r.EffectiveDate.Format("2006-01-02") != "2018-05-25" ||
			len(r.KeyProvisions) != 4 || r.ComplianceRequirements == nil || len(r.ComplianceRequirements) != 0 {
			t.Errorf("got %+v", r)
		}
		list, _ = db.ListRegulations(ctx, RegulationQuery{Country: "India", Limit: 1})
		if len(list) != 1 || list[0].EffectiveDate != nil || !slices.Equal(list[0].ComplianceRequirements, []string{"Appoint a DPO"}) {
			t.Errorf("got %+v", list)
		}
	})
}

func TestListNetworks(t *testing.T) {
	db := openSynced(t, storetest.Catalog())
	list, err := db.ListNetworks(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "UPI (NPCI)" || list[1].Name != "Visa" ||
		!slices.Equal(list[1].Guidelines, []string{"Tokenisation", "PCI DSS"}) || list[1].ContactInfo != "Visa Worldwide" {
		t.Errorf("got %+v", list)
	}
	if list, _ := db.ListNetworks(context.Background(), 1); len(list) != 1 {
		t.Errorf("limit 1 gave %d", len(list))
	}
}

func TestListSibosEvents(t *testing.T) {
	db := openSynced(t, storetest.Catalog())
	list, err := db.ListSibosEvents(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("got %+v", list)
	}
	e, old := list[0], list[1]
	if e.Year != 2025 || e.Status != "upcoming" || !e.RegistrationOpen || e.ExpectedAttendees != 10000 ||
		e.StartDate == nil || e.StartDate.Format("2006-01-02") != "2025-09-29" || e.EndDate == nil || len(e.KeyTopics) != 4 {
		t.Errorf("newest = %+v", e)
	}
	if old.Year != 2019 || old.RegistrationOpen || old.StartDate != nil || old.ExpectedAttendees != 0 || old.Speakers == nil {
		t.Errorf("oldest = %+v", old)
	}
}
