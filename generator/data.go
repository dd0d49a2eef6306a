package generator

import (
	"slices"
	"strings"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/extract"
	"regpulse/internal/markdown"
	"regpulse/internal/newsletter"
	"regpulse/internal/search"
)

// circularView is a circular with what its page and cards show beyond the
// catalog: the card preview and related circulars.
type circularView struct {
	catalog.Circular
	// Content, the circular's whole text, is left out of the templates'
	// data: no template reads it (each page has it as its body), and with
	// it the data of tens of thousands of circulars is hundreds of MB
	// that Hugo parses. It shadows the catalog's field and is always nil.
	Content *struct{} `json:"content,omitempty"`
	Preview string    `json:"preview"`
	Related []string  `json:"related"` // slugs
}

// A circular's preview is 200 characters on cards and
// 150 on the impact tracker.
const (
	cardPreviewLen   = 200
	impactPreviewLen = 150
)

// circularPreview is the plain-text start of a circular, n characters long.
func circularPreview(c catalog.Circular, n int) string {
	return markdown.Preview(markdown.PlainText(c.Content), n)
}

// relatedLimit is how many related circulars a circular page lists.
const relatedLimit = 5

// relatedIndex finds each circular's related circulars from lists of the
// circulars by source, by category and by both, instead of comparing every
// circular with every other (quadratic in a catalog of tens of thousands).
// Lists hold positions in cat.Circulars, so they run newest first.
type relatedIndex struct {
	circulars                    []catalog.Circular
	bySource, byCategory, byBoth map[string][]int
}

func newRelatedIndex(cs []catalog.Circular) *relatedIndex {
	x := &relatedIndex{circulars: cs, bySource: map[string][]int{}, byCategory: map[string][]int{}, byBoth: map[string][]int{}}
	for i, c := range cs {
		x.bySource[c.Source] = append(x.bySource[c.Source], i)
		x.byCategory[c.Category] = append(x.byCategory[c.Category], i)
		k := bothKey(c)
		x.byBoth[k] = append(x.byBoth[k], i)
	}
	return x
}

func bothKey(c catalog.Circular) string { return c.Source + "\x00" + c.Category }

// related picks up to relatedLimit circulars that share the source or the
// category with cs[i]: those sharing both first, then the newest.
func (x *relatedIndex) related(i int) []string {
	c := x.circulars[i]
	var out []string
	for _, j := range x.byBoth[bothKey(c)] {
		if len(out) == relatedLimit {
			return out
		}
		if j != i {
			out = append(out, x.circulars[j].Slug)
		}
	}
	// Then those sharing one of the two: the two lists merged newest first,
	// skipping the circulars that share both (already taken).
	src, cat := x.bySource[c.Source], x.byCategory[c.Category]
	for len(out) < relatedLimit && (len(src) > 0 || len(cat) > 0) {
		var j int
		if len(cat) == 0 || (len(src) > 0 && src[0] < cat[0]) {
			j, src = src[0], src[1:]
		} else {
			j, cat = cat[0], cat[1:]
		}
		if o := x.circulars[j]; o.Source != c.Source || o.Category != c.Category {
			out = append(out, o.Slug)
		}
	}
	return out
}

// documentTypeLabels maps each document type to the name pages show.
func documentTypeLabels() map[string]string {
	out := map[string]string{}
	for _, t := range catalog.DocumentTypes {
		out[t] = catalog.DocumentTypeLabel(t)
	}
	return out
}

// verificationView is how pages show one verification: the card's label
// and the page's note.
type verificationView struct {
	Label string `json:"label"`
	Note  string `json:"note"`
}

// verificationViews maps each verification to its label and note.
func verificationViews() map[string]verificationView {
	out := map[string]verificationView{}
	for _, v := range catalog.Verifications {
		out[v] = verificationView{Label: catalog.VerificationLabel(v), Note: catalog.VerificationNote(v)}
	}
	return out
}

// circularViews are the circulars as templates show them, in the
// catalog's order.
func circularViews(cat *catalog.Catalog, txt texts) []circularView {
	views := make([]circularView, len(cat.Circulars))
	rel := newRelatedIndex(cat.Circulars)
	for i, c := range cat.Circulars {
		views[i] = circularView{Circular: c, Preview: txt.preview(c, cardPreviewLen), Related: rel.related(i)}
	}
	return views
}

// templateData is what templates read as hugo.Data.site. Keys are kept as
// written (Hugo does not lower-case data files), so templates use the
// catalog's JSON field names.
func templateData(cat *catalog.Catalog, assets *Assets, opts Options, views []circularView) map[string]any {
	index := make(map[string]int, len(views))
	for i, v := range views {
		index[v.Slug] = i
	}
	bodies := map[string]bodyView{}
	entries := map[string]catalog.PaymentBody{}
	for _, b := range cat.Bodies {
		bodies[b.Slug] = newBodyView(cat, b)
		entries[b.Slug] = b
	}
	events := map[string]catalog.Event{}
	for _, e := range cat.Events {
		events[e.Slug] = e
	}
	indian, global := catalog.Leaders(cat.Companies)
	type feedLink struct{ Title, Atom, JSON, Source, Slug string }
	var feeds []feedLink
	for _, f := range Feeds() {
		feeds = append(feeds, feedLink{Title: f.Title, Atom: f.Atom, JSON: f.JSON, Source: f.Source, Slug: strings.ToLower(f.Source)})
	}
	return map[string]any{
		"assets":         assets,
		"circulars":      views,
		"circularIndex":  index, // slug → place in circulars (_partials/circular-view.html)
		"circularLists":  newCircularListsView(cat),
		"listPageSize":   ListPageSize,
		"fallbackIndex":  "", // /search's index without the API, when small enough (Build sets it)
		"bodies":         bodies,
		"bodyEntries":    entries, // the bodies without their lists, which change with every circular
		"events":         events,
		"feeds":          feeds,
		"supportEmail":   opts.SupportEmail,
		"entityTypes":    entityTypes(),
		"impactTracker":  impactTracker(cat, opts.Now()),
		"dashboard":      newDashboardView(cat, opts.Now(), opts.ActiveUsers),
		"documentTypes":  documentTypeLabels(),
		"verifications":  verificationViews(),
		"calendar":       CalendarPath,
		"uploadMaxBytes": extract.MaxUpload, // the summarizer refuses larger files before uploading
		// the directories, in the catalog's display order
		"regulations": cat.Regulations,
		"networks":    cat.Networks,
		"companies":   cat.Companies,
		"sibos":       cat.Sibos,
		"eventList":   cat.Events,
		"news":        cat.News,
		"videos":      cat.Videos,
		// /fintech-leaders' two lists, ordered, with each card's person and role title
		"leaders": map[string][]catalog.Leader{"indian": indian, "global": global},
		"api":     map[string]any{"maxLimit": catalog.MaxLimit}, // the API's rules islands follow
		// the newsletter's topic choices, as the API takes them
		"newsletterTopics": newsletterTopics(),
		"enums": map[string][]string{ // filter options, for islands' props
			"regulationCountries": catalog.RegulationCountries,
			"regulationStatuses":  catalog.RegulationStatuses,
			"newsCategories":      catalog.NewsCategories,
			"companyCategories":   catalog.CompanyCategories,
			"impactLevels":        catalog.ImpactLevels,
			"circularCategories":  catalog.CircularCategories,
			// the regulators a search filters by ("other" is no regulator)
			"searchSources": slices.DeleteFunc(slices.Clone(catalog.Sources), func(s string) bool { return s == "other" }),
			// the values of a user's preferences (/profile)
			"preferenceSources":    auth.PreferenceSources,
			"preferenceCategories": auth.PreferenceCategories,
		},
		// what /search shows of the API's search rules
		"search": map[string]any{"pageSize": search.PageSize, "maxQueryLength": search.MaxQueryLength},
	}
}

// topicChoice is a newsletter topic as forms offer it.
type topicChoice struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Default bool   `json:"default"`
}

func newsletterTopics() []topicChoice {
	out := make([]topicChoice, len(newsletter.Topics))
	for i, t := range newsletter.Topics {
		out[i] = topicChoice{ID: t, Label: newsletter.TopicLabels[t], Default: slices.Contains(newsletter.DefaultTopics, t)}
	}
	return out
}
