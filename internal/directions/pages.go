package directions

import "regpulse/internal/catalog"

// What the directions' pages and e-mails share: their addresses (the
// generator writes the pages, the alerts' e-mails link to them) and the
// names of the kinds of change.

// ListPath is the list of Master Directions.
const ListPath = "/master-directions"

// Path is a direction's page.
func Path(slug string) string { return ListPath + "/" + slug }

// ComparePath compares a direction's text on from and to.
func ComparePath(slug string, from, to catalog.Date) string {
	return Path(slug) + "/compare/" + from.String() + "/" + to.String()
}

// KindLabels name the kinds of change as pages and e-mails show them:
// the words of RBI's amendments.
var KindLabels = map[string]string{Added: "Inserted", Removed: "Deleted", Changed: "Substituted", Renumbered: "Renumbered"}

// Label names ch's kind, a renumbered provision's substitution included.
func Label(ch Change) string {
	if ch.Kind == Changed && ch.Was != "" {
		return "Renumbered and substituted"
	}
	return KindLabels[ch.Kind]
}
