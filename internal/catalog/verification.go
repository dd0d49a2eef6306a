package catalog

import "slices"

// deriveVerification gives a circular whose front matter states no
// verification the one its links allow, so that no entry reads "not
// stated" where a reader would take it for "checked":
//
//   - a link on the regulator's own site (officialUrl, or a source of
//     kind official) and no stated check: pending, the document
//     identified and not yet read;
//   - only reports and unofficial copies: reported.
//
// Only an editor can say checked: nothing in a link shows that its text
// was read against the summary. A circular whose source link says not
// what it is (no sourceKind, and not the official link) allows neither,
// and is refused: saying reported of a link nobody labelled would be a
// guess. Unpublished files (regpulse ingest's drafts) are lax: what they
// lack is listed as pending, not refused.
func (l *loader) deriveVerification(f *fields, c *Circular) {
	if c.Verification != "" || f.node("verification", false) != nil {
		return // stated (a wrong value is its own problem)
	}
	c.VerificationDerived = true
	if slices.ContainsFunc(c.Links, func(l SourceLink) bool { return l.Kind == "official" }) {
		c.Verification = "pending"
		return
	}
	if c.SourceKind == "" && c.SourceURL != "" && f.node("sourceKind", false) == nil {
		c.VerificationDerived = false
		f.addMissing(f.keyLines["sourceUrl"], "verification",
			"not stated, and sourceUrl says not what it is: state verification (checked, reported or pending), or sourceKind (report or unofficial) to derive it")
		return
	}
	c.Verification = "reported"
}
