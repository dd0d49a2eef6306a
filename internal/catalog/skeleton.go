package catalog

import (
	"fmt"
	"strings"
	"time"
)

// skeletons are the front matter of a new entry per kind: every field,
// each with a comment saying what goes there. Required fields are marked.
var skeletons = map[string]string{
	"circulars": `circularNumber: ""      # the regulator's reference; leave empty if not known — never guess
title: ""               # required: the regulator's title, or a neutral description
titleIsDescriptive: false  # true when title is our description, not the regulator's
source: RBI             # required: ` + strings.Join(Sources, ", ") + `
category: ""            # required: ` + strings.Join(CircularCategories, ", ") + `
publishedDate: {{today}}  # required: YYYY-MM-DD
effectiveDate:          # optional: YYYY-MM-DD
impactLevel: medium     # required: high, medium, low (normally the highest below)
entityImpact:           # required: at least one of PSP, Issuer, Aggregator
  PSP: medium
  Issuer: low
  Aggregator: low
officialUrl:            # optional: the regulator's own URL for the document
sourceUrl: ""           # required: where the facts were seen
additionalSourceUrls: []  # optional: more sources
summary: ""             # optional: one or two sentences`,
	"news": `title: ""               # required
excerpt: ""             # required: one sentence, at most 200 characters
source: ""              # required: who published it (e.g. RBI, NPCI, Swift)
category: ""            # required: ` + strings.Join(NewsCategories, ", ") + `
region: India           # required: India, Global
publishedDate: {{today}}  # required: YYYY-MM-DD
sourceUrl: ""           # required: URL of the source
circular:               # optional: slug of the circular this reports`,
	"companies": `name: ""                # required
founder: ""             # optional: confirmed founders, joined by ", "
description: ""         # required: one or two sentences
country: ""             # required
category: ""            # required: ` + strings.Join(CompanyCategories, ", ") + `
founded:                # optional: year, only when confirmed
headquarters: ""        # optional
websiteUrl:             # optional
linkedinProfile:        # optional
xProfile:               # optional
sourceUrl:              # optional: where the facts were seen
leader:                 # optional: person shown on /fintech-leaders (default: first founder)
leaderGroup:            # optional, India only: ` + strings.Join(LeaderGroups, ", ") + `
leaderIsCeo:            # optional: false when the featured founder is not the CEO`,
	"regulations": `name: ""                # required
shortName: ""           # optional: e.g. GDPR
country: ""             # required: ` + strings.Join(RegulationCountries, ", ") + `
status: active          # required: ` + strings.Join(RegulationStatuses, ", ") + `
effectiveDate:          # optional: YYYY-MM-DD
regulator: ""           # optional
keyProvisions: []       # required: at least one
complianceRequirements: []  # optional
officialTextUrl:        # optional: only a URL seen in a source
sourceUrl:              # optional`,
	"networks": `name: ""                # required: ` + strings.Join(NetworkNames, ", ") + `
fullName: ""            # optional
type: ""                # optional: card network, payment rail...
operator: ""            # optional
founded: ""             # optional (text)
headquarters: ""        # optional
description: ""         # required: one or two sentences
guidelines: []          # required: rules that matter in India, one line each
contactInfo: ""         # optional
websiteUrl:             # optional: only when seen in a source
sourceUrl:              # optional`,
	"sibos": `title: ""               # required: e.g. Sibos 2027
year: {{year}}          # required
theme: ""               # optional
status: upcoming        # required: ` + strings.Join(EventStatuses, ", ") + `
startDate:              # optional: YYYY-MM-DD
endDate:                # optional: YYYY-MM-DD
location: ""            # optional: city, country
venue: ""               # optional
expectedAttendees:      # optional: whole number
registrationOpen: false
keyTopics: []
speakers: []
websiteUrl:             # optional
sourceUrl:              # optional`,
	"events": `name: ""                # required
group: other            # required: major (sidebar) or other (/fintech-events)
type:                   # optional: ` + strings.Join(EventTypes, ", ") + `
location: ""            # optional
frequency:              # optional: Annual, Bi-annual
estimatedAttendees: ""  # optional (text)
website:                # optional: only when seen in a source
focus: []               # optional
sourceUrl:              # optional`,
	"bodies": `name: ""                # required: full name
shortName: ""           # required: ` + strings.Join(BodyNames, ", ") + ` (the file must be its lowercase)
established:            # optional: year
headquarters: ""        # optional
head: ""                # optional: only with a source
headTitle: ""           # optional
website:                # optional
keyFunctions: []        # required
recentUpdates: []       # optional: slugs of circulars
sourceUrl:              # optional`,
	"ads": `title: ""               # required
description: ""         # required
company: ""             # required
category: payment       # required: ` + strings.Join(AdCategories, ", ") + `
ctaText: Learn More     # required
targetUrl: ""           # required: /path or https:// URL
sponsored: true`,
	"videos": `title: ""               # required
description: ""         # required
durationMinutes: 15     # required
level: Beginner         # required: ` + strings.Join(VideoLevels, ", ") + `
topic: ""               # optional`,
}

// bodyHints is the placeholder text of a new entry's body.
var bodyHints = map[string]string{
	"circulars":   "What the circular says and who must do what, in your own words.",
	"news":        "The news item, in your own words.",
	"regulations": "What the regulation covers.",
	"networks":    "The longer profile of the network (optional).",
	"sibos":       "About this edition.",
	"events":      "About the event.",
	"bodies":      "The body's role for payments and fintech (optional).",
}

// Skeleton returns a new entry of kind with every field present and
// commented, ready for an editor to fill in.
func Skeleton(kind string, now time.Time) (string, error) {
	s, ok := skeletons[kind]
	if !ok {
		return "", fmt.Errorf("unknown kind %q (one of %s)", kind, strings.Join(Kinds(), ", "))
	}
	s = strings.NewReplacer("{{today}}", now.Format(dateLayout), "{{year}}", fmt.Sprint(now.Year())).Replace(s)
	return "---\n" + s + "\n---\n\n" + bodyHints[kind] + "\n", nil
}
