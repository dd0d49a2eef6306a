package store

import (
	"context"
	"database/sql"
	"time"

	"regpulse/internal/catalog"
)

// The directory: fintech companies, PII regulations, payment networks and
// SIBOS events. They are curated lists of tens of entries, filtered by
// equality only. Optional text fields are "" when absent.

// Company is a fintech company and its founder.
type Company struct {
	ID, Slug, Name, Founder, Description, Country, Category string
	Founded                                                 int // 0 when not known
	Headquarters, WebsiteURL, LinkedinProfile, XProfile     string
}

// CompanyQuery selects companies; empty fields do not filter.
type CompanyQuery struct {
	Category string
	Limit    int // at least 1
}

// Regulation is a PII or privacy regulation.
type Regulation struct {
	ID, Slug, Name, ShortName, Country, Description, Status string
	EffectiveDate                                           *time.Time
	Regulator                                               string
	KeyProvisions, ComplianceRequirements                   []string
	OfficialTextURL                                         string
}

// RegulationQuery selects regulations; empty fields do not filter.
type RegulationQuery struct {
	Country, Status string
	Limit           int // at least 1
}

// Network is a payment network or card scheme.
type Network struct {
	ID, Slug, Name, FullName, Type, Operator, Description string
	Guidelines                                            []string
	ContactInfo, WebsiteURL                               string
}

// SibosEvent is one year's SIBOS conference.
type SibosEvent struct {
	ID, Slug, Title     string
	Year                int
	Theme, Description  string
	Status              string
	StartDate, EndDate  *time.Time
	Location, Venue     string
	ExpectedAttendees   int // 0 when not known
	RegistrationOpen    bool
	KeyTopics, Speakers []string
	WebsiteURL          string
}

// ListCompanies returns the companies q selects, by slug.
func (s *DB) ListCompanies(ctx context.Context, q CompanyQuery) ([]Company, error) {
	w := where{}
	w.eq("category", q.Category)
	list := []Company{}
	err := s.list(ctx, "ListCompanies", `SELECT id, slug, name, founder, description, country, category, founded,
	headquarters, website_url, linkedin_profile, x_profile FROM fintech_companies`+w.sql()+` ORDER BY slug`,
		w.args, q.Limit, func(rows *sql.Rows) error {
			var c Company
			var founded sql.NullInt64
			if err := rows.Scan(&c.ID, &c.Slug, &c.Name, &c.Founder, &c.Description, &c.Country, &c.Category, &founded,
				&c.Headquarters, &c.WebsiteURL, &c.LinkedinProfile, &c.XProfile); err != nil {
				return err
			}
			c.Founded = int(founded.Int64)
			list = append(list, c)
			return nil
		})
	return list, err
}

// ListRegulations returns the regulations q selects, by slug.
func (s *DB) ListRegulations(ctx context.Context, q RegulationQuery) ([]Regulation, error) {
	w := where{}
	w.eq("country", q.Country)
	w.eq("status", q.Status)
	list := []Regulation{}
	err := s.list(ctx, "ListRegulations", `SELECT id, slug, name, short_name, country, description, status,
	effective_date, regulator, key_provisions, compliance_requirements, official_text_url
FROM pii_regulations`+w.sql()+` ORDER BY slug`, w.args, q.Limit, func(rows *sql.Rows) error {
		var r Regulation
		var effective sql.NullString
		var provisions, requirements string
		if err := rows.Scan(&r.ID, &r.Slug, &r.Name, &r.ShortName, &r.Country, &r.Description, &r.Status,
			&effective, &r.Regulator, &provisions, &requirements, &r.OfficialTextURL); err != nil {
			return err
		}
		var err error
		if r.EffectiveDate, err = parseOptDate(effective); err != nil {
			return err
		}
		if r.KeyProvisions, err = parseTextList(provisions); err != nil {
			return err
		}
		if r.ComplianceRequirements, err = parseTextList(requirements); err != nil {
			return err
		}
		list = append(list, r)
		return nil
	})
	return list, err
}

// ListNetworks returns the payment networks, by slug.
func (s *DB) ListNetworks(ctx context.Context, limit int) ([]Network, error) {
	list := []Network{}
	err := s.list(ctx, "ListNetworks", `SELECT id, slug, name, full_name, type, operator, description, guidelines,
	contact_info, website_url FROM payment_networks ORDER BY slug`, nil, limit, func(rows *sql.Rows) error {
		var n Network
		var guidelines string
		if err := rows.Scan(&n.ID, &n.Slug, &n.Name, &n.FullName, &n.Type, &n.Operator, &n.Description, &guidelines,
			&n.ContactInfo, &n.WebsiteURL); err != nil {
			return err
		}
		var err error
		if n.Guidelines, err = parseTextList(guidelines); err != nil {
			return err
		}
		list = append(list, n)
		return nil
	})
	return list, err
}

// ListSibosEvents returns the SIBOS events, newest year first.
func (s *DB) ListSibosEvents(ctx context.Context, limit int) ([]SibosEvent, error) {
	list := []SibosEvent{}
	err := s.list(ctx, "ListSibosEvents", `SELECT id, slug, title, year, theme, description, status, start_date,
	end_date, location, venue, expected_attendees, registration_open, key_topics, speakers, website_url
FROM sibos_events ORDER BY year DESC, slug`, nil, limit, func(rows *sql.Rows) error {
		var e SibosEvent
		var start, end sql.NullString
		var attendees sql.NullInt64
		var topics, speakers string
		if err := rows.Scan(&e.ID, &e.Slug, &e.Title, &e.Year, &e.Theme, &e.Description, &e.Status, &start,
			&end, &e.Location, &e.Venue, &attendees, &e.RegistrationOpen, &topics, &speakers, &e.WebsiteURL); err != nil {
			return err
		}
		e.ExpectedAttendees = int(attendees.Int64)
		var err error
		if e.StartDate, err = parseOptDate(start); err != nil {
			return err
		}
		if e.EndDate, err = parseOptDate(end); err != nil {
			return err
		}
		if e.KeyTopics, err = parseTextList(topics); err != nil {
			return err
		}
		if e.Speakers, err = parseTextList(speakers); err != nil {
			return err
		}
		list = append(list, e)
		return nil
	})
	return list, err
}

// optDate is a nullable date column's value.
func optDate(d *catalog.Date) any {
	if d == nil {
		return nil
	}
	return d.Format(dateLayout)
}

// optInt is a nullable integer column's value: 0 means unknown.
func optInt(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

var companyTable = table[catalog.Company]{
	name: "fintech_companies",
	cols: []string{"id", "slug", "name", "founder", "description", "country", "category", "founded",
		"headquarters", "website_url", "linkedin_profile", "x_profile", "content_hash"},
	id: func(c catalog.Company) string { return c.ID },
	values: func(c catalog.Company) ([]any, error) {
		return []any{c.ID, c.Slug, c.Name, c.Founder, c.Description, c.Country, c.Category, optInt(c.Founded),
			c.Headquarters, c.WebsiteURL, c.LinkedinProfile, c.XProfile}, nil
	},
}

var regulationTable = table[catalog.Regulation]{
	name: "pii_regulations",
	cols: []string{"id", "slug", "name", "short_name", "country", "description", "status", "effective_date",
		"regulator", "key_provisions", "compliance_requirements", "official_text_url", "content_hash"},
	id: func(r catalog.Regulation) string { return r.ID },
	values: func(r catalog.Regulation) ([]any, error) {
		provisions, err := textList(r.KeyProvisions)
		if err != nil {
			return nil, err
		}
		requirements, err := textList(r.ComplianceRequirements)
		if err != nil {
			return nil, err
		}
		return []any{r.ID, r.Slug, r.Name, r.ShortName, r.Country, r.Description, r.Status, optDate(r.EffectiveDate),
			r.Regulator, provisions, requirements, r.OfficialTextURL}, nil
	},
}

var networkTable = table[catalog.Network]{
	name: "payment_networks",
	cols: []string{"id", "slug", "name", "full_name", "type", "operator", "description", "guidelines",
		"contact_info", "website_url", "content_hash"},
	id: func(n catalog.Network) string { return n.ID },
	values: func(n catalog.Network) ([]any, error) {
		guidelines, err := textList(n.Guidelines)
		if err != nil {
			return nil, err
		}
		return []any{n.ID, n.Slug, n.Name, n.FullName, n.Type, n.Operator, n.Description, guidelines,
			n.ContactInfo, n.WebsiteURL}, nil
	},
}

var sibosTable = table[catalog.SibosEvent]{
	name: "sibos_events",
	cols: []string{"id", "slug", "title", "year", "theme", "description", "status", "start_date", "end_date",
		"location", "venue", "expected_attendees", "registration_open", "key_topics", "speakers", "website_url",
		"content_hash"},
	id: func(e catalog.SibosEvent) string { return e.ID },
	values: func(e catalog.SibosEvent) ([]any, error) {
		topics, err := textList(e.KeyTopics)
		if err != nil {
			return nil, err
		}
		speakers, err := textList(e.Speakers)
		if err != nil {
			return nil, err
		}
		return []any{e.ID, e.Slug, e.Title, e.Year, e.Theme, e.Description, e.Status, optDate(e.StartDate),
			optDate(e.EndDate), e.Location, e.Venue, optInt(e.ExpectedAttendees), e.RegistrationOpen, topics,
			speakers, e.WebsiteURL}, nil
	},
}
