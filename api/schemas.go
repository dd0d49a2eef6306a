package api

import (
	"reflect"
	"regpulse/internal/apikeys"
	"regpulse/internal/directions"
	"regpulse/internal/redline"

	"regpulse/api/apispec"
	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
	"regpulse/internal/decisions"
	"regpulse/internal/extract"
	"regpulse/internal/impact"
	"regpulse/internal/newsletter"
	"regpulse/internal/register"
	"regpulse/internal/search"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// The document's component schemas are the types the API reads and
// writes, whose schemas are derived from them (openapigen), never written
// by hand. A call's body and answer types are found in its declaration
// and named after their Go type (Spec); schemaTypes names those that take
// another name, and those met only inside others that are components of
// their own.
var schemaTypes = map[string]reflect.Type{
	"MasterDirection":  reflect.TypeFor[catalog.MasterDirection](),
	"DirectionVersion": reflect.TypeFor[catalog.DirectionVersion](),
	"Effect":           reflect.TypeFor[catalog.Effect](),
	"ProvisionSpan":    reflect.TypeFor[catalog.ProvisionSpan](),
	"Change":           reflect.TypeFor[directions.Change](),
	"Reopening":        reflect.TypeFor[decisions.Reopening](),
	"Amendment":        reflect.TypeFor[directions.Amendment](),
	"Segment":          reflect.TypeFor[redline.Segment](),
	"EntityImpact":     reflect.TypeFor[catalog.EntityImpact](),
	"SourceLink":       reflect.TypeFor[catalog.SourceLink](),
	"ImpactRecord":     reflect.TypeFor[impact.Record](),
	"DashboardStats":   reflect.TypeFor[dashboard.Stats](),
	"ExtractResult":    reflect.TypeFor[extract.Result](),
	"ExtractJob":       reflect.TypeFor[extract.Job](),
	"User":             reflect.TypeFor[auth.User](),

	"SearchResponse": reflect.TypeFor[search.Response](),
	"Answer":         reflect.TypeFor[search.Answer](),
	"AnswerSource":   reflect.TypeFor[search.Source](),
	"ProvisionHit":   reflect.TypeFor[search.ProvisionHit](),
	"Span":           reflect.TypeFor[search.Span](),
	"AnswerFact":     reflect.TypeFor[search.Fact](),
	"Pagination":     reflect.TypeFor[search.Pagination](),
	"Facets":         reflect.TypeFor[search.Facets](),
	"Correction":     reflect.TypeFor[search.Correction](),

	"RegisterItem":    reflect.TypeFor[register.Item](),
	"StatusChange":    reflect.TypeFor[register.Change](),
	"ComplianceScore": reflect.TypeFor[register.Score](),

	"APIKey":          reflect.TypeFor[apikeys.Key](),
	"Webhook":         reflect.TypeFor[webhooks.Endpoint](),
	"WebhookDelivery": reflect.TypeFor[webhooks.Delivery](),
	"WebhookLogEntry": reflect.TypeFor[webhooks.LogEntry](),
	"WebhookAttempt":  reflect.TypeFor[webhooks.Attempt](),
}

// schemaEnums are the enumerations the document names as schemas of their
// own (the islands' types use them): the entry types' enum tags name them.
// Of the catalog's, only those a tag of types names: the catalog's
// enumerations of content the API does not serve (advertisements,
// events) would be components nothing refers to.
func schemaEnums(types map[string]reflect.Type) map[string][]string {
	out := map[string][]string{"Band": impact.Bands, "Role": auth.Roles, "Language": languageCodes(),
		"NewsletterSource": newsletter.Sources, "NewsletterStatus": newsletter.Statuses,
		"DocumentKind": extract.Kinds, "JobStatus": extract.JobStatuses,
		"AlertKind": alerts.Kinds, "AlertFrequency": alerts.Frequencies,
		"MemberRole": teams.Roles, "Applicability": decisions.Applicabilities, "DecisionStatus": decisions.Statuses,
		"SubjectType": decisions.SubjectTypes, "EvidenceKind": decisions.EvidenceKinds, "EvidenceState": decisions.EvidenceStates}
	tagged := enumTags(types)
	for name, values := range catalog.Enums {
		if tagged[name] {
			out[name] = values
		}
	}
	var sorts []string
	for _, s := range catalog.CircularSorts {
		sorts = append(sorts, string(s))
	}
	out["CircularSort"] = sorts
	out["ObligationStatus"] = register.Statuses
	out["DueGroup"] = register.Groups
	out["AnswerMethod"] = search.AnswerMethods
	out["AnswerType"] = search.AnswerTypes
	out["ModelFallback"] = search.ModelFallbacks
	out["RedlineOp"] = redline.Ops
	out["ChangeKind"] = directions.ChangeKinds
	out["ReopenReason"] = decisions.ReopenReasons
	out["APIKeyScope"] = apikeys.Scopes
	out["APIKeyStatus"] = apikeys.Statuses
	out["WebhookKind"] = stringsOf(webhooks.Kinds)
	out["WebhookEvent"] = stringsOf(webhooks.EventTypes)
	return out
}

// enumTags are the enumerations the enum tags of types' fields name,
// fields of the structs met inside them included.
func enumTags(types map[string]reflect.Type) map[string]bool {
	out := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for _, f := range reflect.VisibleFields(t) {
			if name := f.Tag.Get("enum"); name != "" {
				out[name] = true
			}
			walk(f.Type)
		}
	}
	for _, t := range types {
		walk(t)
	}
	return out
}

func ptr(v float64) *float64 { return &v }

// schemaDocs describe the schemas and what their Go types cannot say of
// their properties (a uuid, a minimum).
var schemaDocs = map[string]apispec.SchemaDoc{
	"Health": {
		Description: "GET /api/health's answer when the store answers.",
		Properties: map[string]apispec.PropertyDoc{
			"status":  {Description: "Always ok."},
			"version": {Description: "The build that answers: a module version, a VCS revision's first 12 characters (+dirty for a modified tree) or devel, as `regpulse version` prints it."},
		},
	},
	"Obligation": {
		Description: "One thing a circular requires: of whom, what, by when, and the sentence of its text that says so.",
		Properties: map[string]apispec.PropertyDoc{
			"id":          {Format: "uuid", Description: "Stable: from the circular's id and the source sentence, so statuses survive edits of the wording."},
			"circularId":  {Format: "uuid"},
			"appliesTo":   {Description: "Entity types (PSP, Issuer, Aggregator), or all alone for every regulated entity."},
			"what":        {Description: "What must be done, in one plain sentence (an extracted obligation's is its source sentence, or the model's words held to it)."},
			"dueDate":     {Description: "The deadline when it is a date; null otherwise."},
			"deadline":    {Description: "The deadline as the circular states it (a date, or a rule such as within 30 days of the event); null when there is none."},
			"binding":     {Description: "False for a draft, discussion or consultation paper, press release or policy: it obliges no one yet."},
			"sourceStart": {Description: "UTF-16 offset in the circular's content where sourceText starts."},
			"sourceEnd":   {Description: "UTF-16 offset in the circular's content where sourceText ends."},
			"origin":      {Description: "editor: written in the circular's front matter; extracted: proposed by the AI layer, machine-extracted until accepted."},
			"provider":    {Description: "What extracted it (local, or the model's provider); null for an editor's."},
			"model":       {Description: "The rules or model that extracted it; null for an editor's."},
			"accepted":    {Description: "True for an editor's, and for an extracted one an editor accepted (regpulse obligations accept)."},
			"impactLevel": {Description: "The circular's overall impact level: the obligation's weight in the compliance score."},
		},
	},
	"RegisterItem": {
		Description: "An obligation of the signed-in user's register with what the user set on it.",
		Properties: map[string]apispec.PropertyDoc{
			"status":          {Description: "todo until the user sets one."},
			"statusUpdatedAt": {Description: "When the user last changed status or note; null until then."},
			"dueGroup":        {Description: "The due-date group as of today (UTC): overdue, this-month, later or no-date."},
		},
	},
	"ComplianceScore": {
		Description: "The share of a register's applicable obligations, weighted by impact, marked done or not applicable: the user's own, or their organisation's.",
		Properties: map[string]apispec.PropertyDoc{
			"score":        {Description: "0 to 100; null when no obligation applies.", Minimum: ptr(0)},
			"organisation": {Description: "The organisation whose register (its decisions) the score is, for the page to name it; null for the user's own register."},
		},
	},
	"OrganisationRegister": {
		Description: "An organisation's register: the organisation, its kinds of business, since when it tracks, its score and a page of its obligations with its decisions' statuses.",
		Properties: map[string]apispec.PropertyDoc{
			"trackingSince": {Description: "When the organisation was made: an obligation due before that day is in force (to confirm), not overdue.", Format: "date-time"},
			"score":         {Description: "The whole register's score, whatever the filters."},
		},
	},
	"Answer": {
		Description: "The direct answer: a passage of the best circulars, how far it can be trusted and where it comes from.",
		Properties: map[string]apispec.PropertyDoc{
			"model": {Description: "The language model that wrote directAnswer (method \"model\"); null when the answer is extractive."},
			"answerType": {Description: "The kind of fact the query asks for: a date (when, by when, from when), an amount or limit, a duration (how long, within how many days), " +
				"a count (how many), yesNo (may, must, is it allowed), who, or a definition (what something is); null for a query that is no question (a topic)."},
			"fact": {Description: "Where directAnswer states the asked fact, for the page to mark it; null when there is no direct answer or the query asks no fact of a kind (a topic, a definition)."},
			"modelFallback": {Description: "Why the configured language model's answer is not the one shown (the extractive one is): missingFact when the model's answer left out " +
				"the fact of the asked kind that the circulars' sentence states, noAnswer when it gave no usable answer (it failed, or stated values the circulars do not); " +
				"null when the model's answer is shown or no model is configured."},
		},
	},
	"AnswerFact": {
		Description: "The asked fact within a direct answer: its text as written there and where it is, as UTF-16 offsets into directAnswer [start, end) (how JavaScript indexes strings).",
	},
	"AnswerType": {
		Description: "The kind of fact a question asks for.",
	},
	"ModelFallback": {
		Description: "Why a configured model's answer is not shown: it left out the asked fact (missingFact) or gave no usable answer (noAnswer).",
	},
	"AnswerMethod": {
		Description: "How an answer was made: extractive is sentences of the circulars themselves, chosen by the ranking (no language model).",
	},
	"AnswerSource": {
		Description: "A circular an answer draws on, with the passage of it that matched.",
	},
	"Circular": {
		Properties: map[string]apispec.PropertyDoc{
			"aiSummary":             {Description: "The summary the API last generated (POST /circulars/{id}/summarize), with its provider, model and time; null when none. Shown labelled as AI-generated, beside the editors' summary."},
			"circularNumber":        {Description: "The regulator's reference; null when not known."},
			"content":               {Description: "The full text, Markdown."},
			"entityImpact":          {Description: "Impact per entity type, in the order PSP, Issuer, Aggregator."},
			"id":                    {Format: "uuid"},
			"officialUrl":           {Description: "The regulator's own URL for the document; null when none was found (links then holds only reports and copies)."},
			"officialUrlConfidence": {Description: "How well officialUrl was matched to this circular: high (a source shows the address with its number, or its title and date), medium (a title-only match, a press release standing in for the document, or an address not re-checked: an editor is to review it); null when there is no officialUrl or the entry does not say."},
			"sourceUrl":             {Description: "Where the entry's facts were seen (the officialUrl itself when nothing better was): see sourceKind, and links for every link labelled."},
			"sourceKind":            {Description: "What sourceUrl is: official (the regulator's own site), report (a law firm, newspaper or legal database reporting it), unofficial (a blog, aggregator or copy); null when the entry does not say, which pages treat as unofficial."},
			"additionalSourceUrls":  {Description: "More links to the document or reports of it (their kinds are in links)."},
			"links":                 {Description: "Every link of the entry once, the officialUrl first, each with its kind, host and the label pages, feeds and the CSV show."},
			"summary":               {Description: "The editors' summary from content; null when they wrote none. A generated summary is aiSummary, never this."},
			"verification":          {Description: "How far the entry was checked against the regulator's own text: checked (against the official text at officialUrl), reported (from secondary sources that quote or describe the regulator), pending (the document identified, not yet read); null when the entry does not say."},
		},
	},
	"SourceLink": {
		Description: "A link to where a circular can be read, saying what it is and where it goes.",
		Properties: map[string]apispec.PropertyDoc{
			"url":   {Format: "uri"},
			"kind":  {Description: "official: the regulator's own page; report: a law firm, newspaper or legal database reporting it; unofficial: anything else that copies or describes it."},
			"as":    {Description: "What form of the document the link is, when not its text itself: press-release, hindi (its Hindi version), pdf, repost (re-posted elsewhere, as NPCI re-posts an OC). Absent for the text itself."},
			"host":  {Description: "The link's host without www., shown beside it."},
			"label": {Description: "The link's text: 'View on rbi.org.in', 'Reported by taxmann.com', 'Unofficial copy on scribd.com'."},
		},
	},
	"Company": {
		Properties: map[string]apispec.PropertyDoc{
			"founded": {Minimum: ptr(1600)},
			"id":      {Format: "uuid"},
		},
	},
	"Correction": {
		Description: "How a misspelt query was corrected: as typed and as searched.",
	},
	"DashboardStats": {
		Properties: map[string]apispec.PropertyDoc{
			"activeUsers":          {Description: "Users who signed in within the same 30 days.", Minimum: ptr(0)},
			"awaitingVerification": {Description: "Circulars of any date whose entry is still to be checked against the regulator's own text (verification reported or pending).", Minimum: ptr(0)},
			"impactAlerts":         {Description: "High-impact circulars among those.", Minimum: ptr(0)},
			"latestNews":           {Description: "News items published in the same 30 days.", Minimum: ptr(0)},
			"newCirculars":         {Description: "Circulars published in the 30 calendar days (UTC) ending today.", Minimum: ptr(0)},
			"lastCircular":         {Description: "The date of the newest circular up to today; null when there is none. A newCirculars of 0 says when the last one came."},
			"lastImpactAlert":      {Description: "The date of the newest high-impact circular up to today; null when there is none."},
			"lastNews":             {Description: "The date of the newest news item up to today; null when there is none."},
		},
	},
	"Error": {
		Properties: map[string]apispec.PropertyDoc{
			"error":     {Description: "What went wrong, for people."},
			"fields":    {Description: "The request fields at fault (here query parameters), each with what is wrong."},
			"requestId": {Description: "The request's X-Request-Id (the client's when it sent a usable one, else made by the server): quote it when reporting the error."},
		},
	},
	"ExtractJob": {
		Description: "A document read in the background (a long scan).",
		Properties: map[string]apispec.PropertyDoc{
			"done":   {Description: "Scanned pages read so far."},
			"error":  {Description: "When failed, why, for a person; empty otherwise."},
			"id":     {Description: "Random and unguessable: only the uploader knows it."},
			"status": {Description: "running until the pages are read, then done or failed."},
			"total":  {Description: "Scanned pages to read."},
		},
	},
	"ExtractResult": {
		Description: "A document's text and how it was read.",
		Properties: map[string]apispec.PropertyDoc{
			"encoding":     {Description: "A text file's encoding: utf-8, utf-16le, utf-16be or windows-1252; empty for other kinds."},
			"isImageBased": {Description: "True when the document is a scan that could not be read: no text, and message says why."},
			"kind":         {Description: "The type read from the content (never the file name)."},
			"message":      {Description: "For a person, when the result is not plain success (image-based, pages left out); empty otherwise."},
			"method":       {Description: "What produced the text: pdftotext (poppler), go-pdf (the pure-Go reader, where poppler is missing), ocr (every page a scan), pdftotext+ocr or go-pdf+ocr (some scanned pages), docx, antiword, catdoc, text."},
			"ocrPages":     {Description: "Scanned pages whose text came from OCR."},
			"pages":        {Description: "A PDF's pages; 0 for other kinds."},
			"skippedPages": {Description: "Scanned pages left out: beyond the OCR page cap (50), or all of them when OCR is not installed."},
			"text":         {Description: "The document's text, pages in order; empty when isImageBased."},
		},
	},
	"Facets": {
		Description: "The matches per source and per category, each with the other filter applied.",
	},
	"GeneratedSummary": {
		Description: "A summary the portal's AI made of a circular or of pasted text. provider and model say what made it: 'local' and 'lexrank' for the extractive summariser that needs no model.",
		Properties: map[string]apispec.PropertyDoc{
			"generatedAt": {Format: "date-time"},
		},
	},
	"ImpactAnalysis": {
		Description: "An AI analysis of a circular's impact on one entity type.",
		Properties: map[string]apispec.PropertyDoc{
			"generatedAt": {Format: "date-time"},
			"reasons":     {Description: "Why: sentences of the circular (and, when the editors rated the type, their rating)."},
		},
	},
	"ImpactRecord": {
		Properties: map[string]apispec.PropertyDoc{
			"band":              {Description: "The score's band: good (90 and above), warning (80 to 89), poor (below 80)."},
			"circularId":        {Description: "The newest circular that names this entity type; null when none does.", Format: "uuid"},
			"complianceScore":   {Description: "max(0, 100 - 5 x high - 2 x medium) over the circulars published in the 365 days up to the record's computation; 100 when none.", Minimum: ptr(0), Maximum: ptr(100)},
			"entityType":        {Description: "PSP, Issuer, or any other value meaning aggregator (Aggregator)."},
			"highImpactCount":   {Minimum: ptr(0)},
			"id":                {Format: "uuid"},
			"lowImpactCount":    {Minimum: ptr(0)},
			"mediumImpactCount": {Minimum: ptr(0)},
			"name":              {Description: "How pages name the entity type: Payment Service Providers, Card Issuers or Payment Aggregators."},
			"updatedAt":         {Description: "When the record's values last changed: a sync changed the circulars it counts, or the window moved past one.", Format: "date-time"},
		},
	},
	"ImpactRequest": {
		Description: "POST /circulars/{id}/impact's body.",
		Properties: map[string]apispec.PropertyDoc{
			"entityType": {Description: "PSP, Issuer or Aggregator (any case)."},
		},
	},
	"LoginRequest": {
		Description: "POST /auth/login's body.",
	},
	"MeResponse": {
		Description: "The signed-in user.",
	},
	"Network": {
		Properties: map[string]apispec.PropertyDoc{
			"id": {Format: "uuid"},
		},
	},
	"NewsItem": {
		Properties: map[string]apispec.PropertyDoc{
			"id": {Format: "uuid"},
		},
	},
	"Pagination": {
		Description: "Where the page sits among the results.",
	},
	"Alert": {
		Description: "An alert: the circulars reaching the store that pass its filters (empty lists: any), e-mailed at its frequency. Daily digests go from 07:00 UTC, weekly ones on Mondays from 07:00 UTC.",
		Properties: map[string]apispec.PropertyDoc{
			"createdAt":   {Format: "date-time"},
			"lastSentAt":  {Description: "When it last sent an e-mail; null when never.", Format: "date-time"},
			"feedToken":   {Description: "The private feed's token: GET /api/alerts/feed?token=..."},
			"entityTypes": {Description: "The preferences' alert: the user's business (circulars naming none of these types are left out, and impact is judged for them). Empty for saved searches."},
			"query":       {Description: "The saved search's words; only strong matches count (every word in the number, title or summary, or the number as typed)."},
		},
	},
	"AlertRequest": {
		Description: "POST /alerts' and PUT /alerts/{id}'s body.",
	},
	"AlertSubscribeRequest": {
		Description: "POST /alerts/subscribe's body: an address and a search.",
	},
	"AlertSubscribeResponse": {
		Description: "An anonymous subscription waits for its confirmation link to be followed.",
	},
	"Organisation": {
		Description: "An organisation (a team's workspace), as one of its members sees it.",
		Properties: map[string]apispec.PropertyDoc{
			"id":          {Format: "uuid"},
			"entityTypes": {Description: "The kinds of business it is: PSP, Issuer, Aggregator."},
			"createdAt":   {Format: "date-time"},
			"role":        {Description: "The signed-in user's role in it."},
		},
	},
	"Member": {
		Description: "A member of an organisation, with the user's names and address.",
		Properties: map[string]apispec.PropertyDoc{
			"joinedAt":  {Format: "date-time"},
			"expiresAt": {Description: "When an auditor's access ends by itself (it is then no longer a member); null for the other roles.", Format: "date-time"},
		},
	},
	"APIKey": {
		Description: "An organisation's API key, as stored: never its token, only the token's first characters (prefix).",
		Properties: map[string]apispec.PropertyDoc{
			"prefix":        {Description: "The token's first characters (rpk_ and 8 more), to tell keys apart."},
			"expiresAt":     {Description: "When it stops working.", Format: "date-time"},
			"createdBy":     {Description: "The admin's user id (empty once their account is deleted)."},
			"createdByName": {Description: "The admin's name, or username."},
			"createdAt":     {Format: "date-time"},
			"lastUsedAt":    {Description: "Its last use, recorded at most once a minute; null if never used.", Format: "date-time"},
			"revokedAt":     {Description: "When it was revoked; null while it is not.", Format: "date-time"},
			"status":        {Description: "active, revoked or expired, when the answer was made."},
		},
	},
	"APIKeyScope": {
		Description: "What a key may do in its organisation: read (the organisation's reads and the public calls) or read-write (also decisions, comments and evidence; every request audited).",
	},
	"APIKeyStatus": {
		Description: "A key's state: active, revoked (refused from then on) or expired (refused after expiresAt).",
	},
	"MemberRole": {
		Description: "A member's role: admin (manages members and roles, decides), member (decides, acts, comments), viewer (reads), auditor (reads everything, accepts or rejects evidence, for a time).",
	},
	"Invite": {
		Description: "An invitation to join an organisation, e-mailed with its link (the token is only in the e-mail).",
		Properties: map[string]apispec.PropertyDoc{
			"accessEndsAt": {Description: "An auditor's end of access, which the membership keeps; null for the other roles.", Format: "date-time"},
			"invitedBy":    {Description: "The inviting admin's user id."},
			"createdAt":    {Format: "date-time"},
			"expiresAt":    {Description: "When the link stops working: 7 days after it was made.", Format: "date-time"},
			"acceptedAt":   {Description: "When it was accepted; null until then.", Format: "date-time"},
		},
	},
	"Decision": {
		Description: "An organisation's decision on a subject (a circular, an obligation or a Master Direction's provision): whether it applies, who owns the work, by when, how far it is.",
		Properties: map[string]apispec.PropertyDoc{
			"subjectId":     {Description: "The circular's or obligation's id, or the provision's direction's slug."},
			"provision":     {Description: "The provision's number, for a provision; null for the other subjects."},
			"reason":        {Description: "Why the subject does not apply: no-action-needed, duplicate, superseded or other (with a note); null when it applies."},
			"deferredUntil": {Description: "When a deferred decision is to be taken again; null otherwise.", Format: "date"},
			"ownerId":       {Description: "The user id of the member who owns the work; null for none."},
			"due":           {Description: "The due date as given: a date, or effective+Nd / deadline-Nd (days from the circular's effective date or the obligation's deadline); null for none."},
			"overdue":       {Description: "Whether it is overdue today: still open (new, assessing or action-planned) and its due date before today (UTC). Set by the API, not stored."},
			"subjectTitle":  {Description: "The subject's title in the catalog (an obligation's what; a provision's direction's title and paragraph); empty when the catalog no longer has it."},
			"subjectPath":   {Description: "The subject's page on the site (an obligation's: its circular's; a provision's: its direction's); empty when the catalog no longer has it."},
			"dueDate":       {Description: "What due resolved to when decided; null for none.", Format: "date"},
			"decidedBy":     {Description: "The user id of who last changed it; null once that user is deleted."},
			"decidedAt":     {Description: "When it was last changed.", Format: "date-time"},
			"textVersion":   {Description: "The version of the text decided on: a circular's (or an obligation's circular's) withdrawnOn then, null while in force; a provision's direction version in force then (its issue date before any amendment)."},
			"version":       {Description: "How many times it was written: a change sends it back, and is refused (409) when another came first."},
			"reopened": {Description: "The last time the system reopened the decision because its text changed (the catalog's sync: a circular replaced or withdrawn, a provision changed by a newer version of its direction), with what changed; null when it never did. " +
				"It stays when members decide again: one whose at is after decidedAt is still to be answered."},
		},
	},
	"Reopening": {
		Description: "Why and when the system reopened a decision: its status went back to assessing (new stays new), its textVersion to the text's now, and its organisation's audit trail has a decision.reopen row with no actor.",
		Properties: map[string]apispec.PropertyDoc{
			"at":          {Format: "date-time"},
			"from":        {Description: "The text version decided on (a date, or empty: a circular in force)."},
			"to":          {Description: "The text version now (a date, or empty: a circular in force again)."},
			"priorStatus": {Description: "The decision's status before it reopened."},
			"replacedBy":  {Description: "The circulars that replaced or withdrew the circular (empty for a provision)."},
			"rulesNowIn":  {Description: "Where the circular's rules went, as the catalog says (empty for a provision)."},
			"diff":        {Description: "For a provision: its change from the version decided on to the one in force (before, after, a word-level redline, the amending versions); null for a circular or an obligation."},
		},
	},
	"ReopenReason": {
		Description: "Why a decision reopened: circular-withdrawn (its circular, or its obligation's, replaced or withdrawn), circular-reinstated (in force again), provision-changed (text, heading or number), provision-removed.",
	},
	"WorkItem": {
		Description: "An open decision the signed-in user owns, with its organisation's name.",
	},
	"Comment": {
		Description: "A member's comment on a decision.",
		Properties: map[string]apispec.PropertyDoc{
			"id":        {Format: "uuid"},
			"authorId":  {Description: "The author's user id; null once the user is deleted."},
			"createdAt": {Format: "date-time"},
			"mentions":  {Description: "The user ids of the members its @usernames name."},
		},
	},
	"Applicability": {
		Description: "Does the subject apply to the organisation: applicable, not-applicable (with a reason) or deferred (until a date).",
	},
	"DecisionStatus": {
		Description: "How far the work on a decision is: new, assessing, action-planned, done, or not-applicable (a subject that does not apply).",
	},
	"SubjectType": {
		Description: "What a decision is about: a circular, an obligation or a provision of a Master Direction.",
	},
	"DecisionRequest": {
		Description: "PUT /organisations/{id}/decision's body.",
		Properties: map[string]apispec.PropertyDoc{
			"deferredUntil": {Description: "For deferred: when to decide again (YYYY-MM-DD).", Format: "date"},
			"version":       {Description: "The decision's version read; 0 for a new one."},
		},
	},
	"CommentRequest": {
		Description: "POST /organisations/{id}/decision/comments' body.",
	},
	"Evidence": {
		Description: "A piece of evidence on a decision, a file or a link, and its review.",
		Properties: map[string]apispec.PropertyDoc{
			"id":         {Format: "uuid"},
			"subjectId":  {Description: "The circular's or obligation's id, or the provision's direction's slug."},
			"provision":  {Description: "The provision's number, for a provision; null for the other subjects."},
			"name":       {Description: "A file's name as uploaded, without any directory or control character; null for a link."},
			"size":       {Description: "A file's size in bytes; 0 for a link."},
			"sha256":     {Description: "A file's SHA-256, hex; null for a link."},
			"mediaType":  {Description: "The type a file's bytes sniff as (what the download is sent as); null for a link."},
			"clientType": {Description: "The type the client gave a file's part; null for a link or none."},
			"link":       {Description: "A link's http(s) URL; null for a file."},
			"note":       {Description: "What the evidence shows; null for none."},
			"addedBy":    {Description: "The user id of who added it; null once that user is deleted."},
			"addedAt":    {Format: "date-time"},
			"reviewedBy": {Description: "The user id of its last reviewer; null while pending or once that user is deleted."},
			"reviewedAt": {Description: "When it was last reviewed; null while pending.", Format: "date-time"},
			"reviewNote": {Description: "The reviewer's note (always given for a rejection); null for none."},
		},
	},
	"EvidenceKind": {
		Description: "A piece of evidence is a file (its bytes kept, at most 20 MB) or a link.",
	},
	"EvidenceState": {
		Description: "A piece of evidence's review: pending until an admin or an auditor accepts or rejects it.",
	},
	"EvidenceLinkRequest": {
		Description: "POST /organisations/{id}/decision/evidence's JSON body: a link (an http(s) URL) and an optional note.",
	},
	"EvidenceReviewRequest": {
		Description: "POST /organisations/{id}/evidence/{evidence}/review's body: decision, accepted or rejected, and a note (required to reject).",
	},
	"ReassignRequest": {
		Description: "POST /organisations/{id}/reassign's body: the user ids of the member whose open decisions move and of the one who takes them.",
	},
	"ReassignResponse": {
		Description: "How many decisions moved.",
	},
	"OrganisationRequest": {
		Description: "POST /organisations' body.",
	},
	"MemberRequest": {
		Description: "PUT /organisations/{id}/members/{userId}'s body.",
		Properties: map[string]apispec.PropertyDoc{
			"expiresAt": {Description: "An auditor's end of access, in the future; left out for the other roles.", Format: "date-time"},
		},
	},
	"InviteRequest": {
		Description: "POST /organisations/{id}/invites' body.",
		Properties: map[string]apispec.PropertyDoc{
			"accessEndsAt": {Description: "An auditor's end of access, in the future; left out for the other roles.", Format: "date-time"},
		},
	},
	"InviteAcceptRequest": {
		Description: "POST /invites/accept's body.",
		Properties: map[string]apispec.PropertyDoc{
			"token": {Description: "The token of the invitation e-mail's link (its token parameter)."},
		},
	},
	"PasswordRequest": {
		Description: "PUT /user/password's body.",
	},
	"Preferences": {
		Description: "A user's preferences, created with the account (e-mail notifications on, newsletter off, no filters).",
		Properties: map[string]apispec.PropertyDoc{
			"updatedAt":   {Format: "date-time"},
			"entityTypes": {Description: "The kinds of business the user is (PSP, Issuer, Aggregator): what alerts, obligations and impact are judged for. None at first."},
		},
	},
	"PreferencesRequest": {
		Description: "PUT /user/preferences's body: every field but entityTypes.",
		Properties: map[string]apispec.PropertyDoc{
			"entityTypes": {Description: "PSP, Issuer, Aggregator, each at most once; absent keeps the stored choice."},
		},
	},
	"ProfileRequest": {
		Description: "PUT /user/profile's body.",
	},
	"Regulation": {
		Properties: map[string]apispec.PropertyDoc{
			"id": {Format: "uuid"},
		},
	},
	"SearchResponse": {
		Description: "GET /api/search's answer: the page of circulars, the direct answer, the pagination, the facet counts and any correction.",
		Properties: map[string]apispec.PropertyDoc{
			"correction": {Description: "How a misspelt query was corrected: as typed and as searched."},
		},
	},
	"SibosEvent": {
		Properties: map[string]apispec.PropertyDoc{
			"expectedAttendees": {Minimum: ptr(1)},
			"id":                {Format: "uuid"},
			"year":              {Minimum: ptr(1978)},
		},
	},
	"SignupRequest": {
		Description: "POST /auth/signup's body.",
	},
	"Span": {
		Description: "A part of a text that matched the query, as UTF-16 offsets [start, end).",
	},
	"Subscriber": {
		Properties: map[string]apispec.PropertyDoc{
			"subscribedAt": {Format: "date-time"},
		},
	},
	"SummarizeRequest": {
		Description: "POST /ai/summarize's body.",
		Properties: map[string]apispec.PropertyDoc{
			"content": {Description: "The text to summarise; blank is refused."},
		},
	},
	"TokenResponse": {
		Description: "A token to send as Authorization: Bearer.",
	},
	"User": {
		Description: "An account as the API shows it: never the password or its hash.",
		Properties: map[string]apispec.PropertyDoc{
			"createdAt": {Format: "date-time"},
		},
	},
}

// stringsOf are a string enumeration's values as strings.
func stringsOf[S ~[]E, E ~string](values S) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
