package catalog

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

const maxYear = 2100

func (l *loader) requireBody(f *fields, body string) {
	f.describeBody(BodyRequired)
	if body == "" {
		// Point at the closing '---': the body starts below it.
		f.addMissing(f.endLine-f.lineBase, "body", "the text below the front matter is empty")
	}
}

func (l *loader) circular(f *fields, e Entry, body string) {
	// published: false marks a file an editor has yet to complete (as
	// regpulse ingest writes them): what it lacks is pending, not wrong.
	published := true
	f.spec("published", func(s *fieldSpec) { s.kind, s.byDefault = booleanField, "true" })
	if f.node("published", false) != nil {
		published = f.boolean("published")
	}
	f.lax, f.pending = !published, &l.cat.Pending
	c := Circular{
		Entry:                 e,
		CircularNumber:        OptString(f.str("circularNumber", false)),
		Title:                 f.str("title", true),
		TitleIsDescriptive:    f.boolean("titleIsDescriptive"),
		Content:               body,
		Summary:               OptString(f.str("summary", false)),
		Source:                f.enum("source", true, Sources),
		Category:              f.enum("category", true, CircularCategories),
		PublishedDate:         f.requiredDate("publishedDate"),
		EffectiveDate:         f.date("effectiveDate", false),
		DocumentType:          f.enum("documentType", !published, DocumentTypes),
		ComplianceDates:       f.complianceDates("complianceDates"),
		Supersedes:            f.list("supersedes", false),
		CommentsDue:           f.date("commentsDue", false),
		FinalOf:               OptString(f.str("finalOf", false)),
		ImpactLevel:           f.enum("impactLevel", true, ImpactLevels),
		EntityImpact:          f.entityImpact("entityImpact"),
		OfficialURL:           OptString(f.link("officialUrl", false)),
		OfficialURLConfidence: OptString(f.enum("officialUrlConfidence", false, OfficialURLConfidences)),
		SourceURL:             f.link("sourceUrl", true),
		SourceKind:            OptString(f.enum("sourceKind", false, SourceKinds)),
	}
	// (read in the order of the schema's fields, which the CMS's form follows)
	additional, extraLinks := f.additionalSources("additionalSourceUrls")
	c.AdditionalSourceURLs = additional
	c.Verification = OptString(f.enum("verification", false, Verifications))
	c.Withdrawal = f.withdrawal("withdrawn", c.PublishedDate)
	c.HindiVersion = f.hindiVersion("hindiVersion", c.Source)
	c.Obligations = f.obligations("obligations", c)
	AssignObligationIDs(c.ID, c.Obligations)
	for i := range c.Obligations {
		o := &c.Obligations[i]
		o.CircularSlug, o.CircularTitle, o.Source, o.ImpactLevel = c.Slug, c.Title, c.Source, c.ImpactLevel
	}
	l.sourceLinks(f, &c, extraLinks)
	// A check against the regulator's text needs that text's address.
	if c.Verification == "checked" && c.OfficialURL == "" {
		f.addAt(f.keyLines["verification"], "verification", "checked needs officialUrl: the regulator's text it was checked against")
	}
	l.deriveVerification(f, &c)
	if c.DocumentType == "" && published {
		c.DocumentType = "circular" // what most regulator documents are
	}
	checkConsultation(f, c)
	for _, d := range c.ComplianceDates {
		if d.Date.Before(c.PublishedDate.Time) {
			f.addAt(f.keyLines["complianceDates"], "complianceDates", "%s is before publishedDate", d.Date)
		}
	}
	l.requireBody(f, body)
	// before the text may go
	if l.lang != "" {
		c.Lang = l.lang
	} else if l.hasHead {
		c.Lang = TextLang(c.Title, l.head)
	} else if l.noDevanagari && !strings.ContainsFunc(c.Title, isDevanagari) {
		c.Lang = LangEnglish // (neither its title nor its text holds a Devanagari letter)
	} else {
		c.Lang = c.TextLang()
	}
	if c.HindiVersion != nil && c.Lang == LangHindi {
		f.addAt(f.keyLines["hindiVersion"], "hindiVersion", "the circular's own text is Hindi: hindiVersion links the Hindi version of an English circular")
	}
	if l.noTexts {
		c.Content = ""
	}
	if !published {
		l.cat.Unpublished = append(l.cat.Unpublished, c)
		return
	}
	l.cat.Circulars = append(l.cat.Circulars, c)
}

// checkConsultation reports a comment deadline on a document that asks
// for none, or before the document itself, and a finalOf on a document
// that is itself a draft (the checks across files are checkFinals').
func checkConsultation(f *fields, c Circular) {
	if c.CommentsDue != nil {
		switch {
		case c.DocumentType != "" && !Consultative(c.DocumentType):
			f.addAt(f.keyLines["commentsDue"], "commentsDue", "only a draft, discussion paper or consultation paper asks for comments, and documentType is %q", c.DocumentType)
		case c.CommentsDue.Before(c.PublishedDate.Time):
			f.addAt(f.keyLines["commentsDue"], "commentsDue", "%s is before publishedDate", c.CommentsDue)
		}
	}
	if c.FinalOf != "" && Consultative(c.DocumentType) {
		f.addAt(f.keyLines["finalOf"], "finalOf", "a %s cannot finalise a draft: finalOf belongs on the final instrument", DocumentTypeLabel(c.DocumentType))
	}
}

func (l *loader) news(f *fields, e Entry, body string) {
	n := NewsItem{
		Entry:         e,
		Title:         f.str("title", true),
		Content:       body,
		Excerpt:       f.str("excerpt", true),
		Source:        f.str("source", true),
		Category:      f.enum("category", true, NewsCategories),
		Region:        f.enum("region", true, Regions),
		PublishedDate: f.requiredDate("publishedDate"),
		SourceURL:     f.link("sourceUrl", true),
		Circular:      OptString(f.str("circular", false)),
	}
	if utf8.RuneCountInString(n.Excerpt) > 200 {
		f.addAt(f.keyLines["excerpt"], "excerpt", "is %d characters; keep it to 200", utf8.RuneCountInString(n.Excerpt))
	}
	l.requireBody(f, body)
	n.Lang = n.TextLang()
	l.cat.News = append(l.cat.News, n)
}

func (l *loader) company(f *fields, e Entry, body string) {
	c := Company{
		Entry:           e,
		Name:            f.str("name", true),
		Founder:         OptString(f.str("founder", false)),
		Description:     f.str("description", true),
		Country:         f.str("country", true),
		Category:        f.enum("category", true, CompanyCategories),
		Founded:         OptInt(f.integer("founded", false, 1600, l.now.Year())),
		Headquarters:    OptString(f.str("headquarters", false)),
		WebsiteURL:      OptString(f.link("websiteUrl", false)),
		LinkedinProfile: OptString(f.link("linkedinProfile", false)),
		XProfile:        OptString(f.link("xProfile", false)),
		SourceURL:       OptString(f.link("sourceUrl", false)),
		Leader:          OptString(f.str("leader", false)),
		LeaderGroup:     OptString(f.enum("leaderGroup", false, LeaderGroups)),
		LeaderIsCEO:     true, // the role titles assume it; content says when not
	}
	f.spec("leaderIsCeo", func(s *fieldSpec) { s.kind, s.byDefault = booleanField, "true" })
	ceoGiven := f.node("leaderIsCeo", false) != nil
	if ceoGiven {
		c.LeaderIsCEO = f.boolean("leaderIsCeo")
	}
	checkLeader(f, c, ceoGiven)
	l.cat.Companies = append(l.cat.Companies, c)
}

// checkLeader reports /fintech-leaders fields that would show something
// false: a featured person who is not a founder, a group without a person,
// a group outside the Indian list (the only list it orders).
func checkLeader(f *fields, c Company, ceoGiven bool) {
	at := func(field, format string, args ...any) { f.addAt(f.keyLines[field], field, format, args...) }
	founders := c.Founders()
	switch {
	case c.Leader == "" && c.LeaderGroup == GroupPaymentsBodyChief:
		at("leaderGroup", "%s needs leader: the name of the body's chief", c.LeaderGroup)
	case c.Leader != "" && c.LeaderGroup != GroupPaymentsBodyChief && len(founders) == 0:
		at("leader", "%q must be one of the founders, and founder is empty", c.Leader)
	case c.Leader != "" && c.LeaderGroup != GroupPaymentsBodyChief && !slices.Contains(founders, string(c.Leader)):
		at("leader", "%q is not one of the founders (%s)", c.Leader, strings.Join(founders, ", "))
	case c.LeaderGroup != "" && c.Featured() == "":
		at("leaderGroup", "%s needs a person: set founder", c.LeaderGroup)
	}
	if c.LeaderGroup != "" && c.Country != "" && c.Country != leadersIndia {
		at("leaderGroup", "orders the Indian list only, and country is %q", c.Country)
	}
	if ceoGiven && (c.LeaderGroup == GroupPaymentsBodyChief || c.LeaderGroup == GroupCardNetwork || len(founders) == 0) {
		at("leaderIsCeo", "only changes a featured founder's title (Founder & CEO, Co-Founder & CEO)")
	}
}

func (l *loader) regulation(f *fields, e Entry, body string) {
	r := Regulation{
		Entry:                  e,
		Name:                   f.str("name", true),
		ShortName:              OptString(f.str("shortName", false)),
		Country:                f.enum("country", true, RegulationCountries),
		Description:            body,
		Status:                 f.enum("status", true, RegulationStatuses),
		EffectiveDate:          f.date("effectiveDate", false),
		Regulator:              OptString(f.str("regulator", false)),
		KeyProvisions:          f.list("keyProvisions", true),
		ComplianceRequirements: f.list("complianceRequirements", false),
		OfficialTextURL:        OptString(f.link("officialTextUrl", false)),
		SourceURL:              OptString(f.link("sourceUrl", false)),
	}
	l.requireBody(f, body)
	l.cat.Regulations = append(l.cat.Regulations, r)
}

func (l *loader) network(f *fields, e Entry, body string) {
	n := Network{
		Entry:        e,
		Name:         f.enum("name", true, NetworkNames),
		FullName:     OptString(f.str("fullName", false)),
		Type:         OptString(f.str("type", false)),
		Operator:     OptString(f.str("operator", false)),
		Founded:      OptString(f.str("founded", false)),
		Headquarters: OptString(f.str("headquarters", false)),
		Description:  f.str("description", true),
		Guidelines:   f.list("guidelines", true),
		// the hand-kept guidelines say since when they are known true
		GuidelinesAsOf: f.date("guidelinesAsOf", true),
		CircularTerms:  f.list("circularTerms", true),
		ContactInfo:    OptString(f.str("contactInfo", false)),
		WebsiteURL:     OptString(f.link("websiteUrl", false)),
		SourceURL:      OptString(f.link("sourceUrl", false)),
		Profile:        OptString(body),
	}
	f.describeBody(BodyOptional)
	l.cat.Networks = append(l.cat.Networks, n)
}

func (l *loader) sibos(f *fields, e Entry, body string) {
	s := SibosEvent{
		Entry:             e,
		Title:             f.str("title", true),
		Year:              f.integer("year", true, 1978, maxYear),
		Theme:             OptString(f.str("theme", false)),
		Description:       body,
		Status:            f.enum("status", true, EventStatuses),
		StartDate:         f.date("startDate", false),
		EndDate:           f.date("endDate", false),
		Location:          OptString(f.str("location", false)),
		Venue:             OptString(f.str("venue", false)),
		ExpectedAttendees: OptInt(f.integer("expectedAttendees", false, 1, 10_000_000)),
		RegistrationOpen:  f.boolean("registrationOpen"),
		KeyTopics:         f.list("keyTopics", false),
		Speakers:          f.list("speakers", false),
		WebsiteURL:        OptString(f.link("websiteUrl", false)),
		SourceURL:         OptString(f.link("sourceUrl", false)),
	}
	if s.StartDate != nil && s.EndDate != nil && s.EndDate.Before(s.StartDate.Time) {
		f.addAt(f.keyLines["endDate"], "endDate", "is before startDate")
	}
	l.requireBody(f, body)
	l.cat.Sibos = append(l.cat.Sibos, s)
}

func (l *loader) event(f *fields, e Entry, body string) {
	ev := Event{
		Entry:              e,
		Name:               f.str("name", true),
		Group:              f.enum("group", true, EventGroups),
		Type:               OptString(f.enum("type", false, EventTypes)),
		Description:        body,
		Location:           OptString(f.str("location", false)),
		Frequency:          OptString(f.enum("frequency", false, EventFrequencies)),
		Website:            OptString(f.link("website", false)),
		Focus:              f.list("focus", false),
		EstimatedAttendees: OptString(f.str("estimatedAttendees", false)),
		SourceURL:          OptString(f.link("sourceUrl", false)),
	}
	if e.Slug == SibosEventSlug {
		f.removed("editions", "Sibos's editions are content/sibos/YEAR.md; remove it")
	} else {
		ev.Editions = f.editions("editions")
	}
	l.requireBody(f, body)
	l.cat.Events = append(l.cat.Events, ev)
}

func (l *loader) body(f *fields, e Entry, body string) {
	b := PaymentBody{
		Entry:        e,
		Name:         f.str("name", true),
		ShortName:    f.enum("shortName", true, BodyNames),
		Established:  OptInt(f.integer("established", false, 1600, l.now.Year())),
		Headquarters: OptString(f.str("headquarters", false)),
		Head:         OptString(f.str("head", false)),
		HeadTitle:    OptString(f.str("headTitle", false)),
		Website:      OptString(f.link("website", false)),
		KeyFunctions: f.list("keyFunctions", true),
		SourceURL:    OptString(f.link("sourceUrl", false)),
		Profile:      OptString(body),
	}
	f.describeBody(BodyOptional)
	// Kept by hand it went stale; pages list the body's newest circulars
	// (Catalog.RecentFrom).
	f.removed("recentUpdates", "derived from the catalog (the body's newest circulars); remove it")
	if b.ShortName != "" && strings.ToLower(b.ShortName) != e.Slug {
		f.addAt(f.keyLines["shortName"], "shortName", "%s must live in bodies/%s.md", b.ShortName, strings.ToLower(b.ShortName))
	}
	l.cat.Bodies = append(l.cat.Bodies, b)
}

func (l *loader) ad(f *fields, e Entry, body string) {
	a := Ad{
		Entry:       e,
		Title:       f.str("title", true),
		Description: f.str("description", true),
		Company:     f.str("company", true),
		Category:    f.enum("category", true, AdCategories),
		CTAText:     f.str("ctaText", true),
		TargetURL:   f.target("targetUrl", true),
		Sponsored:   f.boolean("sponsored"),
	}
	l.cat.Ads = append(l.cat.Ads, a)
}

func (l *loader) adSlot(f *fields, e Entry, body string) {
	l.cat.AdSlots = append(l.cat.AdSlots, AdSlot{
		Entry:       e,
		Title:       f.str("title", true),
		Description: f.str("description", true),
		ButtonText:  f.str("buttonText", true),
		TargetURL:   OptString(f.target("targetUrl", false)),
		Size:        f.enum("size", true, AdSizes),
		Placement:   f.enum("placement", true, AdPlacements),
	})
}

func (l *loader) video(f *fields, e Entry, body string) {
	v := Video{
		Entry:           e,
		Title:           f.str("title", true),
		Description:     f.str("description", true),
		DurationMinutes: f.integer("durationMinutes", true, 1, 600),
		Level:           f.enum("level", true, VideoLevels),
		Topic:           OptString(f.str("topic", false)),
	}
	l.cat.Videos = append(l.cat.Videos, v)
}

// crossCheck finds problems that span files: duplicate names and
// references to circulars that do not exist.
func (l *loader) crossCheck() {
	slugs := map[string]bool{} // published
	for _, c := range l.cat.Circulars {
		slugs[c.Slug] = true
	}
	unpublished := map[string]bool{}
	for _, c := range l.cat.Unpublished {
		unpublished[c.Slug] = true
	}
	ref := func(p, field, slug string) {
		if unpublished[slug] {
			l.problems = append(l.problems, Problem{Path: p, Line: l.lineOf(p, field), Field: field,
				Message: "refers to circular " + slug + ", which is not published yet"})
		} else if !slugs[slug] {
			l.refProblem(p, field, slug)
		}
	}
	for _, n := range l.cat.News {
		if n.Circular != "" {
			ref(n.Path, "circular", string(n.Circular))
		}
	}
	l.checkSupersession(ref)
	l.checkFinals(ref)
	published := make(map[string]*Circular, len(l.cat.Circulars))
	for i, c := range l.cat.Circulars {
		published[c.Slug] = &l.cat.Circulars[i]
	}
	l.assembleDirections(published)
	l.checkWithdrawals(published)
	l.reviewCitations()
	seen := map[string]string{}
	for _, n := range l.cat.Networks {
		if prev, dup := seen[n.Name]; dup && n.Name != "" {
			l.problems = append(l.problems, Problem{Path: n.Path, Line: l.lineOf(n.Path, "name"), Field: "name",
				Message: "network " + n.Name + " is also defined in " + prev})
		}
		seen[n.Name] = n.Path
	}
	// One payments-body chief and one card-network co-founder lead the
	// Indian list; several would make "first" arbitrary.
	firsts := map[string]string{}
	for _, c := range l.cat.Companies {
		if c.LeaderGroup != GroupPaymentsBodyChief && c.LeaderGroup != GroupCardNetwork {
			continue
		}
		group := string(c.LeaderGroup)
		if prev, dup := firsts[group]; dup {
			l.problems = append(l.problems, Problem{Path: c.Path, Line: l.lineOf(c.Path, "leaderGroup"), Field: "leaderGroup",
				Message: group + " is already " + prev + "; only one company can lead the list"})
		}
		firsts[group] = c.Path
	}
	numbers := map[string]string{}
	for _, c := range l.cat.Circulars {
		key := c.Source + " " + string(c.CircularNumber)
		if prev, dup := numbers[key]; dup && c.CircularNumber != "" {
			l.problems = append(l.problems, Problem{Path: c.Path, Line: l.lineOf(c.Path, "circularNumber"), Field: "circularNumber",
				Message: "duplicate circular number " + string(c.CircularNumber) + " (also in " + prev + ")"})
		}
		numbers[key] = c.Path
	}
}

// circularsBySlug is every circular, published or not, by its slug: what
// a link between circulars may name.
func (l *loader) circularsBySlug() map[string]*Circular {
	all := make(map[string]*Circular, len(l.cat.Circulars)+len(l.cat.Unpublished))
	for c := range l.everyCircular() {
		all[c.Slug] = c
	}
	return all
}

// everyCircular is every circular, published then not, in place (at
// 100,000 circulars a copy of both lists, or maps of copies, is most of
// the checks across files).
func (l *loader) everyCircular() iter.Seq[*Circular] {
	return func(yield func(*Circular) bool) {
		for _, cs := range [][]Circular{l.cat.Circulars, l.cat.Unpublished} {
			for i := range cs {
				if !yield(&cs[i]) {
					return
				}
			}
		}
	}
}

// problemOn reports a problem with a circular's field, at its line.
func (l *loader) problemOn(field string) func(c *Circular, msg string) {
	return func(c *Circular, msg string) {
		l.problems = append(l.problems, Problem{Path: c.Path, Line: l.lineOf(c.Path, field), Field: field, Message: msg})
	}
}

// checkSupersession checks every supersedes link: it names a known
// circular, an older one, and no chain of links leads back to where it
// started. A published circular may not name an unpublished one (its page
// would link nowhere); an unpublished one may name any.
func (l *loader) checkSupersession(ref func(p, field, slug string)) {
	all := l.circularsBySlug()
	at := l.problemOn("supersedes")
	for c := range l.everyCircular() {
		for _, s := range c.Supersedes {
			old, ok := all[s]
			switch {
			case s == c.Slug:
				at(c, "a circular cannot supersede itself")
			case !ok:
				l.refProblem(c.Path, "supersedes", s)
			case old.PublishedDate.After(c.PublishedDate.Time):
				at(c, fmt.Sprintf("%s was published after this circular (%s), so this cannot supersede it", s, old.PublishedDate))
			}
		}
	}
	for _, c := range l.cat.Circulars {
		for _, s := range c.Supersedes {
			if _, ok := all[s]; ok {
				ref(c.Path, "supersedes", s) // only an unpublished target remains to report
			}
		}
	}
	// A cycle: following supersedes from c comes back to c.
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var visit func(slug string, path []string) []string
	visit = func(slug string, path []string) []string {
		switch state[slug] {
		case onPath:
			return append(path, slug)
		case done:
			return nil
		}
		state[slug] = onPath
		for _, next := range all[slug].Supersedes {
			if next == slug {
				continue // reported above
			}
			if _, ok := all[next]; !ok {
				continue
			}
			if cycle := visit(next, append(path, slug)); cycle != nil {
				return cycle
			}
		}
		state[slug] = done
		return nil
	}
	slugs := slices.Sorted(maps.Keys(all))
	for _, s := range slugs {
		if cycle := visit(s, nil); cycle != nil {
			start := slices.Index(cycle, cycle[len(cycle)-1])
			at(all[cycle[start]], "supersession cycle: "+strings.Join(cycle[start:], " → "))
			// Mark the cycle done so it is reported once.
			for _, c := range cycle {
				state[c] = done
			}
		}
	}
}

// checkFinals checks every finalOf: it names a known circular other
// than itself, a draft (Consultative), published no later than the final
// one. A published final may not name an unpublished draft (ref says so).
func (l *loader) checkFinals(ref func(p, field, slug string)) {
	all := l.circularsBySlug()
	at := l.problemOn("finalOf")
	for c := range l.everyCircular() {
		s := string(c.FinalOf)
		if s == "" {
			continue
		}
		draft, ok := all[s]
		switch {
		case s == c.Slug:
			at(c, "a circular cannot finalise itself")
		case !ok:
			l.refProblem(c.Path, "finalOf", s)
		case !Consultative(draft.DocumentType):
			at(c, fmt.Sprintf("%s is a %s, not a draft, discussion paper or consultation paper", s, strings.ToLower(DocumentTypeLabel(draft.DocumentType))))
		case draft.PublishedDate.After(c.PublishedDate.Time):
			at(c, fmt.Sprintf("%s was published on %s, after this circular, so this cannot be its final version", s, draft.PublishedDate))
		}
	}
	for _, c := range l.cat.Circulars {
		if _, ok := all[string(c.FinalOf)]; ok && c.FinalOf != "" {
			ref(c.Path, "finalOf", string(c.FinalOf)) // only an unpublished draft remains to report
		}
	}
}

// linkFinals derives each published draft's FinalisedBy from the
// published circulars' FinalOf, in the catalog's order.
func (c *Catalog) linkFinals() {
	by := map[string][]string{}
	for _, n := range c.Circulars {
		if n.FinalOf != "" {
			by[string(n.FinalOf)] = append(by[string(n.FinalOf)], n.Slug)
		}
	}
	for i := range c.Circulars {
		c.Circulars[i].FinalisedBy = by[c.Circulars[i].Slug]
	}
	for i := range c.Unpublished {
		c.Unpublished[i].FinalisedBy = nil
	}
}

// linkSupersession derives each published circular's SupersededBy from
// the published circulars' Supersedes, in the catalog's order (newest
// first once sorted).
func (c *Catalog) linkSupersession() {
	by := map[string][]string{}
	for _, n := range c.Circulars {
		for _, s := range n.Supersedes {
			by[s] = append(by[s], n.Slug)
		}
	}
	for i := range c.Circulars {
		c.Circulars[i].SupersededBy = by[c.Circulars[i].Slug]
	}
	for i := range c.Unpublished {
		c.Unpublished[i].SupersededBy = nil
	}
}

// IncludeUnpublished publishes the unpublished circulars (regpulse build
// --unpublished, to preview them). It fails with what they still lack.
func (c *Catalog) IncludeUnpublished() error {
	if len(c.Pending) > 0 {
		return c.Pending
	}
	c.Circulars = append(c.Circulars, c.Unpublished...)
	c.Unpublished = nil
	c.sort()
	c.linkSupersession()
	c.linkFinals()
	c.linkLifecycle()
	return nil
}

func (l *loader) refProblem(p, field, slug string) {
	l.problems = append(l.problems, Problem{Path: p, Line: l.lineOf(p, field), Field: field,
		Message: "refers to unknown circular " + slug})
}

// lineOf finds the line where a field starts, for problems found after
// decoding. It rereads nothing: the line is 0 when unknown.
func (l *loader) lineOf(p, field string) int {
	if lines, ok := l.fieldLines[p]; ok {
		return lines[field]
	}
	return 0
}
