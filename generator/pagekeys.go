package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// circularPageData are the keys of the templates' data (templateData) a
// circular's page may read, besides the views of the circulars it shows.
// The other keys (every circular, the bodies' lists, the dashboard, the
// impact tracker, the directories) change with content a circular's page
// does not show, so an edit renders again only the pages that show what
// changed. TestCircularPageReads holds the templates to this list.
var circularPageData = []string{"assets", "bodyEntries", "calendar", "documentTypes", "entityTypes", "events",
	"feeds", "newsletterTopics", "supportEmail", "verifications"}

// circularPagePath is the output file of a circular's page.
func circularPagePath(slug string) string { return "circulars/" + slug + "/index.html" }

// circularPageKeys is, by output path, the hash of everything each
// circular's page is rendered from: the program, the options, the
// templates and assets, the data of circularPageData, the circular's view
// and text, and the views of the circulars the page shows (the ones it
// replaces and is replaced by, its related circulars, and those replacing
// them, whose titles the related cards name).
func circularPageKeys(opts Options, data map[string]any, views []circularView, txt texts) (map[string]string, error) {
	h := sha256.New()
	prog, err := programHash()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(h, "program %s\nbaseURL %q\nsupportEmail %q\nunpublished %t\n", prog, opts.BaseURL, opts.SupportEmail, opts.IncludeUnpublished)
	for _, d := range []string{opts.TemplatesDir, opts.AssetsDir} {
		fmt.Fprintf(h, "dir %s\n", d)
		if err := hashDir(h, d); err != nil {
			return nil, err
		}
	}
	for _, k := range circularPageData {
		v, ok := data[k]
		if !ok {
			return nil, fmt.Errorf("circularPageData: the templates' data has no %q", k)
		}
		j, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "data %s %d\n%s\n", k, len(j), j)
	}
	shared := h.Sum(nil)

	// A page shows another circular as a card, which names nothing of
	// that circular's own related circulars: those are left out of its
	// key, or a circular added anywhere would render again every page
	// showing a card whose related list moved.
	encoded := make(map[string][]byte, len(views))
	card := make(map[string][]byte, len(views))
	byslug := make(map[string]*circularView, len(views))
	for i := range views {
		j, err := json.Marshal(views[i])
		if err != nil {
			return nil, err
		}
		c := views[i]
		c.Related = nil
		cj, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		encoded[views[i].Slug], card[views[i].Slug] = j, cj
		byslug[views[i].Slug] = &views[i]
	}
	keys := make(map[string]string, len(views))
	for _, v := range views {
		shown := slices.Concat([]string(v.Supersedes), []string(v.SupersededBy), v.Related)
		for _, r := range v.Related {
			if rv := byslug[r]; rv != nil {
				shown = append(shown, rv.SupersededBy...)
			}
		}
		slices.Sort(shown)
		h.Reset()
		h.Write(shared)
		obs, err := json.Marshal(txt[v.Slug].Obligations)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "view %d\n%s\ntext %d\n%s\nobligations %s\n", len(encoded[v.Slug]), encoded[v.Slug], len(txt[v.Slug].Marked), txt[v.Slug].Marked, obs)
		for _, s := range slices.Compact(shown) {
			fmt.Fprintf(h, "shows %s %d\n%s\n", s, len(card[s]), card[s])
		}
		keys[circularPagePath(v.Slug)] = hex.EncodeToString(h.Sum(nil))
	}
	return keys, nil
}
