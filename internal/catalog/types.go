package catalog

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
)

// SourceOther is the source of a circular of no regulator RegPulse
// follows (a ministry's, a standard body's): a source, not a regulator.
const SourceOther = "other"

// The enumerations. Values are spelled exactly as pages and regulators
// write them, because they appear in URLs, JSON and filters.
var (
	Sources = []string{"RBI", "NPCI", "SEBI", "IRDAI", "PFRDA", "PRB", "IDRBT", SourceOther}
	// Regulators are the sources that are regulators: every source but
	// SourceOther. What filters, feeds, lists and preferences name by
	// regulator is over these.
	Regulators         = slices.DeleteFunc(slices.Clone(Sources), func(s string) bool { return s == SourceOther })
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
	AdSizes          = []string{"small", "medium", "large"}
	AdPlacements     = []string{"header", "content"}
	VideoLevels      = []string{"Beginner", "Intermediate", "Advanced"}
	// DocumentTypes are the kinds of document a regulator issues; see
	// DocumentTypeLabel for how pages name them and Binding for which
	// of them oblige anyone to act.
	DocumentTypes = []string{"circular", "direction", "master-direction", "amendment", "notification",
		"draft", "discussion-paper", "consultation-paper", "advisory", "press-release", "policy"}
	// Verifications say how far a circular's entry has been checked
	// against the regulator's own text; see VerificationLabel and
	// VerificationNote for what pages say of each.
	Verifications = []string{"checked", "reported", "pending"}
	// UncheckedVerifications are the verifications of an entry still
	// awaiting a check against the regulator's text (the dashboard counts
	// them).
	UncheckedVerifications = []string{"reported", "pending"}
)

// Enums names each enumeration, for the enum tags of the entry types
// and the API's description of them.
var Enums = map[string][]string{
	"Source":                Sources,
	"CircularCategory":      CircularCategories,
	"ImpactLevel":           ImpactLevels,
	"EntityType":            EntityTypes,
	"NewsCategory":          NewsCategories,
	"Region":                Regions,
	"Lang":                  Langs,
	"CompanyCategory":       CompanyCategories,
	"LeaderGroup":           LeaderGroups,
	"RegulationCountry":     RegulationCountries,
	"RegulationStatus":      RegulationStatuses,
	"NetworkName":           NetworkNames,
	"EventStatus":           EventStatuses,
	"EventGroup":            EventGroups,
	"EventType":             EventTypes,
	"EventFrequency":        EventFrequencies,
	"BodyName":              BodyNames,
	"AdCategory":            AdCategories,
	"AdSize":                AdSizes,
	"AdPlacement":           AdPlacements,
	"VideoLevel":            VideoLevels,
	"DocumentType":          DocumentTypes,
	"Verification":          Verifications,
	"DirectionStatus":       DirectionStatuses,
	"Wording":               Wordings,
	"EffectKind":            EffectKinds,
	"ObligationKind":        ObligationKinds,
	"ObligationOrigin":      ObligationOrigins,
	"ObligationParty":       ObligationParties,
	"SourceKind":            SourceKinds,
	"SourceForm":            SourceForms,
	"OfficialURLConfidence": OfficialURLConfidences,
	"PublicationEvent":      PublicationEvents,
	"PublicationKind":       PublicationKinds,
}

// ImpactRank orders impact levels for sorting: high first.
func ImpactRank(level string) int {
	if i := slices.Index(ImpactLevels, level); i >= 0 {
		return i
	}
	return len(ImpactLevels)
}

// Optional values. Every field of an entry is always present in its JSON;
// one whose value is not known is null (a list is [] instead). Optional
// text is "" when absent and an optional whole number 0; optional dates are
// nil pointers. These types are the one place that rule is written.

// OptString is optional text: "" means absent, written as JSON null.
type OptString string

func (s OptString) MarshalJSON() ([]byte, error) {
	if s == "" {
		return []byte("null"), nil
	}
	return quoteJSON(string(s))
}

func (s *OptString) UnmarshalJSON(b []byte) error { return unmarshalOpt(b, (*string)(s)) }

// OptInt is an optional whole number: 0 means absent, written as JSON null.
type OptInt int

func (n OptInt) MarshalJSON() ([]byte, error) {
	if n == 0 {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(n), 10), nil
}

func (n *OptInt) UnmarshalJSON(b []byte) error { return unmarshalOpt(b, (*int)(n)) }

// unmarshalOpt reads JSON into v; null is v's zero value.
func unmarshalOpt[T any](b []byte, v *T) error {
	if string(b) == "null" {
		var zero T
		*v = zero
		return nil
	}
	return json.Unmarshal(b, v)
}

// List is a list, written as [] when empty or nil.
type List[T any] []T

func (l List[T]) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	if texts, ok := any(l).(List[string]); ok {
		return textsJSON(texts)
	}
	return json.Marshal([]T(l))
}

// quoteJSON is s as encoding/json writes a string (with <, > and &
// escaped), without its reflection where s is plain ASCII that needs no
// escape, as most of the catalog's text is: the views of a build at
// 100,000 circulars spent most of their encoding's CPU in these types'
// MarshalJSON, once for each optional field.
func quoteJSON(s string) ([]byte, error) {
	if !plainJSON(s) {
		return json.Marshal(s)
	}
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// textsJSON is texts as encoding/json writes a []string (quoteJSON).
func textsJSON(texts List[string]) ([]byte, error) {
	n := 2
	for _, s := range texts {
		if !plainJSON(s) {
			return json.Marshal([]string(texts))
		}
		n += len(s) + 3
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, s := range texts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, s...)
		b = append(b, '"')
	}
	return append(b, ']'), nil
}

// plainJSON says s is printable ASCII that encoding/json writes as it is.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// TextList is a list of text.
type TextList = List[string]

// Entry is what every content entry has: where it came from and its identity.
type Entry struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Path string `json:"-"` // e.g. content/circulars/x.md
}

// File is the entry's file (Path): a method, so that code over entries of
// any kind can ask it of each.
func (e Entry) File() string { return e.Path }

// EntityImpact is how hard a circular hits one kind of business.
type EntityImpact struct {
	EntityType  string `json:"entityType" enum:"EntityType"`
	ImpactLevel string `json:"impactLevel" enum:"ImpactLevel"`
}

// The entry types below are the one definition of each entity: the loader
// fills them, the templates read their JSON, the store scans into them (a
// column per JSON field, in snake_case) and the API writes them as they are.
// An enum tag names the list of allowed values in Enums.

type Circular struct {
	Entry
	CircularNumber     OptString `json:"circularNumber"`
	Title              string    `json:"title"`
	TitleIsDescriptive bool      `json:"titleIsDescriptive"`
	Content            string    `json:"content"`
	Summary            OptString `json:"summary"`
	Source             string    `json:"source" enum:"Source"`
	Category           string    `json:"category" enum:"CircularCategory"`
	PublishedDate      Date      `json:"publishedDate"`
	EffectiveDate      *Date     `json:"effectiveDate"`
	DocumentType       string    `json:"documentType" enum:"DocumentType"`
	// ComplianceDates are deadlines beyond the effective date.
	ComplianceDates List[ComplianceDate] `json:"complianceDates"`
	// Supersedes lists the slugs of the circulars this one replaces;
	// SupersededBy, derived by the loader from the others' Supersedes,
	// the slugs of those that replace it.
	Supersedes   TextList `json:"supersedes"`
	SupersededBy TextList `json:"supersededBy"`
	// CommentsDue is the day by which a draft, discussion paper or
	// consultation paper asks for comments (Consultative types only).
	CommentsDue *Date `json:"commentsDue"`
	// FinalOf is the slug of the draft (a Consultative circular) this
	// final instrument finalises; FinalisedBy, derived by the loader from
	// the others' FinalOf, the slugs of the final instruments of a draft.
	FinalOf      OptString          `json:"finalOf"`
	FinalisedBy  TextList           `json:"finalisedBy"`
	ImpactLevel  string             `json:"impactLevel" enum:"ImpactLevel"`
	EntityImpact List[EntityImpact] `json:"entityImpact"`
	OfficialURL  OptString          `json:"officialUrl"`
	// OfficialURLConfidence says how well officialUrl was matched to this
	// circular (one of OfficialURLConfidences; medium ones await an
	// editor's review).
	OfficialURLConfidence OptString `json:"officialUrlConfidence" enum:"OfficialURLConfidence"`
	SourceURL             string    `json:"sourceUrl"`
	// SourceKind is what sourceUrl is (one of SourceKinds).
	SourceKind           OptString `json:"sourceKind" enum:"SourceKind"`
	AdditionalSourceURLs TextList  `json:"additionalSourceUrls"`
	// Links, derived by the loader, are every link above once, official
	// first, each with its kind, host and label: what pages, feeds, the
	// API and the CSV show.
	Links List[SourceLink] `json:"links"`
	// Verification says whether the entry was checked against the
	// regulator's own text (one of Verifications); never empty for a
	// published circular: the loader derives it from the links when the
	// front matter is silent (verification.go).
	Verification OptString `json:"verification" enum:"Verification"`
	// VerificationDerived says the loader derived Verification from the
	// links, the front matter stating none (verification.go).
	VerificationDerived bool `json:"-"`
	// AISummary is the summary the API last generated (never read from
	// content; the store joins it in, and builds given a store show it).
	AISummary *GeneratedSummary `json:"aiSummary"`
	// Preview is the start of the text as cards show it (PreviewText):
	// computed for what cards are drawn from (the API's lists, searches
	// and single circulars; the site's views), never stored; empty in the
	// bulk export, which carries the whole content.
	Preview string `json:"preview" store:"-"`
	// Lang is the language of the title and text (one of Langs,
	// TextLang): set by the loader and where previews are (WithPreviews),
	// never stored. Pages and islands put it in a lang attribute on the
	// title and text when it is not the page's language.
	Lang string `json:"lang" enum:"Lang" store:"-"`
	// Replacements name the circulars of SupersededBy (those published),
	// as a card's "Superseded by" note links them: computed where
	// previews are (WithPreviews' callers), never stored.
	Replacements List[CircularRef] `json:"replacements" store:"-"`
	// WithdrawnOn, derived by the loader (lifecycle.go), is the day from
	// which the circular is no longer in force, replaced or withdrawn
	// (null while it is); WithdrawnBy the catalog's circulars that did
	// it; RulesNowIn the instruments its rules are now in.
	WithdrawnOn *Date          `json:"withdrawnOn"`
	WithdrawnBy TextList       `json:"withdrawnBy"`
	RulesNowIn  List[RuleHome] `json:"rulesNowIn"`
	// Withdrawal is the front matter's withdrawn, which WithdrawnOn
	// follows from (with the other ends of lifecycle.go).
	Withdrawal *Withdrawal `json:"-"`
	// HindiVersion is the regulator's own Hindi version of this (English)
	// circular, from the front matter (hindiversion.go): the page links
	// it. Content only: not stored, so the API's circulars read from a
	// store do not carry it.
	HindiVersion *HindiVersion `json:"hindiVersion" store:"-"`
	// Obligations are what the editors wrote in the front matter
	// (obligations.go). They are not part of the circular's JSON: the
	// store keeps them in their own table and the API serves them apart.
	Obligations []Obligation `json:"-"`
}

// ComplianceDate is a date by which a circular demands something.
type ComplianceDate struct {
	Date Date   `json:"date"`
	What string `json:"what"`
}

// documentTypeLabels are how pages name each document type.
var documentTypeLabels = map[string]string{
	"circular":           "Circular",
	"direction":          "Directions",
	"master-direction":   "Master Direction",
	"amendment":          "Amendment",
	"notification":       "Notification",
	"draft":              "Draft for comments",
	"discussion-paper":   "Discussion paper",
	"consultation-paper": "Consultation paper",
	"advisory":           "Advisory",
	"press-release":      "Press release",
	"policy":             "Policy document",
}

// DocumentTypeLabel is the name pages show for a document type.
func DocumentTypeLabel(t string) string { return documentTypeLabels[t] }

// verificationLabels are the short labels of cards and pages;
// verificationNotes the sentence a circular's page (and its feed entry)
// shows under it. One place, so that no text repeats the caveat by hand.
var (
	verificationLabels = map[string]string{
		"checked":  "Checked against official text",
		"reported": "As reported: not yet checked",
		"pending":  "Awaiting verification",
	}
	verificationNotes = map[string]string{
		"checked": "An editor has checked this entry against the regulator's own text.",
		"reported": "This summary rests on secondary sources that quote or describe the regulator (reports, digests, notes); " +
			"it has not yet been checked against the regulator's own text. Read the official document before relying on it.",
		"pending": "The regulator's document has been identified but not yet read: this summary has not yet been checked " +
			"against the regulator's own text. Read the official document before relying on it.",
	}
)

// VerificationLabel is the short label pages show for a verification,
// "" for none.
func VerificationLabel(v string) string { return verificationLabels[v] }

// VerificationNote is the sentence that explains a verification, "" for
// none.
func VerificationNote(v string) string { return verificationNotes[v] }

// AwaitsVerification reports whether c's entry is still to be checked
// against the regulator's text.
func (c Circular) AwaitsVerification() bool {
	return slices.Contains(UncheckedVerifications, string(c.Verification))
}

// Binding reports whether a document of type t obliges anyone to act.
// Drafts, discussion and consultation papers ask for comments; press
// releases and policy documents announce or plan. None is an obligation,
// so none lowers a compliance score.
func Binding(t string) bool {
	switch t {
	case "draft", "discussion-paper", "consultation-paper", "press-release", "policy":
		return false
	}
	return true
}

// Consultative reports whether a document of type t asks for comments:
// a draft, a discussion paper or a consultation paper. Only these carry a
// comment deadline (commentsDue), and only these can be finalised.
func Consultative(t string) bool {
	switch t {
	case "draft", "discussion-paper", "consultation-paper":
		return true
	}
	return false
}

// CommentsOpen reports whether c still takes comments on day today: it
// has a comment deadline not yet past and no final instrument.
func (c Circular) CommentsOpen(today time.Time) bool {
	return c.CommentsDue != nil && !c.CommentsDue.Before(Day(today)) && len(c.FinalisedBy) == 0
}

// Heading is how a circular is named in lists, feeds and calendars:
// "number — title", or the title when the number is not known.
func (c Circular) Heading() string {
	if c.CircularNumber == "" {
		return c.Title
	}
	return string(c.CircularNumber) + " — " + c.Title
}

// CircularRef names a circular as a link to it does.
type CircularRef struct {
	Slug           string    `json:"slug"`
	CircularNumber OptString `json:"circularNumber"`
	Title          string    `json:"title"`
}

// Superseded reports whether a newer circular replaces c.
func (c Circular) Superseded() bool { return len(c.SupersededBy) > 0 }

// Dates is every date on which c demands or announces something: its
// publication, its effective date and its compliance dates.
func (c Circular) Dates() []time.Time {
	out := []time.Time{c.PublishedDate.Time}
	if c.EffectiveDate != nil {
		out = append(out, c.EffectiveDate.Time)
	}
	for _, d := range c.ComplianceDates {
		out = append(out, d.Date.Time)
	}
	return out
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
	Title         string    `json:"title"`
	Content       string    `json:"content"`
	Excerpt       string    `json:"excerpt"`
	Source        string    `json:"source"`
	Category      string    `json:"category" enum:"NewsCategory"`
	Region        string    `json:"region" enum:"Region"`
	PublishedDate Date      `json:"publishedDate"`
	SourceURL     string    `json:"sourceUrl"`
	Circular      OptString `json:"circular"` // slug of the circular reported
	// Lang is the language of the title, excerpt and text (one of Langs,
	// TextLang): set by the loader and the API's list (WithNewsLangs),
	// never stored; shown as the circulars' Lang is.
	Lang string `json:"lang" enum:"Lang" store:"-"`
}

type Company struct {
	Entry
	Name            string    `json:"name"`
	Founder         OptString `json:"founder"`
	Description     string    `json:"description"`
	Country         string    `json:"country"`
	Category        string    `json:"category" enum:"CompanyCategory"`
	Founded         OptInt    `json:"founded"`
	Headquarters    OptString `json:"headquarters"`
	WebsiteURL      OptString `json:"websiteUrl"`
	LinkedinProfile OptString `json:"linkedinProfile"`
	XProfile        OptString `json:"xProfile"`
	SourceURL       OptString `json:"sourceUrl"`
	// How /fintech-leaders shows the company (leaders.go): the person
	// featured (default the first founder), the group that orders the
	// Indian list, and whether the featured founder is the company's CEO.
	Leader      OptString `json:"leader"`
	LeaderGroup OptString `json:"leaderGroup" enum:"LeaderGroup"`
	LeaderIsCEO bool      `json:"leaderIsCeo"`
}

type Regulation struct {
	Entry
	Name                   string    `json:"name"`
	ShortName              OptString `json:"shortName"`
	Country                string    `json:"country" enum:"RegulationCountry"`
	Description            string    `json:"description"`
	Status                 string    `json:"status" enum:"RegulationStatus"`
	EffectiveDate          *Date     `json:"effectiveDate"`
	Regulator              OptString `json:"regulator"`
	KeyProvisions          TextList  `json:"keyProvisions"`
	ComplianceRequirements TextList  `json:"complianceRequirements"`
	OfficialTextURL        OptString `json:"officialTextUrl"`
	SourceURL              OptString `json:"sourceUrl"`
}

type Network struct {
	Entry
	Name         string    `json:"name" enum:"NetworkName"`
	FullName     OptString `json:"fullName"`
	Type         OptString `json:"type"`
	Operator     OptString `json:"operator"`
	Founded      OptString `json:"founded"`
	Headquarters OptString `json:"headquarters"`
	Description  string    `json:"description"`
	Guidelines   TextList  `json:"guidelines"`
	// GuidelinesAsOf is the day the hand-kept guidelines were last known
	// true (no catalog item backs each line, so pages say "As of").
	// CircularTerms are the words that make a circular about the network
	// (Mentions): its recent circulars are derived from them. Neither is
	// stored or served by the API (the site shows them).
	GuidelinesAsOf *Date     `json:"-" store:"-"`
	CircularTerms  TextList  `json:"-" store:"-"`
	ContactInfo    OptString `json:"contactInfo"`
	WebsiteURL     OptString `json:"websiteUrl"`
	SourceURL      OptString `json:"sourceUrl"`
	Profile        OptString `json:"profile"` // the Markdown body
}

type SibosEvent struct {
	Entry
	Title             string    `json:"title"`
	Year              int       `json:"year"`
	Theme             OptString `json:"theme"`
	Description       string    `json:"description"`
	Status            string    `json:"status" enum:"EventStatus"`
	StartDate         *Date     `json:"startDate"`
	EndDate           *Date     `json:"endDate"`
	Location          OptString `json:"location"`
	Venue             OptString `json:"venue"`
	ExpectedAttendees OptInt    `json:"expectedAttendees"`
	RegistrationOpen  bool      `json:"registrationOpen"`
	KeyTopics         TextList  `json:"keyTopics"`
	Speakers          TextList  `json:"speakers"`
	WebsiteURL        OptString `json:"websiteUrl"`
	SourceURL         OptString `json:"sourceUrl"`
}

type Event struct {
	Entry
	Name               string    `json:"name"`
	Group              string    `json:"group" enum:"EventGroup"`
	Type               OptString `json:"type" enum:"EventType"`
	Description        string    `json:"description"`
	Location           OptString `json:"location"`
	Frequency          OptString `json:"frequency" enum:"EventFrequency"`
	Website            OptString `json:"website"`
	Focus              TextList  `json:"focus"`
	EstimatedAttendees OptString `json:"estimatedAttendees"`
	SourceURL          OptString `json:"sourceUrl"`
	// Editions are the event's editions in date order: the front
	// matter's, or for Sibos the sibos collection's (linkEditions).
	// Pages derive the next one (NextEdition) as of the build's date.
	Editions List[Edition] `json:"editions"`
}

type PaymentBody struct {
	Entry
	Name         string    `json:"name"`
	ShortName    string    `json:"shortName" enum:"BodyName"`
	Established  OptInt    `json:"established"`
	Headquarters OptString `json:"headquarters"`
	Head         OptString `json:"head"`
	HeadTitle    OptString `json:"headTitle"`
	Website      OptString `json:"website"`
	KeyFunctions TextList  `json:"keyFunctions"`
	SourceURL    OptString `json:"sourceUrl"`
	Profile      OptString `json:"profile"`
}

type Ad struct {
	Entry
	Title       string `json:"title"`
	Description string `json:"description"`
	Company     string `json:"company"`
	Category    string `json:"category" enum:"AdCategory"`
	CTAText     string `json:"ctaText"`
	TargetURL   string `json:"targetUrl"`
	Sponsored   bool   `json:"sponsored"`
}

// AdSlot is an advertisement placeholder block: its slug is the slot's id
// (the placeholder an ad server would fill), size and placement say where
// and how large it is drawn.
type AdSlot struct {
	Entry
	Title       string `json:"title"`
	Description string `json:"description"`
	ButtonText  string `json:"buttonText"`
	// TargetURL is where the button leads; absent, it writes to the
	// site's contact address about advertising in this slot.
	TargetURL OptString `json:"targetUrl"`
	Size      string    `json:"size" enum:"AdSize"`
	Placement string    `json:"placement" enum:"AdPlacement"`
}

type Video struct {
	Entry
	Title           string    `json:"title"`
	Description     string    `json:"description"`
	DurationMinutes int       `json:"durationMinutes"`
	Level           string    `json:"level" enum:"VideoLevel"`
	Topic           OptString `json:"topic"`
}

// Catalog is every content entry, validated. Lists are in display order:
// circulars and news newest first, the rest by file name.
type Catalog struct {
	Circulars []Circular `json:"circulars"`
	// Unpublished are circulars whose file says published: false (an
	// editor has yet to complete them, e.g. after regpulse ingest); they
	// are in no list above and no page. Pending says what each still
	// lacks. IncludeUnpublished publishes them.
	Unpublished []Circular `json:"-"`
	Pending     Problems   `json:"-"`
	// Warnings are what regpulse check reports without failing: links
	// that do not say what they are, circulars with no official link.
	Warnings Problems `json:"-"`

	News        []NewsItem    `json:"news"`
	Companies   []Company     `json:"companies"`
	Regulations []Regulation  `json:"regulations"`
	Networks    []Network     `json:"networks"`
	Sibos       []SibosEvent  `json:"sibos"`
	Events      []Event       `json:"events"`
	Bodies      []PaymentBody `json:"bodies"`
	Ads         []Ad          `json:"ads"`
	AdSlots     []AdSlot      `json:"adSlots"`
	Videos      []Video       `json:"videos"`
	// Directions are the Master Directions with their versions
	// (directions.go), newest issued first.
	Directions []MasterDirection `json:"directions"`
}
