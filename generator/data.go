package generator

import "regpulse/internal/catalog"

// templateData is what templates read as hugo.Data.site. Keys are kept as
// written (Hugo does not lower-case data files), so templates use the
// catalog's JSON field names of SPEC.md section 3.
func templateData(cat *catalog.Catalog, assets *Assets, opts Options) map[string]any {
	circulars := map[string]catalog.Circular{}
	for _, c := range cat.Circulars {
		circulars[c.Slug] = c
	}
	networks := map[string]catalog.Network{}
	for _, n := range cat.Networks {
		networks[n.Slug] = n
	}
	bodies := map[string]catalog.PaymentBody{}
	for _, b := range cat.Bodies {
		bodies[b.Slug] = b
	}
	events := map[string]catalog.Event{}
	for _, e := range cat.Events {
		events[e.Slug] = e
	}
	return map[string]any{
		"events":       events,
		"assets":       assets,
		"catalog":      cat,
		"circulars":    circulars,
		"networks":     networks,
		"bodies":       bodies,
		"supportEmail": opts.SupportEmail,
	}
}
