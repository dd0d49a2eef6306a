package api

import (
	"fmt"
	"reflect"

	"regpulse/api/apispec"
	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
	"regpulse/internal/extract"
	"regpulse/internal/impact"
	"regpulse/internal/newsletter"
	"regpulse/internal/register"
	"regpulse/internal/search"
)

// The API's operations, each declared once: what they take and answer,
// in the words of the OpenAPI document (api/openapi.json is generated
// from these by `go generate ./api`). routes (routes.go) binds each to
// its handler.

// apiDescription is the document's description of the whole API.
const apiDescription = "RegPulse's read API. Every successful read carries a weak ETag (a hash of the JSON, weak because the server may send it gzipped) and Cache-Control: no-cache; send If-None-Match to get 304 without a body. Every GET also answers HEAD. Every failure is JSON {\"error\", \"fields\"}. Query parameters a call does not take are rejected with 400. Optional values that are absent are null; lists are never null. A list answers one page as a JSON array: X-Total-Count says how many entries the query matches in all and, while more follow, Link names the next page (rel=\"next\", RFC 8288); ask for another page with offset. The accounts calls (/auth/*, /user/*) take strict JSON bodies (Content-Type: application/json, at most 16 KiB, no unknown fields) and answer with Cache-Control: no-store; the signed-in calls need Authorization: Bearer {token}."

var bearerScheme = &apispec.SecurityScheme{Type: "http", Scheme: "bearer", BearerFormat: "JWT",
	Description: "A token from sign-up, sign-in or a password change (HS256, issuer regpulse). Refused once expired, after a password change or log out everywhere, or when the user is deleted."}

// filterValues are the values a filter parameter takes: "", "all" or one
// of values.
func filterValues(values []string) []string { return append([]string{"", "all"}, values...) }

// filter declares a filter parameter over values.
func filter(component, name string, values []string, description string) *apispec.Param {
	return &apispec.Param{Component: component, Name: name, In: "query", Description: description,
		Schema: apispec.Schema{Type: "string", Enum: filterValues(values)}}
}

// limitParam declares a page's limit with its default.
func limitParam(component string, def int) *apispec.Param {
	return &apispec.Param{Component: component, Name: "limit", In: "query",
		Description: fmt.Sprintf("How many items at most: a whole number from 1 to %d (default %d).", catalog.MaxLimit, def),
		Schema:      apispec.Schema{Type: "integer", Default: def, Minimum: apispec.Int(1), Maximum: apispec.Int(catalog.MaxLimit)}}
}

func sortValues() []string {
	out := []string{""}
	for _, s := range catalog.CircularSorts {
		out = append(out, string(s))
	}
	return out
}

const filterNote = ` Absent, empty or "all" means no filter; values match case-insensitively.`

// paramDecls are every parameter a call takes, by the name a parameters
// struct's `param` tag gives; those with a Component are shared in the
// document.
var paramDecls = map[string]*apispec.Param{
	"Limit50":  limitParam("Limit50", defaultListLimit),
	"Limit100": limitParam("Limit100", catalog.MaxLimit),
	"Offset": {Component: "Offset", Name: "offset", In: "query",
		Description: "How many entries to skip before the page: a whole number, 0 or more (default 0).",
		Schema:      apispec.Schema{Type: "integer", Default: 0, Minimum: apispec.Int(0)}},
	"Source": filter("Source", "source", catalog.Sources, "Only circulars from this regulator."+filterNote),
	"CircularCategory": filter("CircularCategory", "category", catalog.CircularCategories,
		"Only circulars of this category."+filterNote),
	"CircularSearch": {Component: "CircularSearch", Name: "search", In: "query",
		Description: fmt.Sprintf("Case-insensitive substring of the circular number, title, content, category or source (at most %d characters; surrounding spaces ignored). %% and _ match themselves.", maxSearchLength),
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(maxSearchLength)}},
	"Sort": {Component: "Sort", Name: "sort", In: "query",
		Description: "Order: date (newest first, the default); relevance (3 per match of search in the title plus 1 per match in the content, then newest first; date order without search); impact (high, medium, low, then newest first).",
		Schema:      apispec.Schema{Type: "string", Enum: sortValues(), Default: string(catalog.SortDate)}},
	"Filter": filter("Filter", "filter", catalog.ImpactLevels, "Only circulars of this impact level."+filterNote),
	"DocumentType": filter("DocumentType", "type", catalog.DocumentTypes,
		"Only circulars of this document type (e.g. draft for drafts for comments, master-direction)."+filterNote),
	"Verification": filter("Verification", "verification", catalog.Verifications,
		"Only circulars whose entry was checked this far against the regulator's own text: checked (against the official text), reported (from secondary sources only) or pending (the document identified, not yet read)."+filterNote),
	"NewsCategory": filter("NewsCategory", "category", catalog.NewsCategories, "Only news of this category."+filterNote),
	"NewsSearch": {Component: "NewsSearch", Name: "search", In: "query",
		Description: fmt.Sprintf("Case-insensitive substring of the title, excerpt or category (at most %d characters).", maxSearchLength),
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(maxSearchLength)}},
	"Region":          filter("Region", "region", catalog.Regions, "Only news of this region."+filterNote),
	"CompanyCategory": filter("CompanyCategory", "category", catalog.CompanyCategories, "Only companies of this category."+filterNote),
	"Country":         filter("Country", "country", catalog.RegulationCountries, "Only regulations of this jurisdiction."+filterNote),
	"Status":          filter("Status", "status", catalog.RegulationStatuses, "Only regulations with this status."+filterNote),
	"SearchQuery": {Component: "SearchQuery", Name: "q", In: "query", Required: true, RequiredMessage: "the text to search for",
		Description: fmt.Sprintf("The text to search for (required; at most %d characters; surrounding spaces ignored). Words, phrases, plain questions and circular numbers as typed ('RBI/2021-22/96'); any query syntax characters are read as text.", search.MaxQueryLength),
		Schema:      apispec.Schema{Type: "string", MinLength: apispec.Int(1), MaxLength: apispec.Int(search.MaxQueryLength)}},
	"SearchPage": {Component: "SearchPage", Name: "page", In: "query",
		Description: fmt.Sprintf("The page of results, from 1 (%d circulars a page). A page beyond the last answers with no circulars and the true pagination.", search.PageSize),
		Schema:      apispec.Schema{Type: "integer", Default: 1, Minimum: apispec.Int(1), Maximum: apispec.Int(maxSearchPage)}},
	"UnsubscribeToken": {Component: "UnsubscribeToken", Name: "token", In: "query", Required: true, Raw: true,
		Description: "The signed unsubscribe token of the subscriber's e-mail link (the subscriber's id and an HMAC-SHA256 of it).",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(200)}},
	"CircularID": {Name: "id", In: "path", Required: true, Description: "The circular's id.",
		Schema: apispec.Schema{Type: "string", Format: "uuid"}},
	"JobID": {Name: "id", In: "path", Required: true, Schema: apispec.Schema{Type: "string"}},
	"AlertID": {Name: "id", In: "path", Required: true, Description: "The alert's id.",
		Schema: apispec.Schema{Type: "string", MaxLength: apispec.Int(64)}},
	"AlertToken": {Component: "AlertToken", Name: "token", In: "query", Required: true, Raw: true,
		Description: "The signed token of an alert e-mail's link (the alert's id and an HMAC-SHA256 of it; a confirmation's also carries its expiry).",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(200)}},
	"FeedToken": {Name: "token", In: "query", Required: true, Raw: true,
		Description: "The alert's private feed token (from GET /alerts): unguessable; renewing it ends the old feed URL.",
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(100)}},
	"ObligationID": {Name: "id", In: "path", Required: true, Description: "The obligation's id (stable: from its circular and source sentence).",
		Schema: apispec.Schema{Type: "string", Format: "uuid"}},
	"EntityType": filter("EntityType", "entityType", catalog.EntityTypes,
		"Only obligations applying to this entity type (those of all regulated entities included)."+filterNote),
	"DueBefore": {Component: "DueBefore", Name: "due_before", In: "query",
		Description: "Only obligations due on or before this date (YYYY-MM-DD); undated ones are left out.",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"DueAfter": {Component: "DueAfter", Name: "due_after", In: "query",
		Description: "Only obligations due on or after this date (YYYY-MM-DD); undated ones are left out.",
		Schema:      apispec.Schema{Type: "string", Format: "date"}},
	"ObligationOrigin": filter("ObligationOrigin", "origin", catalog.ObligationOrigins,
		"Only obligations written by editors (editor) or proposed by the AI layer (extracted)."+filterNote),
	"Binding": filter("Binding", "binding", []string{"true", "false"},
		"Only binding obligations (true) or those of drafts and consultations, which bind no one yet (false)."+filterNote),
	"RegisterStatus": filter("RegisterStatus", "status", register.Statuses, "Only obligations with this status (todo until set)."+filterNote),
	"DueGroup": filter("DueGroup", "group", register.Groups,
		"Only obligations of this due-date group as of today (UTC): overdue, this-month, later, no-date."+filterNote),
	"RegisterSearch": {Component: "RegisterSearch", Name: "search", In: "query",
		Description: fmt.Sprintf("Case-insensitive substring of what, the source sentence or the circular's title (at most %d characters). %% and _ match themselves.", maxSearchLength),
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(maxSearchLength)}},
}

var (
	hCacheControl       = &apispec.Header{Component: "Cache-Control", Name: "Cache-Control", Description: "no-cache: keep the body but revalidate every time.", Schema: apispec.Schema{Type: "string", Enum: []string{"no-cache"}}}
	hContentDisposition = &apispec.Header{Component: "Content-Disposition", Name: "Content-Disposition", Description: "attachment; filename=\"regpulse-circulars[-{source}].csv|json\": the download is a file to save, named after the source filter.", Schema: apispec.Schema{Type: "string"}}
	hETag               = &apispec.Header{Component: "ETag", Name: "ETag", Description: "Weak validator (W/\"...\"): a hash of the body and of X-Total-Count. Send it back in If-None-Match.", Schema: apispec.Schema{Type: "string"}}
	hLink               = &apispec.Header{Component: "Link", Name: "Link", Description: "While entries follow this page: <URL of the next page>; rel=\"next\" (RFC 8288). The URL keeps the request's parameters and sets limit and offset.", Schema: apispec.Schema{Type: "string"}}
	hRetryAfter         = &apispec.Header{Component: "Retry-After", Name: "Retry-After", Description: "Seconds to wait before trying again.", Schema: apispec.Schema{Type: "string"}}
	hWWWAuthenticate    = &apispec.Header{Component: "WWW-Authenticate", Name: "WWW-Authenticate", Description: "Bearer realm=\"regpulse\".", Schema: apispec.Schema{Type: "string"}}
	hNewestCircular     = &apispec.Header{Component: "X-Newest-Circular", Name: "X-Newest-Circular", Description: "The date (YYYY-MM-DD) of the newest circular in the catalog: with X-Catalog-Updated, how current the list is (\"up to date as of\"). Absent while there is none.", Schema: apispec.Schema{Type: "string", Format: "date"}}
	hCatalogUpdated     = &apispec.Header{Component: "X-Catalog-Updated", Name: "X-Catalog-Updated", Description: "When the catalog was last synced from the content (RFC 3339, UTC): every successful build or sync counts, whether or not anything changed. Absent before the first sync.", Schema: apispec.Schema{Type: "string", Format: "date-time"}}
	hXTotalCount        = &apispec.Header{Component: "X-Total-Count", Name: "X-Total-Count", Description: "How many entries the query matches on all pages.", Schema: apispec.Schema{Type: "integer", Minimum: apispec.Int(0)}}
)

// hLocation is a redirect's target.
var hLocation = &apispec.Header{Name: "Location", Schema: apispec.Schema{Type: "string"}}

var (
	rAIPayloadTooLarge = &apispec.Response{Component: "AIPayloadTooLarge", Description: "The body, or the text to summarise, is over its limit; the message says the limit.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rAITooManyRequests = &apispec.Response{Component: "AITooManyRequests", Description: "The client made more AI calls than its rate limit allows (20 a minute by default, shared by the AI calls); Retry-After says when to try again.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rBadBody = &apispec.Response{Component: "BadBody", Description: "The body is malformed, not one JSON object, has an unknown field or a field of the wrong type, or a value fails validation; fields names each field with its message.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rBadRequest = &apispec.Response{Component: "BadRequest", Description: "A query parameter is unknown, repeated or has a bad value; fields names each one.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rConflict = &apispec.Response{Component: "Conflict", Description: "The username or e-mail (in any case) belongs to another account; fields names which.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rForbidden = &apispec.Response{Component: "Forbidden", Description: "Signed in, but the call is for administrators only.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rInternalError = &apispec.Response{Component: "InternalError", Description: "The server failed; the details are logged, not returned.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rNotFound = &apispec.Response{Component: "NotFound", Description: "No circular has that id.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rAlertNotFound = &apispec.Response{Component: "AlertNotFound", Description: "No alert of the signed-in user has that id (another user's alert is not found either).",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rNotModified = &apispec.Response{Component: "NotModified", Description: "The body named by If-None-Match is still current; no body.",
		Headers: []*apispec.Header{hCacheControl, hETag}}
	rPayloadTooLarge = &apispec.Response{Component: "PayloadTooLarge", Description: "The body is over 16 KiB.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
	rTooManyRequests = &apispec.Response{Component: "TooManyRequests", Description: "Too many attempts from this client address in the window.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}, Headers: []*apispec.Header{hRetryAfter}}
	rUnauthorized = &apispec.Response{Component: "Unauthorized", Description: "No valid token: missing, malformed, tampered, of another algorithm, expired, revoked, or of a deleted user.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}, Headers: []*apispec.Header{hWWWAuthenticate}}
	rUnsupportedMediaType = &apispec.Response{Component: "UnsupportedMediaType", Description: "The body is not sent as application/json.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
)

var opSummarizeText = &apispec.Operation{ID: "summarizeText", Method: "POST", Path: "/ai/summarize",
	Summary:     "Summarise pasted text (not stored).",
	Description: "Summarises the content (plain text or Markdown, trimmed; at most 100,000 characters by default).",
	Body:        &apispec.Body{Description: "The text to summarise.", Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SummarizeRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The summary, with the provider and model that made it.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.GeneratedSummary]()}}},
		rBadBody.At(400),
		rAIPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rAITooManyRequests.At(429),
		rInternalError.At(500)},
}

var opLogin = &apispec.Operation{ID: "login", Method: "POST", Path: "/auth/login",
	Summary:     "Sign in.",
	Description: "An unknown username and a wrong password get the same 401. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[LoginRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Signed in.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[TokenResponse]()}}},
		rBadBody.At(400),
		{Status: 401, Description: "Invalid username or password.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var opLogoutAll = &apispec.Operation{ID: "logoutAll", Method: "POST", Path: "/auth/logout-all",
	Summary: "Log out everywhere: every token of the user, this one included, is refused from now on.",
	Responses: []*apispec.Response{
		{Status: 204, Description: "Done; no body."},
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opMe = &apispec.Operation{ID: "me", Method: "GET", Path: "/auth/me",
	Summary: "The signed-in user.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The user.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[MeResponse]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opSignup = &apispec.Operation{ID: "signup", Method: "POST", Path: "/auth/signup",
	Summary:     "Create an account and sign in.",
	Description: "Username 3 to 50 characters, a valid e-mail, a password of 6 to 128 characters, first and last name. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SignupRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Created; the token signs the new user in.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[TokenResponse]()}}},
		rBadBody.At(400),
		rConflict.At(409),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var opListCirculars = &apispec.Operation{ID: "listCirculars", Method: "GET", Path: "/circulars",
	Summary:     "Regulatory circulars.",
	Description: "Circulars, newest first unless sort says otherwise.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Circular]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opExportCircularsCSV = &apispec.Operation{ID: "exportCircularsCSV", Method: "GET", Path: "/circulars.csv",
	Summary:     "Bulk download of circulars as CSV.",
	Description: "Every circular the filters of GET /circulars select, in its order, as CSV (RFC 4180: CRLF line ends, fields quoted where needed), UTF-8, with a header row: id, circularNumber, title, source, category, documentType, impactLevel, publishedDate, officialUrl, summary, content, verification. A cell starting with =, +, -, @, a tab or a carriage return gets a leading ' so spreadsheets do not run it as a formula. The download is whole: limit and offset are refused (400).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The whole list, as a file.",
			Content: []apispec.Content{{MediaType: "text/csv", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hContentDisposition}},
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opExportCircularsJSON = &apispec.Operation{ID: "exportCircularsJSON", Method: "GET", Path: "/circulars.json",
	Summary:     "Bulk download of circulars as JSON.",
	Description: "Every circular the filters of GET /circulars select, in its order, as one JSON array of the circulars GET /circulars answers. The download is whole: limit and offset are refused (400).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The whole list, as a file.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Circular]()}}, Headers: []*apispec.Header{hCacheControl, hContentDisposition}},
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opGetCircular = &apispec.Operation{ID: "getCircular", Method: "GET", Path: "/circulars/{id}",
	Summary:     "One circular.",
	Description: "The circular with that id as GET /circulars lists it, its stored aiSummary included: an address for one circular that stays put while the lists' pages move.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The circular.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.Circular]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rNotFound.At(404),
		rInternalError.At(500)},
}

var opAnalyzeImpact = &apispec.Operation{ID: "analyzeImpact", Method: "POST", Path: "/circulars/{id}/impact",
	Summary:     "Analyse a circular's impact on one entity type and store it.",
	Description: "Rates how hard the circular hits the entity type (high, medium or low) with the reasons, each from the circular's text. The local provider takes the editors' rating for the type when the circular has one, otherwise rules over the text (obligations, deadlines, the entity types and instruments named). Stored per circular and entity type.",
	Body:        &apispec.Body{Description: "The entity type to analyse for.", Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ImpactRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The analysis.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.ImpactAnalysis]()}}},
		rBadBody.At(400),
		rNotFound.At(404),
		rAIPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rAITooManyRequests.At(429),
		rInternalError.At(500)},
}

var opSummarizeCircular = &apispec.Operation{ID: "summarizeCircular", Method: "POST", Path: "/circulars/{id}/summarize",
	Summary:     "Summarise a circular and store the summary.",
	Description: "Summarises the circular with the configured model (behind the invention guard) or, without one, the local extractive summariser, and stores the result as the circular's aiSummary (provider, model and time included), beside the editors' summary, which is never replaced. Kept across catalog syncs. Concurrent calls for one circular share one piece of work. Takes no body (or an empty JSON object).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The circular with its new aiSummary.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.Circular]()}}},
		rBadBody.At(400),
		rNotFound.At(404),
		rUnsupportedMediaType.At(415),
		rAITooManyRequests.At(429),
		rInternalError.At(500)},
}

var opDashboardStats = &apispec.Operation{ID: "dashboardStats", Method: "GET", Path: "/dashboard/stats",
	Summary:     "The dashboard's counters.",
	Description: "Counts over the 30 calendar days (UTC) ending today.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[dashboard.Stats]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opGetExtractJob = &apispec.Operation{ID: "getExtractJob", Method: "GET", Path: "/extract-jobs/{id}",
	Summary:     "A background extraction's progress, then its result.",
	Description: "Poll every second or two while status is running; done and total count the scanned pages. A finished job is kept for 10 minutes.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The job.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[extract.Job]()}}},
		{Status: 404, Description: "No such job, or it ended more than 10 minutes ago.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}},
}

var opExtractDocumentText = &apispec.Operation{ID: "extractDocumentText", Method: "POST", Path: "/extract-pdf-text",
	Summary:     "The text of an uploaded PDF, Word (.docx, .doc) or text file.",
	Description: "The type is read from the content, not the name. PDF text comes from the text layer (the method says which reader); scanned pages are read with OCR in page order. A document with more than 2 scanned pages is read in the background: the answer is 202 with the job, whose URL is the Location header. A scan that could not be read answers 200 with isImageBased true, no text and a message.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "multipart/form-data", Raw: map[string]any{"properties": map[string]any{"file": map[string]any{"description": "The document, at most 10 MB.", "format": "binary", "type": "string"}}, "required": []any{"file"}, "type": "object"}}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The text, or isImageBased with a message.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[extract.Result]()}}},
		{Status: 202, Description: "A long scan, read in the background: poll the job at Location.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[extract.Job]()}}, Headers: []*apispec.Header{{Name: "Location", Description: "/api/extract-jobs/{id}", Schema: apispec.Schema{Type: "string"}}}},
		{Status: 400, Description: "Not a multipart body, or no field \"file\".",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		{Status: 413, Description: "The file is over 10 MB, or a Word document expands past the limits (a zip bomb).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		{Status: 415, Description: "Not a PDF, Word or text file.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		{Status: 422, Description: "The document is password-protected, damaged, truncated, empty or took too long to read; error says which, for a person.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rTooManyRequests.At(429),
		{Status: 503, Description: "Too many documents are being read; Retry-After says when to try again.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}},
}

var opListFintechCompanies = &apispec.Operation{ID: "listFintechCompanies", Method: "GET", Path: "/fintech-companies",
	Summary:     "Fintech companies and founders.",
	Description: "By slug.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Company]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opHealth = &apispec.Operation{ID: "health", Method: "GET", Path: "/health",
	Summary: "Whether the API and its store answer.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "Healthy.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Health]()}}},
		{Status: 503, Description: "The store does not answer.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}},
}

var opImpactTracking = &apispec.Operation{ID: "impactTracking", Method: "GET", Path: "/impact-tracking",
	Summary:     "Impact tracking records.",
	Description: "One record per entity type (PSP, Issuer, Aggregator): compliance score and how many circulars hit it at each impact level.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]impact.Record]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListNews = &apispec.Operation{ID: "listNews", Method: "GET", Path: "/news",
	Summary:     "Fintech news.",
	Description: "News items, newest first.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.NewsItem]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opSubscribe = &apispec.Operation{ID: "subscribe", Method: "POST", Path: "/newsletter/subscribe",
	Summary:     "Subscribe an address to the monthly newsletter.",
	Description: "The address must be valid ('Please enter a valid email address'); it is unique whatever its case, so subscribing again updates names and topics (200 updated) or re-activates an unsubscribed address (200 reactivated). Topics default to regulatory and payments; source to website. An HTML form (application/x-www-form-urlencoded, without JavaScript) gets 303 to the site's confirmation page, or a page naming the problem. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SubscribeRequest]()}, {MediaType: "application/x-www-form-urlencoded", Raw: map[string]any{"properties": map[string]any{"email": map[string]any{"type": "string"}, "firstName": map[string]any{"type": "string"}, "lastName": map[string]any{"type": "string"}, "preferences": map[string]any{"items": map[string]any{"type": "string"}, "type": "array"}, "source": map[string]any{"type": "string"}}, "type": "object"}}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The address was already on the list: updated or re-activated.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SubscribeResponse]()}}},
		{Status: 201, Description: "A new subscriber.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SubscribeResponse]()}}},
		{Status: 303, Description: "A form's signup stored: see the site's confirmation page (/newsletter/subscribed?status=...).",
			Headers: []*apispec.Header{hLocation}},
		{Status: 400, Description: "A field or the body is not acceptable (a form gets a page saying which).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}, {MediaType: "text/html", Raw: map[string]any{"type": "string"}}}},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var opListSubscribers = &apispec.Operation{ID: "listSubscribers", Method: "GET", Path: "/newsletter/subscribers",
	Summary: "Every subscriber, active or not, latest subscription first (administrators only).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]newsletter.Subscriber]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rForbidden.At(403),
		rInternalError.At(500)},
}

var opUnsubscribePage = &apispec.Operation{ID: "unsubscribePage", Method: "GET", Path: "/newsletter/unsubscribe",
	Summary:     "The page an e-mail's unsubscribe link opens: one button that confirms.",
	Description: "Changes nothing (mail scanners open links); the button POSTs to the same URL.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The confirmation page.",
			Content: []apispec.Content{{MediaType: "text/html", Raw: map[string]any{"type": "string"}}}},
		{Status: 400, Description: "The token is not valid: a page saying so.",
			Content: []apispec.Content{{MediaType: "text/html", Raw: map[string]any{"type": "string"}}}}},
}

var opUnsubscribe = &apispec.Operation{ID: "unsubscribe", Method: "POST", Path: "/newsletter/unsubscribe",
	Summary:     "Unsubscribe, without signing in; idempotent.",
	Description: "The confirmation page's button gets 303 to the site's /newsletter/unsubscribed page. A mail client's one-click request (RFC 8058: body List-Unsubscribe=One-Click) gets 200.",
	Body:        &apispec.Body{Description: "", Content: []apispec.Content{{MediaType: "application/x-www-form-urlencoded", Raw: map[string]any{"properties": map[string]any{"List-Unsubscribe": map[string]any{"enum": []any{"One-Click"}, "type": "string"}}, "type": "object"}}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Unsubscribed (or already).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[UnsubscribeResponse]()}}},
		{Status: 303, Description: "Unsubscribed: see the site's confirmation page.",
			Headers: []*apispec.Header{hLocation}},
		{Status: 400, Description: "The token is not valid.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rInternalError.At(500)},
}

var opOpenAPI = &apispec.Operation{ID: "openAPI", Method: "GET", Path: "/openapi.json",
	Summary: "This document.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The OpenAPI document.",
			Content: []apispec.Content{{MediaType: "application/json", Raw: map[string]any{"type": "object"}}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400)},
}

var opListPaymentNetworks = &apispec.Operation{ID: "listPaymentNetworks", Method: "GET", Path: "/payment-networks",
	Summary:     "Payment networks and card schemes.",
	Description: "By slug.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Network]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListPIIRegulations = &apispec.Operation{ID: "listPIIRegulations", Method: "GET", Path: "/pii-regulations",
	Summary:     "PII and privacy regulations.",
	Description: "By slug.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Regulation]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opSearch = &apispec.Operation{ID: "search", Method: "GET", Path: "/search",
	Summary:     "Ranked full-text search of the circulars, with a direct answer.",
	Description: "Ranks circulars for q: a circular number as typed first, then circulars with every term in their number, title or summary, then every term anywhere, then some terms; within each, matches in the number and title weigh most. Words match across British and American spellings and stems; a word the index lacks is completed as a prefix or corrected to the nearest indexed word (correction says so). Queries about UPI ('upi', 'unified payment') sort the strong matches newest first (latest). The answer is extractive: the passage of the best circulars that holds most of the query's terms, with a confidence from 0 to 1, or a null directAnswer when none answers well. Facets count the matches per source and category, each with the other filter applied.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[search.Response]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opSearchFeed = &apispec.Operation{ID: "searchFeed", Method: "GET", Path: "/search/feed",
	Summary:     "A search as an Atom feed.",
	Description: "The newest 50 circulars holding every term of q (with the source and category filters), newest first, as Atom 1.0 (RFC 4287), so a search can be followed in a feed reader.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/atom+xml", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListSibosEvents = &apispec.Operation{ID: "listSibosEvents", Method: "GET", Path: "/sibos-events",
	Summary:     "SIBOS events.",
	Description: "Newest year first.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.SibosEvent]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opChangePassword = &apispec.Operation{ID: "changePassword", Method: "PUT", Path: "/user/password",
	Summary:     "Change the signed-in user's password.",
	Description: "The current password is required. Every token issued before is revoked; the answer carries a new one. Rate-limited per client address like sign-in.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[PasswordRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Changed; use the new token.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[TokenResponse]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var opPreferences = &apispec.Operation{ID: "preferences", Method: "GET", Path: "/user/preferences",
	Summary: "The signed-in user's preferences.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The preferences.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[auth.Preferences]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opSavePreferences = &apispec.Operation{ID: "savePreferences", Method: "PUT", Path: "/user/preferences",
	Summary:     "Replace the signed-in user's preferences.",
	Description: "Every field is required but entityTypes (absent: the stored choice is kept). circularSources from RBI, NPCI, SEBI, IRDAI, PFRDA, PRB, IDRBT; impactLevels from high, medium, low; categories from the search's categories; entityTypes from PSP, Issuer, Aggregator; each at most once.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[PreferencesRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[auth.Preferences]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opSaveProfile = &apispec.Operation{ID: "saveProfile", Method: "PUT", Path: "/user/profile",
	Summary: "Change the signed-in user's names and e-mail.",
	Body:    &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ProfileRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved; the user as now stored.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[MeResponse]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rConflict.At(409),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

// The alert calls: a user's alerts, their feeds, anonymous subscriptions
// and the e-mails' links.
const alertBodyNote = "name 1 to 100 characters; query at most 400 characters (empty: every circular passing the filters; matched as the search's strong matches: every word in the number, title or summary, or the number as typed); sources from RBI, NPCI, SEBI, IRDAI, PFRDA, PRB, IDRBT; categories from the search's categories; documentTypes from the circulars' document types; impactLevels from high, medium, low; each list optional (empty: any) with each value at most once; frequency immediately, daily or weekly."

var opListAlerts = &apispec.Operation{ID: "listAlerts", Method: "GET", Path: "/alerts",
	Summary:     "The signed-in user's alerts: their preferences' first, then their saved searches, oldest first.",
	Description: "The preferences' alert follows the preferences (sources, impact levels, categories, entity types; on while e-mail notifications are). lastSentAt is the last e-mail it sent; feedToken makes its private feed URL (/api/alerts/feed?token=).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The alerts.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]alerts.Alert]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opCreateAlert = &apispec.Operation{ID: "createAlert", Method: "POST", Path: "/alerts",
	Summary:     "Save a search as an alert of the signed-in user.",
	Description: "The body: " + alertBodyNote + " Only circulars reaching the store after the alert is made are sent.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Created.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[alerts.Alert]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opUpdateAlert = &apispec.Operation{ID: "updateAlert", Method: "PUT", Path: "/alerts/{id}",
	Summary:     "Change one of the signed-in user's alerts: edit, pause (enabled false) or resume.",
	Description: "The body as for POST /alerts. For the preferences' alert only frequency and enabled apply (enabled is the preferences' e-mail notifications); its filters are the preferences'.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[alerts.Alert]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rAlertNotFound.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opDeleteAlert = &apispec.Operation{ID: "deleteAlert", Method: "DELETE", Path: "/alerts/{id}",
	Summary: "Delete one of the signed-in user's saved searches.",
	Responses: []*apispec.Response{
		{Status: 204, Description: "Deleted; no body."},
		rUnauthorized.At(401),
		rAlertNotFound.At(404),
		{Status: 409, Description: "The preferences' alert cannot be deleted: turn it off.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rInternalError.At(500)},
}

var opRenewAlertFeed = &apispec.Operation{ID: "renewAlertFeed", Method: "POST", Path: "/alerts/{id}/feed-token",
	Summary: "Give one of the signed-in user's alerts a new feed token: the old feed URL stops working.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The alert with its new token.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[alerts.Alert]()}}},
		rUnauthorized.At(401),
		rAlertNotFound.At(404),
		rInternalError.At(500)},
}

var opAlertFeed = &apispec.Operation{ID: "alertFeed", Method: "GET", Path: "/alerts/feed",
	Summary:     "An alert's private Atom feed: the newest 50 circulars it matched, newest first.",
	Description: "For feed readers and Slack or Teams integrations; the token is the only key, so keep the URL private.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The feed (Atom 1.0).",
			Content: []apispec.Content{{MediaType: "application/atom+xml", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		{Status: 404, Description: "No alert has this token: it was renewed, or the alert deleted.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rInternalError.At(500)},
}

var opSubscribeAlert = &apispec.Operation{ID: "subscribeAlert", Method: "POST", Path: "/alerts/subscribe",
	Summary:     "Subscribe an e-mail address to a search, without an account (double opt-in).",
	Description: "The body: a valid email and the search (" + alertBodyNote + ") The address gets a confirmation link (valid 7 days); nothing else is sent before it is followed. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertSubscribeRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 202, Description: "Stored, waiting for confirmation.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[AlertSubscribeResponse]()}}},
		rBadBody.At(400),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var htmlPage = []apispec.Content{{MediaType: "text/html", Raw: map[string]any{"type": "string"}}}

var opConfirmAlertPage = &apispec.Operation{ID: "confirmAlertPage", Method: "GET", Path: "/alerts/confirm",
	Summary:     "The page a confirmation e-mail's link opens: one button that confirms.",
	Description: "Changes nothing (mail scanners open links); the button POSTs to the same URL.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The confirmation page.", Content: htmlPage},
		{Status: 400, Description: "The token is forged or expired: a page saying so.", Content: htmlPage}},
}

var opConfirmAlert = &apispec.Operation{ID: "confirmAlert", Method: "POST", Path: "/alerts/confirm",
	Summary: "Confirm an anonymous subscription; idempotent.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "Confirmed: a page saying so.", Content: htmlPage},
		{Status: 400, Description: "The token is forged or expired, or the subscription gone: a page saying so.", Content: htmlPage},
		rInternalError.At(500)},
}

var opAlertUnsubscribePage = &apispec.Operation{ID: "alertUnsubscribePage", Method: "GET", Path: "/alerts/unsubscribe",
	Summary:     "The page an alert e-mail's unsubscribe link opens: one button that stops that alert.",
	Description: "Changes nothing; the button POSTs to the same URL.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The page.", Content: htmlPage},
		{Status: 400, Description: "The token is not valid: a page saying so.", Content: htmlPage}},
}

var opAlertUnsubscribe = &apispec.Operation{ID: "alertUnsubscribe", Method: "POST", Path: "/alerts/unsubscribe",
	Summary:     "Stop one alert's e-mails, without signing in; idempotent.",
	Description: "The page's button gets a page saying it is done. A mail client's one-click request (RFC 8058: body List-Unsubscribe=One-Click) gets 200 JSON. Other alerts are not changed.",
	Body:        &apispec.Body{Content: []apispec.Content{{MediaType: "application/x-www-form-urlencoded", Raw: map[string]any{"properties": map[string]any{"List-Unsubscribe": map[string]any{"enum": []any{"One-Click"}, "type": "string"}}, "type": "object"}}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Stopped (or already): JSON for a one-click request, else a page.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[UnsubscribeResponse]()}, {MediaType: "text/html", Raw: map[string]any{"type": "string"}}}},
		{Status: 400, Description: "The token is not valid.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rInternalError.At(500)},
}

var rObligationNotFound = &apispec.Response{Component: "ObligationNotFound", Description: "Your register holds no obligation with that id: none has it, it binds no one, or it applies to none of your entity types.",
	Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}

var opCircularObligations = &apispec.Operation{ID: "circularObligations", Method: "GET", Path: "/circulars/{id}/obligations",
	Summary:     "A circular's obligations.",
	Description: "What the circular requires, of whom, by when, in its order: the ones its editors wrote (origin editor) or, when it has none, the ones the AI layer proposed and stored (origin extracted, labelled until an editor accepts them). sourceStart and sourceEnd are the UTF-16 offsets of the source sentence in the circular's content. A draft's obligations have binding false: they oblige no one yet.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The obligations (possibly none).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Obligation]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rNotFound.At(404),
		rInternalError.At(500)},
}

var opListObligations = &apispec.Operation{ID: "listObligations", Method: "GET", Path: "/obligations",
	Summary:     "Obligations of every circular.",
	Description: "Every obligation shown on the circulars' pages, by due date (undated last), then circular and position.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Obligation]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opExportObligationsCSV = &apispec.Operation{ID: "exportObligationsCSV", Method: "GET", Path: "/obligations.csv",
	Summary:     "Bulk download of obligations as CSV.",
	Description: "Every obligation the filters of GET /obligations select, in its order, as CSV with the circulars' download's rules (CRLF, a header row, spreadsheet-safe cells): id, circularId, circularSlug, circularTitle, source, appliesTo (space-separated), what, kind, dueDate, deadline, binding, origin, accepted, sourceText. The download is whole: limit and offset are refused (400).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The whole list, as a file.",
			Content: []apispec.Content{{MediaType: "text/csv", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hContentDisposition}},
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListRegister = &apispec.Operation{ID: "listRegister", Method: "GET", Path: "/user/obligations",
	Summary:     "The signed-in user's register: My obligations.",
	Description: "Every binding obligation applying to one of the user's entity types (their preference) or to all regulated entities, with the status and note the user set (todo and empty until set) and its due-date group as of today, by due date (undated last).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The page of the register.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]register.Item]()}}, Headers: []*apispec.Header{hLink, hXTotalCount}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opExportRegisterCSV = &apispec.Operation{ID: "exportRegisterCSV", Method: "GET", Path: "/user/obligations.csv",
	Summary:     "The signed-in user's register as CSV.",
	Description: "The register the filters of GET /user/obligations select, whole, as GET /obligations.csv writes obligations, with dueGroup, status, note and statusUpdatedAt after them.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The register, as a file.",
			Content: []apispec.Content{{MediaType: "text/csv", Raw: map[string]any{"type": "string"}}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opSetObligationStatus = &apispec.Operation{ID: "setObligationStatus", Method: "PUT", Path: "/user/obligations/{id}",
	Summary:     "Set the status and note of an obligation of your register.",
	Description: "status is one of todo, in-progress, done, not-applicable; note at most 2,000 characters (trimmed). The change is recorded, with its time, in the obligation's history. No one else reads or changes a user's statuses.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ObligationStatusRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved; the obligation as your register now holds it.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[register.Item]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rObligationNotFound.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opObligationHistory = &apispec.Operation{ID: "obligationHistory", Method: "GET", Path: "/user/obligations/{id}/history",
	Summary: "Your status changes of an obligation, oldest first.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The changes (possibly none).",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]register.Change]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rObligationNotFound.At(404),
		rInternalError.At(500)},
}

var opComplianceScore = &apispec.Operation{ID: "complianceScore", Method: "GET", Path: "/user/compliance-score",
	Summary:     "The signed-in user's compliance score.",
	Description: "The share of the obligations of the user's register, weighted by their circular's impact (high 3, medium 2, low 1), that the user marked done or not applicable, from 0 to 100; null when none applies.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The score.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[register.Score]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}
