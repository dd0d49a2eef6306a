package api

import (
	"time"

	"regpulse/internal/store"
)

// The JSON the API answers with: camelCase names as in SPEC.md section 3,
// dates as YYYY-MM-DD, times as RFC 3339 UTC. Every field is always
// present; an optional value that is absent is null (lists are [] instead).
// openapi.json describes the same shapes; its test keeps them in step.

type circularJSON struct {
	ID             string             `json:"id"`
	Slug           string             `json:"slug"`
	CircularNumber *string            `json:"circularNumber"`
	Title          string             `json:"title"`
	Content        string             `json:"content"`
	Summary        *string            `json:"summary"`
	Source         string             `json:"source"`
	Category       string             `json:"category"`
	PublishedDate  string             `json:"publishedDate"`
	ImpactLevel    string             `json:"impactLevel"`
	EntityImpact   []entityImpactJSON `json:"entityImpact"`
	OfficialURL    *string            `json:"officialUrl"`
}

type entityImpactJSON struct {
	EntityType  string `json:"entityType"`
	ImpactLevel string `json:"impactLevel"`
}

type newsJSON struct {
	ID            string  `json:"id"`
	Slug          string  `json:"slug"`
	Title         string  `json:"title"`
	Content       string  `json:"content"`
	Excerpt       string  `json:"excerpt"`
	Source        string  `json:"source"`
	Category      string  `json:"category"`
	Region        string  `json:"region"`
	PublishedDate string  `json:"publishedDate"`
	SourceURL     *string `json:"sourceUrl"`
}

type impactRecordJSON struct {
	ID                string  `json:"id"`
	CircularID        *string `json:"circularId"`
	EntityType        string  `json:"entityType"`
	ComplianceScore   int     `json:"complianceScore"`
	HighImpactCount   int     `json:"highImpactCount"`
	MediumImpactCount int     `json:"mediumImpactCount"`
	LowImpactCount    int     `json:"lowImpactCount"`
	UpdatedAt         string  `json:"updatedAt"`
}

type companyJSON struct {
	ID              string  `json:"id"`
	Slug            string  `json:"slug"`
	Name            string  `json:"name"`
	Founder         *string `json:"founder"`
	Description     string  `json:"description"`
	Country         string  `json:"country"`
	Category        string  `json:"category"`
	Founded         *int    `json:"founded"`
	Headquarters    *string `json:"headquarters"`
	WebsiteURL      *string `json:"websiteUrl"`
	LinkedinProfile *string `json:"linkedinProfile"`
	XProfile        *string `json:"xProfile"`
}

type regulationJSON struct {
	ID                     string   `json:"id"`
	Slug                   string   `json:"slug"`
	Name                   string   `json:"name"`
	ShortName              *string  `json:"shortName"`
	Country                string   `json:"country"`
	Description            string   `json:"description"`
	Status                 string   `json:"status"`
	EffectiveDate          *string  `json:"effectiveDate"`
	Regulator              *string  `json:"regulator"`
	KeyProvisions          []string `json:"keyProvisions"`
	ComplianceRequirements []string `json:"complianceRequirements"`
	OfficialTextURL        *string  `json:"officialTextUrl"`
}

type networkJSON struct {
	ID          string   `json:"id"`
	Slug        string   `json:"slug"`
	Name        string   `json:"name"`
	FullName    *string  `json:"fullName"`
	Type        *string  `json:"type"`
	Operator    *string  `json:"operator"`
	Description string   `json:"description"`
	Guidelines  []string `json:"guidelines"`
	ContactInfo *string  `json:"contactInfo"`
	WebsiteURL  *string  `json:"websiteUrl"`
}

type sibosEventJSON struct {
	ID                string   `json:"id"`
	Slug              string   `json:"slug"`
	Title             string   `json:"title"`
	Year              int      `json:"year"`
	Theme             *string  `json:"theme"`
	Description       string   `json:"description"`
	Status            string   `json:"status"`
	StartDate         *string  `json:"startDate"`
	EndDate           *string  `json:"endDate"`
	Location          *string  `json:"location"`
	Venue             *string  `json:"venue"`
	ExpectedAttendees *int     `json:"expectedAttendees"`
	RegistrationOpen  bool     `json:"registrationOpen"`
	KeyTopics         []string `json:"keyTopics"`
	Speakers          []string `json:"speakers"`
	WebsiteURL        *string  `json:"websiteUrl"`
}

type dashboardStatsJSON struct {
	NewCirculars int `json:"newCirculars"`
	ImpactAlerts int `json:"impactAlerts"`
	LatestNews   int `json:"latestNews"`
	ActiveUsers  int `json:"activeUsers"`
}

const dateLayout = "2006-01-02"

// opt is s, or nil (JSON null) when s is empty.
func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optInt is n, or nil when n is 0 (unknown).
func optInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func optDate(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(dateLayout)
	return &s
}

// list is xs, or [] for nil, so JSON never carries null for a list.
func list(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// mapAll converts every element.
func mapAll[S, T any](xs []S, f func(S) T) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func toCircular(c store.Circular) circularJSON {
	return circularJSON{ID: c.ID, Slug: c.Slug, CircularNumber: opt(c.CircularNumber), Title: c.Title, Content: c.Content,
		Summary: opt(c.Summary), Source: c.Source, Category: c.Category, PublishedDate: c.PublishedDate.Format(dateLayout),
		ImpactLevel: c.ImpactLevel, OfficialURL: opt(c.OfficialURL),
		EntityImpact: mapAll(c.EntityImpact, func(e store.EntityImpact) entityImpactJSON {
			return entityImpactJSON{EntityType: e.EntityType, ImpactLevel: e.ImpactLevel}
		})}
}

func toNews(n store.NewsItem) newsJSON {
	return newsJSON{ID: n.ID, Slug: n.Slug, Title: n.Title, Content: n.Content, Excerpt: n.Excerpt, Source: n.Source,
		Category: n.Category, Region: n.Region, PublishedDate: n.PublishedDate.Format(dateLayout), SourceURL: opt(n.SourceURL)}
}

func toImpactRecord(r store.ImpactRecord) impactRecordJSON {
	return impactRecordJSON{ID: r.ID, CircularID: opt(r.CircularID), EntityType: r.EntityType, ComplianceScore: r.ComplianceScore,
		HighImpactCount: r.HighImpactCount, MediumImpactCount: r.MediumImpactCount, LowImpactCount: r.LowImpactCount,
		UpdatedAt: r.UpdatedAt.UTC().Format(time.RFC3339)}
}

func toCompany(c store.Company) companyJSON {
	return companyJSON{ID: c.ID, Slug: c.Slug, Name: c.Name, Founder: opt(c.Founder), Description: c.Description,
		Country: c.Country, Category: c.Category, Founded: optInt(c.Founded), Headquarters: opt(c.Headquarters),
		WebsiteURL: opt(c.WebsiteURL), LinkedinProfile: opt(c.LinkedinProfile), XProfile: opt(c.XProfile)}
}

func toRegulation(r store.Regulation) regulationJSON {
	return regulationJSON{ID: r.ID, Slug: r.Slug, Name: r.Name, ShortName: opt(r.ShortName), Country: r.Country,
		Description: r.Description, Status: r.Status, EffectiveDate: optDate(r.EffectiveDate), Regulator: opt(r.Regulator),
		KeyProvisions: list(r.KeyProvisions), ComplianceRequirements: list(r.ComplianceRequirements),
		OfficialTextURL: opt(r.OfficialTextURL)}
}

func toNetwork(n store.Network) networkJSON {
	return networkJSON{ID: n.ID, Slug: n.Slug, Name: n.Name, FullName: opt(n.FullName), Type: opt(n.Type),
		Operator: opt(n.Operator), Description: n.Description, Guidelines: list(n.Guidelines),
		ContactInfo: opt(n.ContactInfo), WebsiteURL: opt(n.WebsiteURL)}
}

func toSibosEvent(e store.SibosEvent) sibosEventJSON {
	return sibosEventJSON{ID: e.ID, Slug: e.Slug, Title: e.Title, Year: e.Year, Theme: opt(e.Theme),
		Description: e.Description, Status: e.Status, StartDate: optDate(e.StartDate), EndDate: optDate(e.EndDate),
		Location: opt(e.Location), Venue: opt(e.Venue), ExpectedAttendees: optInt(e.ExpectedAttendees),
		RegistrationOpen: e.RegistrationOpen, KeyTopics: list(e.KeyTopics), Speakers: list(e.Speakers),
		WebsiteURL: opt(e.WebsiteURL)}
}
