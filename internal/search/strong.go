package search

// Strong reports whether the search ranks d in its first two tiers for p:
// d's number holds the typed number as a phrase (TierNumber), or every
// term has one of its keys in d's number, title or summary (TierStrong).
// Alerts hold a query to this threshold, so an alert never sends a
// circular that merely mentions a word in its text.
func Strong(p Plan, d Document) bool {
	if len(p.Number) > 0 && holdsKeys(d, d.Columns[ColumnNumber], p.Number) {
		return true
	}
	if len(p.Terms) == 0 {
		return false
	}
	strong := make(map[string]bool, 64)
	for _, col := range d.Columns[:ColumnContent] {
		for _, place := range col {
			strong[d.Keys[place]] = true
		}
	}
	for _, t := range p.Terms {
		found := false
		for _, k := range t.Keys {
			if strong[k] {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// holdsKeys reports whether the column's words hold phrase, in order.
func holdsKeys(d Document, col []int32, phrase []string) bool {
	for start := 0; start+len(phrase) <= len(col); start++ {
		i := 0
		for i < len(phrase) && d.Keys[col[start+i]] == phrase[i] {
			i++
		}
		if i == len(phrase) {
			return true
		}
	}
	return false
}
