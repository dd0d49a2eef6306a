package alerts

import (
	"slices"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// Index holds every alert so that each new circular is matched once
// against all of them, rather than each alert's search being run: an
// alert with a query is filed under one key of its terms (the longest,
// the likeliest to be rare), so a circular looks only at the alerts
// filed under the keys of its number, title and summary; an alert
// without one is filed under each source it names, or with those for
// any source. Only the alerts found so are checked in full.
type Index struct {
	alerts    []Alert
	plans     []search.Plan
	byKey     map[string][]int32
	bySource  map[string][]int32
	anySource []int32
}

// NewIndex indexes alerts (each enabled and confirmed: the store gives
// only those).
func NewIndex(alerts []Alert) *Index {
	x := &Index{alerts: alerts, plans: make([]search.Plan, len(alerts)),
		byKey: map[string][]int32{}, bySource: map[string][]int32{}}
	for i := range alerts {
		a := &alerts[i]
		if a.Query != "" {
			p, err := search.PlanText(a.Query)
			if err == nil && len(p.Terms) > 0 {
				x.plans[i] = p
				key := ""
				for _, t := range p.Terms {
					for _, k := range t.Keys {
						if len(k) > len(key) {
							key = k
						}
					}
				}
				x.byKey[key] = append(x.byKey[key], int32(i))
				continue
			}
		}
		if len(a.Sources) == 0 {
			x.anySource = append(x.anySource, int32(i))
		}
		for _, s := range a.Sources {
			x.bySource[s] = append(x.bySource[s], int32(i))
		}
	}
	return x
}

// Len is how many alerts the index holds.
func (x *Index) Len() int { return len(x.alerts) }

// Match calls found with every alert that arr matches: the alert existed
// when the circular arrived, its filters pass and, for a query, the
// search ranks the circular among its strong matches. summary is the
// summary the circular is shown with.
func (x *Index) Match(arr Arrival, summary string, found func(a *Alert)) {
	c := arr.Circular
	check := func(i int32) {
		if a := &x.alerts[i]; !arr.At.Before(a.CreatedAt) && a.Passes(c) {
			found(a)
		}
	}
	for _, i := range x.bySource[c.Source] {
		check(i)
	}
	for _, i := range x.anySource {
		check(i)
	}
	if len(x.byKey) == 0 {
		return
	}
	// The keys of the strong columns only: the text is never a strong match.
	c2 := c
	c2.Content = ""
	d := search.Index(c2, summary)
	seen := map[string]bool{}
	for _, col := range d.Columns[:search.ColumnContent] {
		for _, place := range col {
			k := d.Keys[place]
			if seen[k] {
				continue
			}
			seen[k] = true
			for _, i := range x.byKey[k] {
				a := &x.alerts[i]
				if arr.At.Before(a.CreatedAt) || !a.Passes(c) || !search.Strong(x.plans[i], d) {
					continue
				}
				found(a)
			}
		}
	}
}

// MatchAll matches every arrival and returns the pairs, in arrival order
// and, within one, the alerts' order.
func (x *Index) MatchAll(arrivals []Arrival, summary func(catalog.Circular) string) []Match {
	var out []Match
	for _, arr := range arrivals {
		start := len(out)
		x.Match(arr, summary(arr.Circular), func(a *Alert) {
			out = append(out, Match{AlertID: a.ID, CircularID: arr.Circular.ID})
		})
		// An alert is found once per circular (filed once), but keep the
		// guarantee explicit.
		seg := out[start:]
		slices.SortFunc(seg, func(a, b Match) int { return strings.Compare(a.AlertID, b.AlertID) })
		out = append(out[:start], slices.CompactFunc(seg, func(a, b Match) bool { return a.AlertID == b.AlertID })...)
	}
	return out
}
