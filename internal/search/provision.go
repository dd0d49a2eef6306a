package search

import (
	"regpulse/internal/catalog"
)

// ProvisionHit is a Master Direction's provision in force today that a
// search found: the provision (its paragraph id, heading and text as in
// force), the direction it belongs to, the day this text took effect and
// the provision's place on the direction's page. Only provisions in force
// are searched: a replaced or withdrawn direction's, or a text a later
// version replaced or has yet to bring into force, is not an answer.
type ProvisionHit struct {
	catalog.Provision
	// Direction is the direction's slug; DirectionTitle its short title
	// (or title), what a citation names.
	Direction      string `json:"direction"`
	DirectionTitle string `json:"directionTitle"`
	Source         string `json:"source" enum:"Source"`
	// InForceFrom is the day the provision's text took effect.
	InForceFrom catalog.Date `json:"inForceFrom"`
	// URL is the provision on the direction's page (its anchor).
	URL string `json:"url"`
	// Highlights are the matched words of Text.
	Highlights catalog.List[Span] `json:"highlights"`
}

// ProvisionResults is how many provisions a search's answer lists.
const ProvisionResults = 3

// ProvisionURL is the address of provision id on the page of the
// direction with slug (the generator's anchor, catalog.ProvisionAnchor).
func ProvisionURL(slug, id string) string {
	return catalog.DirectionPath(slug) + "/#" + catalog.ProvisionAnchor(id)
}
