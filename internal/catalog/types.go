package catalog

import (
	"encoding/json"
	"slices"
	"time"
)

// The enumerations of SPEC.md sections 3 and 9. Values are exactly the
// spec's spelling because they appear in URLs, JSON and filters.
var (
	Sources            = []string{"RBI", "NPCI", "SEBI", "IRDAI", "PFRDA", "PRB", "IDRBT", "other"}
	CircularCategories = []string{"Payment Systems", "UPI", "CBDC", "Sandbox", "UDIR", "ODR", "Security",
		"Digital Insurance", "Digital Pension", "Digital Enrollment", "Digital Payments", "Grievance Redressal"}
	ImpactLevels        = []string{"high", "medium", "low"}
	EntityTypes         = []string{"PSP", "Issuer", "Aggregator"}
	NewsCategories      = []string{"Payment Systems", "CBDC", "Sandbox", "Digital Banking", "Regulations"}
	Regions             = []string{"India", "Global"}
	CompanyCategories   = []string{"Payment Processing", "Digital Banking", "BNPL", "Lending", "Wealth Management", "Insurance"}
	RegulationCountries = []string{"European Union", "India", "Canada", "United States", "Australia"}
	RegulationStatuses  = []string{"active", "draft", "proposed"}
	NetworkNames        = []string{"Visa", "Mastercard", "RuPay", "American Express", "Diners Club", "JCB", "UnionPay",
		"UPI (NPCI)", "IMPS (NPCI)", "NEFT (RBI)", "RTGS (RBI)"}
	EventStatuses    = []string{"upcoming", "ongoing", "completed"}
	EventGroups      = []string{"major", "other"}
	EventTypes       = []string{"Conference", "Congress", "Expo", "Summit", "Festival"}
	EventFrequencies = []string{"Annual", "Bi-annual"}
	BodyNames        = []string{"RBI", "NPCI", "SEBI", "IRDAI"}
	AdCategories     = []string{"payment", "banking", "compliance"}
	VideoLevels      = []string{"Beginner", "Intermediate", "Advanced"}
)

// ImpactRank orders impact levels for sorting: high first.
func ImpactRank(level string) int {
	if i := slices.Index(ImpactLevels, level); i >= 0 {
		return i
	}
	return len(ImpactLevels)
}

// Date is a calendar date without a time of day, written YYYY-MM-DD.
type Date struct{ time.Time }

const dateLayout = "2006-01-02"

func (d Date) String() string { return d.Format(dateLayout) }

func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// MarshalJSON writes the date as "YYYY-MM-DD" too: without it the embedded
// time.Time's MarshalJSON wins over MarshalText and JSON (the templates'
// data, the data files) gets "YYYY-MM-DDT00:00:00Z".
func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	return d.UnmarshalText([]byte(s))
}

func (d *Date) UnmarshalText(b []byte) error {
	t, err := time.Parse(dateLayout, string(b))
	d.Time = t
	return err
}

// Entry is what every content entry has: where it came from and its identity.
type Entry struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Path string `json:"-"` // e.g. content/circulars/x.md
}

// EntityImpact is how hard a circular hits one kind of business.
type EntityImpact struct {
	EntityType  string `json:"entityType"`
	ImpactLevel string `json:"impactLevel"`
}

type Circular struct {
	Entry
	CircularNumber       string         `json:"circularNumber,omitempty"`
	Title                string         `json:"title"`
	TitleIsDescriptive   bool           `json:"titleIsDescriptive,omitempty"`
	Content              string         `json:"content"`
	Summary              string         `json:"summary,omitempty"`
	Source               string         `json:"source"`
	Category             string         `json:"category"`
	PublishedDate        Date           `json:"publishedDate"`
	EffectiveDate        *Date          `json:"effectiveDate,omitempty"`
	ImpactLevel          string         `json:"impactLevel"`
	EntityImpact         []EntityImpact `json:"entityImpact"`
	OfficialURL          string         `json:"officialUrl,omitempty"`
	SourceURL            string         `json:"sourceUrl"`
	AdditionalSourceURLs []string       `json:"additionalSourceUrls,omitempty"`
}

// ImpactFor returns the circular's impact on an entity type, or "" when
// the circular does not name it.
func (c Circular) ImpactFor(entityType string) string {
	for _, e := range c.EntityImpact {
		if e.EntityType == entityType {
			return e.ImpactLevel
		}
	}
	return ""
}

type NewsItem struct {
	Entry
	Title         string `json:"title"`
	Content       string `json:"content"`
	Excerpt       string `json:"excerpt"`
	Source        string `json:"source"`
	Category      string `json:"category"`
	Region        string `json:"region"`
	PublishedDate Date   `json:"publishedDate"`
	SourceURL     string `json:"sourceUrl"`
	Circular      string `json:"circular,omitempty"` // slug of the circular reported
}

type Company struct {
	Entry
	Name            string `json:"name"`
	Founder         string `json:"founder,omitempty"`
	Description     string `json:"description"`
	Country         string `json:"country"`
	Category        string `json:"category"`
	Founded         int    `json:"founded,omitempty"`
	Headquarters    string `json:"headquarters,omitempty"`
	WebsiteURL      string `json:"websiteUrl,omitempty"`
	LinkedinProfile string `json:"linkedinProfile,omitempty"`
	XProfile        string `json:"xProfile,omitempty"`
	SourceURL       string `json:"sourceUrl,omitempty"`
	// How /fintech-leaders shows the company (leaders.go): the person
	// featured (default the first founder), the group that orders the
	// Indian list, and whether the featured founder is the company's CEO.
	Leader      string `json:"leader,omitempty"`
	LeaderGroup string `json:"leaderGroup,omitempty"`
	LeaderIsCEO bool   `json:"leaderIsCeo"`
}

type Regulation struct {
	Entry
	Name                   string   `json:"name"`
	ShortName              string   `json:"shortName,omitempty"`
	Country                string   `json:"country"`
	Description            string   `json:"description"`
	Status                 string   `json:"status"`
	EffectiveDate          *Date    `json:"effectiveDate,omitempty"`
	Regulator              string   `json:"regulator,omitempty"`
	KeyProvisions          []string `json:"keyProvisions"`
	ComplianceRequirements []string `json:"complianceRequirements"`
	OfficialTextURL        string   `json:"officialTextUrl,omitempty"`
	SourceURL              string   `json:"sourceUrl,omitempty"`
}

type Network struct {
	Entry
	Name         string   `json:"name"`
	FullName     string   `json:"fullName,omitempty"`
	Type         string   `json:"type,omitempty"`
	Operator     string   `json:"operator,omitempty"`
	Founded      string   `json:"founded,omitempty"`
	Headquarters string   `json:"headquarters,omitempty"`
	Description  string   `json:"description"`
	Guidelines   []string `json:"guidelines"`
	ContactInfo  string   `json:"contactInfo,omitempty"`
	WebsiteURL   string   `json:"websiteUrl,omitempty"`
	SourceURL    string   `json:"sourceUrl,omitempty"`
	Profile      string   `json:"profile,omitempty"` // the Markdown body
}

type SibosEvent struct {
	Entry
	Title             string   `json:"title"`
	Year              int      `json:"year"`
	Theme             string   `json:"theme,omitempty"`
	Description       string   `json:"description"`
	Status            string   `json:"status"`
	StartDate         *Date    `json:"startDate,omitempty"`
	EndDate           *Date    `json:"endDate,omitempty"`
	Location          string   `json:"location,omitempty"`
	Venue             string   `json:"venue,omitempty"`
	ExpectedAttendees int      `json:"expectedAttendees,omitempty"`
	RegistrationOpen  bool     `json:"registrationOpen"`
	KeyTopics         []string `json:"keyTopics"`
	Speakers          []string `json:"speakers"`
	WebsiteURL        string   `json:"websiteUrl,omitempty"`
	SourceURL         string   `json:"sourceUrl,omitempty"`
}

type Event struct {
	Entry
	Name               string   `json:"name"`
	Group              string   `json:"group"`
	Type               string   `json:"type,omitempty"`
	Description        string   `json:"description"`
	Location           string   `json:"location,omitempty"`
	Frequency          string   `json:"frequency,omitempty"`
	Website            string   `json:"website,omitempty"`
	Focus              []string `json:"focus"`
	EstimatedAttendees string   `json:"estimatedAttendees,omitempty"`
	SourceURL          string   `json:"sourceUrl,omitempty"`
}

type PaymentBody struct {
	Entry
	Name          string   `json:"name"`
	ShortName     string   `json:"shortName"`
	Established   int      `json:"established,omitempty"`
	Headquarters  string   `json:"headquarters,omitempty"`
	Head          string   `json:"head,omitempty"`
	HeadTitle     string   `json:"headTitle,omitempty"`
	Website       string   `json:"website,omitempty"`
	KeyFunctions  []string `json:"keyFunctions"`
	RecentUpdates []string `json:"recentUpdates"` // circular slugs
	SourceURL     string   `json:"sourceUrl,omitempty"`
	Profile       string   `json:"profile,omitempty"`
}

type Ad struct {
	Entry
	Title       string `json:"title"`
	Description string `json:"description"`
	Company     string `json:"company"`
	Category    string `json:"category"`
	CTAText     string `json:"ctaText"`
	TargetURL   string `json:"targetUrl"`
	Sponsored   bool   `json:"sponsored"`
}

type Video struct {
	Entry
	Title           string `json:"title"`
	Description     string `json:"description"`
	DurationMinutes int    `json:"durationMinutes"`
	Level           string `json:"level"`
	Topic           string `json:"topic,omitempty"`
}

// Catalog is every content entry, validated. Lists are in display order:
// circulars and news newest first, the rest by file name.
type Catalog struct {
	Circulars   []Circular    `json:"circulars"`
	News        []NewsItem    `json:"news"`
	Companies   []Company     `json:"companies"`
	Regulations []Regulation  `json:"regulations"`
	Networks    []Network     `json:"networks"`
	Sibos       []SibosEvent  `json:"sibos"`
	Events      []Event       `json:"events"`
	Bodies      []PaymentBody `json:"bodies"`
	Ads         []Ad          `json:"ads"`
	Videos      []Video       `json:"videos"`
}

// CircularBySlug returns the circular with that slug.
func (c *Catalog) CircularBySlug(slug string) (Circular, bool) {
	for _, x := range c.Circulars {
		if x.Slug == slug {
			return x, true
		}
	}
	return Circular{}, false
}
