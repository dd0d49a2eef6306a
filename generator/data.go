package generator

import (
	"maps"
	"slices"
	"strings"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/directions"
	"regpulse/internal/extract"
	"regpulse/internal/newsletter"
	"regpulse/internal/register"
	"regpulse/internal/related"
	"regpulse/internal/search"
	"regpulse/internal/teams"
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
	// Card is the circular's card as the build rendered it once for all
	// the pages of its later runs (cards.go); empty in the catalog's views.
	Card string `json:"card,omitempty"`
	// Directions are the Master Directions it issued, amended, replaced
	// or withdrew (directions.go), for its page's links to them.
	Directions []directionCitation `json:"directions,omitempty"`
	// InForce is c.InForce as of the build: a page says "no longer in
	// force" and that its obligations are not due when it is false.
	InForce bool `json:"inForce"`
	// Withdraws are the circulars it withdrew without superseding them
	// (their WithdrawnBy names it; Supersedes lists the others).
	Withdraws []string `json:"withdraws,omitempty"`
	// CommentsOpen is c.CommentsOpen as of the build: /consultations and
	// the page say whether comments are still taken.
	CommentsOpen bool `json:"commentsOpen"`
	// Related are the related circulars' slugs. The last field: a card
	// does not show them, and its hash is its view's JSON cut where they
	// begin (cardSums).
	Related []string `json:"related"`
}

// newCircularView is c's view as of now, without its text: the view
// never shows it, and the catalog's may then be let go
// (Options.ReleaseContent).
func newCircularView(c catalog.Circular, related []string, now time.Time) circularView {
	c.Content = ""
	return circularView{Circular: c, Related: related, InForce: c.InForce(now), CommentsOpen: c.CommentsOpen(now)}
}

// relatedLimit is how many related circulars a circular page lists.
const relatedLimit = 5

// documentTypeLabels maps each document type to the name pages show, in
// the language of code.
func documentTypeLabels(code string) map[string]string {
	return labelMap("docType.%s", catalog.DocumentTypes, code)
}

// verificationView is how pages show one verification: the card's label
// and the page's note.
type verificationView struct {
	Label string `json:"label"`
	Note  string `json:"note"`
}

// verificationViews maps each verification to its label and note, in the
// language of code.
func verificationViews(code string) map[string]verificationView {
	out := map[string]verificationView{}
	for _, v := range catalog.Verifications {
		out[v] = verificationView{Label: labelOf("verification.%s", v).In(code), Note: labelOf("verification.%sNote", v).In(code)}
	}
	return out
}

// circularViews are the circulars as templates show them as of now, in
// the catalog's order, their related circulars ranked by rank
// (related.Rank, or a build's from the last build's ranking).
func circularViews(cat *catalog.Catalog, book *directions.Book, txt texts, now time.Time, rank func([]related.Doc, int) ([][]int, error)) ([]circularView, error) {
	views := make([]circularView, len(cat.Circulars))
	rel, err := rank(related.Docs(cat.Circulars, txt.lead), relatedLimit)
	if err != nil {
		return nil, err
	}
	cites := directionCitations(book)
	withdraws := map[string][]string{}
	for _, c := range cat.Circulars {
		for _, by := range c.WithdrawnBy {
			if !slices.Contains(c.SupersededBy, by) {
				withdraws[by] = append(withdraws[by], c.Slug)
			}
		}
	}
	for i, c := range cat.Circulars {
		slugs := make([]string, len(rel[i]))
		for n, j := range rel[i] {
			slugs[n] = cat.Circulars[j].Slug
		}
		c.Preview = txt.preview(c, catalog.CardPreviewLen)
		views[i] = newCircularView(c, slugs, now)
		views[i].Directions = cites[c.Slug]
		views[i].Withdraws = withdraws[c.Slug]
	}
	return views, nil
}

// freshnessView is how current the catalog is as lists show it: the
// build's date and the newest circular's, and, per regulator, when ingest
// last read it as the build knew it (sourceFreshnessViews).
func freshnessView(cat *catalog.Catalog, now time.Time, sources []catalog.SourceFreshness) map[string]any {
	f := catalog.NewFreshness(cat.Circulars, now)
	return map[string]any{"asOf": f.UpdatedAt.Format(time.DateOnly), "newestCircular": f.NewestCircular,
		"sources": sourceFreshnessViews(sources)}
}

// ist is India's time, in which pages say when a source was read (a fixed
// offset: India keeps no daylight saving, and builds need no tzdata).
var ist = time.FixedZone("IST", 5*3600+1800)

// sourceFreshnessView is one regulator's "up to date as of": its last
// successful read in IST, to the minute, and whether it is stale (decided
// by the store at the build's time: catalog.IsStale).
type sourceFreshnessView struct {
	Source string `json:"source"`
	// At is the read's time (RFC 3339, UTC) for <time datetime>; AsOf how
	// pages say it. Both empty when the source never answered.
	At    string `json:"at"`
	AsOf  string `json:"asOf"`
	Stale bool   `json:"stale"`
}

func sourceFreshnessViews(sources []catalog.SourceFreshness) []sourceFreshnessView {
	out := []sourceFreshnessView{}
	for _, s := range sources {
		v := sourceFreshnessView{Source: s.Source, Stale: s.Stale}
		if !s.LastSuccess.IsZero() {
			v.At = s.LastSuccess.UTC().Format(time.RFC3339)
			v.AsOf = s.LastSuccess.In(ist).Format("2 January 2006, 15:04 MST")
		}
		out = append(out, v)
	}
	return out
}

// publicationLogView is what /publication-log shows: the log's newest
// entries the build knew, each with the words of its event in the
// language of code.
func publicationLogView(entries []catalog.PublicationEntry, code string) map[string]any {
	type entryView struct {
		catalog.PublicationEntry
		Day   string `json:"day"`
		Words string `json:"words"`
	}
	views := []entryView{}
	for _, e := range entries {
		views = append(views, entryView{PublicationEntry: e, Day: e.At.UTC().Format(time.DateOnly), Words: labelOf("logEvent.%s", e.Event).In(code)})
	}
	return map[string]any{"entries": views, "atom": "/api/publication-log.atom", "json": "/api/publication-log"}
}

// templateData is what templates read as hugo.Data.site. Keys are kept as
// written (Hugo does not lower-case data files), so templates use the
// catalog's JSON field names.
func templateData(cat *catalog.Catalog, assets *Assets, opts Options, views []circularView, preview previewFunc, networksRecent [][]string) map[string]any {
	index := make(map[string]int, len(views))
	for i, v := range views {
		index[v.Slug] = i
	}
	bodies := map[string]bodyView{}
	entries := map[string]catalog.PaymentBody{}
	for _, b := range cat.Bodies {
		bodies[b.Slug] = newBodyView(cat, b, opts.Now())
		entries[b.Slug] = b
	}
	events := map[string]catalog.Event{}
	for _, e := range cat.Events {
		// the shell reads this on every page (circularPageData): without
		// the editions, which change more often than a sidebar's link, an
		// edition's edit renders no circular's page again
		e.Editions = nil
		events[e.Slug] = e
	}
	indian, global := catalog.Leaders(cat.Companies)
	type feedLink struct{ Title, Atom, JSON, Source, Slug string }
	feeds := func(code string) []feedLink {
		var out []feedLink
		for _, f := range Feeds() {
			out = append(out, feedLink{Title: feedTitle(f).In(code), Atom: f.Atom, JSON: f.JSON, Source: f.Source, Slug: strings.ToLower(f.Source)})
		}
		return out
	}
	it := impactTracker(cat, opts.Now(), preview)
	return map[string]any{
		"assets":        assets,
		"circulars":     views,
		"circularIndex": index, // slug → place in circulars (_partials/circular-view.html)
		// how many circulars the site has: a run of the build holds the
		// views of those its pages show only (generator/render)
		"circularCount": len(views),
		"circularLists": newCircularListsView(cat),
		"listPageSize":  ListPageSize,
		"fallbackIndex": "", // /search's index without the API, when small enough (Build sets it)
		"bodies":        bodies,
		"bodyEntries":   entries, // the bodies without their lists, which change with every circular
		"events":        events,
		"feeds":         byLanguage(feeds),
		"supportEmail":  opts.SupportEmail,
		"entityTypes":   byLanguage(entityTypes),
		"impactTracker": byLanguage(func(code string) impactPageView { return newImpactPageView(it, code) }),
		// the impact tracker's lists' pages state it
		"impactRule": byLanguage(keyText("impactSection.activeRule", nil).In),
		"dashboard": byLanguage(func(code string) dashboardView {
			return newDashboardView(cat, opts.Now(), opts.ActiveUsers, code)
		}),
		// the lists' "up to date as of" (_partials/up-to-date.html): the
		// build's day, not its time, as the build's inputs hash has it
		"freshness": freshnessView(cat, opts.Now(), opts.SourceFreshness),
		// /publication-log's newest entries, as the store had them
		"publicationLog": byLanguage(func(code string) map[string]any { return publicationLogView(opts.PublicationLog, code) }),
		"documentTypes":  byLanguage(documentTypeLabels),
		"verifications":  byLanguage(verificationViews),
		// the names pages show of the circulars', news items' and
		// companies' categories (the values stay those of filters and URLs)
		"categories":     byLanguage(categoryLabels),
		"calendar":       CalendarPath,
		"uploadMaxBytes": extract.MaxUpload, // the summarizer refuses larger files before uploading
		// the directories, in the catalog's display order
		"regulations": cat.Regulations,
		"networks":    networkViews(cat, networksRecent),
		"companies":   cat.Companies,
		"sibos":       sibosViews(cat, opts.Now()),
		"eventList":   eventViews(cat, opts.Now()),
		// the names pages show of the events' types
		"eventTypes": byLanguage(func(code string) map[string]string { return labelMap("eventType.%s", catalog.EventTypes, code) }),
		"news":       cat.News,
		"videos":     cat.Videos,
		// /fintech-leaders' two lists, ordered, with each card's person and role title
		"leaders": map[string][]catalog.Leader{"indian": indian, "global": global},
		"api":     map[string]any{"maxLimit": catalog.MaxLimit}, // the API's rules islands follow
		// the newsletter's topic choices, as the API takes them
		"newsletterTopics": byLanguage(newsletterTopics),
		"enums": map[string][]string{ // filter options, for islands' props
			"regulationCountries": catalog.RegulationCountries,
			"regulationStatuses":  catalog.RegulationStatuses,
			"newsCategories":      catalog.NewsCategories,
			"companyCategories":   catalog.CompanyCategories,
			"impactLevels":        catalog.ImpactLevels,
			"circularCategories":  catalog.CircularCategories,
			// the regulators a search filters by
			"searchSources": catalog.Regulators,
			// the values of a user's preferences (/profile)
			"preferenceSources":    auth.PreferenceSources,
			"preferenceCategories": auth.PreferenceCategories,
			// an organisation member's roles, the most powerful first (/organisation)
			"memberRoles": teams.Roles,
		},
		// the entity types a user's preferences choose from, with their names
		"entityTypeChoices": byLanguage(entityTypeChoices),
		// what /obligations shows of the register's rules, and the calendars
		"register": byLanguage(registerView),
		// what the team pages (a circular's decision panel, /work, the
		// board) offer of the decisions' values, with their names
		"teamWork": byLanguage(teamWorkView),
		// what /search shows of the API's search rules
		"search": map[string]any{"pageSize": search.PageSize, "maxQueryLength": search.MaxQueryLength},
	}
}

// entityTypeChoice is an entity type as /profile offers it.
type entityTypeChoice struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

func entityTypeChoices(code string) []entityTypeChoice {
	out := make([]entityTypeChoice, len(auth.PreferenceEntityTypes))
	for i, t := range auth.PreferenceEntityTypes {
		out[i] = entityTypeChoice{t, entityName(t).In(code)}
	}
	return out
}

// entityName is the name pages show of an entity type
// (impact.DisplayName in English).
func entityName(t string) localText { return labelOf("entity.%s", t) }

// categoryLabels are the names of the circulars', news items' and
// companies' categories in the language of code, by value: those that
// differ from the value only (none in English, whose pages and islands'
// props show the values as they are; _partials/category-name.html).
func categoryLabels(code string) map[string]string {
	var values []string
	for _, vs := range [][]string{catalog.CircularCategories, catalog.NewsCategories, catalog.CompanyCategories} {
		values = append(values, vs...)
	}
	slices.Sort(values)
	out := labelMap("category.%s", slices.Compact(values), code)
	maps.DeleteFunc(out, func(v, name string) bool { return v == name })
	return out
}

// categoryName is the name pages show of a category.
func categoryName(c string) localText { return labelOf("category.%s", c) }

// topicChoice is a newsletter topic as forms offer it.
type topicChoice struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Default bool   `json:"default"`
}

func newsletterTopics(code string) []topicChoice {
	out := make([]topicChoice, len(newsletter.Topics))
	for i, t := range newsletter.Topics {
		out[i] = topicChoice{ID: t, Label: labelOf("topic.%s", t).In(code), Default: slices.Contains(newsletter.DefaultTopics, t)}
	}
	return out
}

// choice is a value with the label pages show for it.
type choice struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// choices are values with their labels: the catalogue's of format (an
// area's "decision.%s") in the language of code.
func choices(values []string, format, code string) []choice {
	out := make([]choice, len(values))
	for i, v := range values {
		out[i] = choice{v, labelOf(format, v).In(code)}
	}
	return out
}

// teamWorkView is what the team pages need of Go's decisions: the
// values a decision takes, named in the language of code
// (decisions.Label in English), and the largest file of evidence.
func teamWorkView(code string) map[string]any {
	return map[string]any{
		"applicabilities": choices(decisions.Applicabilities, "decision.%s", code),
		"reasons":         choices(decisions.Reasons, "decision.%s", code),
		// the status not-applicable is named as the applicability
		"statuses":         choices(decisions.Statuses, "decision.%s", code),
		"evidenceStates":   choices(decisions.EvidenceStates, "decision.%s", code),
		"reopenReasons":    choices(decisions.ReopenReasons, "decision.%s", code),
		"maxEvidenceBytes": decisions.MaxEvidenceBytes,
	}
}

// registerView is what /obligations needs of Go's rules: the statuses,
// due-date groups and kinds with their labels, and the calendars (named
// in the language of code).
func registerView(code string) map[string]any {
	type calendar struct {
		Label string `json:"label"`
		Path  string `json:"path"`
	}
	cals := []calendar{{keyText("entity.everyObligation", nil).In(code), CalendarPath}}
	for _, t := range catalog.EntityTypes {
		cals = append(cals, calendar{entityName(t).In(code), EntityCalendarPath(t)})
	}
	return map[string]any{
		// register.StatusLabel, GroupLabel and catalog.ObligationKindLabel in English
		"statuses":  choices(register.Statuses, "obligationLabel.%s", code),
		"groups":    choices(register.Groups, "obligationLabel.%s", code),
		"kinds":     choices(catalog.ObligationKinds, "obligationLabel.%s", code),
		"calendars": cals,
	}
}
