package catalog

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// The schema is what the decoders read, with their types, required-ness,
// enumerations, defaults, bounds and nested fields; recording it leaves
// no problem behind and changes nothing the loader accepts (the loader's
// own tests).
func TestSchema(t *testing.T) {
	schema := Schema(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	var names []string
	byName := map[string]KindSchema{}
	for _, k := range schema {
		names = append(names, k.Name)
		byName[k.Name] = k
		if len(k.Fields) == 0 {
			t.Errorf("%s: no fields", k.Name)
		}
	}
	if want := append(Kinds(), DirectionsFolder, DirectionVersionsKind); !slices.Equal(names, want) {
		t.Errorf("kinds = %q, want %q", names, want)
	}
	field := func(kind, name string) string {
		for _, f := range byName[kind].Fields {
			if f.Name == name {
				return f.String()
			}
		}
		return "(none)"
	}
	for _, tc := range []struct{ kind, field, want string }{
		{"circulars", "id", "id text"},
		{"circulars", "published", "published boolean default=true"},
		{"circulars", "publishedDate", "publishedDate date required"},
		{"circulars", "source", "source text required (" + strings.Join(Sources, "|") + ")"},
		{"circulars", "entityImpact", "entityImpact map required (PSP|Issuer|Aggregator) {PSP text (high|medium|low); Issuer text (high|medium|low); Aggregator text (high|medium|low)}"},
		{"circulars", "complianceDates", "complianceDates list {date date required; what text required}"},
		{"circulars", "withdrawn", "withdrawn object {date date required; by text; rulesNowIn list}"},
		{"circulars", "obligations", "obligations list {appliesTo list required (PSP|Issuer|Aggregator|all); what text required; kind text required (" +
			strings.Join(ObligationKinds, "|") + "); deadline text; source text required; cites object {direction text required; provisions list; reviewedOn date}}"},
		{"circulars", "officialUrl", "officialUrl link"},
		{"companies", "leaderIsCeo", "leaderIsCeo boolean default=true"},
		{"events", "editions", "editions list {year number required; startDate date; endDate date; location text; status text required (upcoming|ongoing|completed); sourceUrl link required}"},
		{"ads", "targetUrl", "targetUrl target required"},
		{"networks", "guidelinesAsOf", "guidelinesAsOf date required"},
		{DirectionsFolder, "appliesTo", "appliesTo list required (PSP|Issuer|Aggregator)"},
		{DirectionsFolder, "provisions", "provisions list required {id text required; chapter text; heading text; text text required; wording text required (official|digest)}"},
		{DirectionVersionsKind, "changesKnown", "changesKnown boolean default=true"},
		{DirectionVersionsKind, "source", "source object {url link required; sha256 text required; fetched date required}"},
	} {
		if got := field(tc.kind, tc.field); got != tc.want {
			t.Errorf("%s.%s = %s\nwant %s", tc.kind, tc.field, got, tc.want)
		}
	}
	for kind, want := range map[string]BodyUse{"circulars": BodyRequired, "networks": BodyOptional, "companies": BodyNone,
		DirectionsFolder: BodyOptional, DirectionVersionsKind: BodyRequired} {
		if got := byName[kind].Body; got != want {
			t.Errorf("%s: body %d, want %d", kind, got, want)
		}
	}
	var founded Field
	for _, f := range byName["companies"].Fields {
		if f.Name == "founded" {
			founded = f
		}
	}
	if founded.Min == nil || *founded.Min != 1600 || founded.Max == nil || *founded.Max != 2026 {
		t.Errorf("companies.founded bounds = %v, %v; want 1600 to this year", founded.Min, founded.Max)
	}
}
