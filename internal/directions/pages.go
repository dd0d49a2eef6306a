package directions

// What the directions' pages and e-mails share besides their addresses
// (catalog.DirectionPath and the others): the names of the kinds of
// change.

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
