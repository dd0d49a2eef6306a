package generator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regpulse/generator/render"
	"regpulse/internal/i18n"
	"slices"
	"strings"
)

// circularPageData are the keys of the templates' data (templateData) a
// circular's page may read, besides the views of the circulars it shows.
// The other keys (every circular, the bodies' lists, the dashboard, the
// impact tracker, the directories) change with content a circular's page
// does not show, so an edit renders again only the pages that show what
// changed. TestPageReads holds the templates to this list.
var circularPageData = []string{"assets", "bodyEntries", "calendar", "categories", "documentTypes", "entityTypes", "events",
	"feeds", "newsletterTopics", "supportEmail", "teamWork", "verifications"}

// listPageData are, by layout, the keys of the templates' data the lists'
// further pages read (circulars.html, search.html, news.html,
// payment-body.html past page 1, with the shell), besides the views of the
// circulars they show. TestPageReads holds the templates to them; the
// pages' keys (listPageKeys) hash a layout's keys only, so that an edit
// elsewhere (a news item, for the circulars' lists) renders none again.
var listPageData = map[string][]string{
	"consultations": {"assets", "bodyEntries", "calendar", "categories", "documentTypes", "events", "feeds", "freshness", "newsletterTopics", "supportEmail", "verifications"},
	"circulars":     {"assets", "bodyEntries", "calendar", "categories", "circularLists", "documentTypes", "enums", "events", "feeds", "freshness", "listPageSize", "newsletterTopics", "supportEmail", "verifications"},
	"search":        {"assets", "bodyEntries", "calendar", "categories", "documentTypes", "enums", "events", "fallbackIndex", "feeds", "freshness", "listPageSize", "news", "newsletterTopics", "search", "supportEmail", "verifications"},
	"news":          {"assets", "bodyEntries", "calendar", "categories", "enums", "events", "feeds", "freshness", "listPageSize", "news", "newsletterTopics", "supportEmail"},
	"impact-list":   {"assets", "bodyEntries", "calendar", "categories", "documentTypes", "events", "feeds", "freshness", "impactRule", "newsletterTopics", "supportEmail", "verifications"},
	"payment-body":  {"assets", "bodies", "bodyEntries", "calendar", "categories", "documentTypes", "enums", "events", "feeds", "freshness", "listPageSize", "newsletterTopics", "supportEmail", "verifications"},
}

// listRunData are the keys a run of list pages has: every layout's.
func listRunData() []string {
	var out []string
	for _, keys := range listPageData {
		out = append(out, keys...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// circularPagePath is the output file of a circular's page.
func circularPagePath(slug string) string { return "circulars/" + slug + "/index.html" }

// circularPageKeys is, by output path, the hash of everything each
// circular's page is rendered from: the program, the options, the
// templates and assets, the data of circularPageData, the circular's view
// and text, and the views of the circulars the page shows (the ones it
// replaces and is replaced by, its related circulars, and those replacing
// them, whose titles the related cards name). Each page's is made on
// every core (render.InBatches): at 100,000 circulars, one after another, they
// were seconds of the build.
func circularPageKeys(ctx context.Context, opts Options, data map[string]any, views render.Views, cards map[string][sha256.Size]byte, txt texts, shown map[string][]string) (map[string]string, error) {
	shared, err := sharedKey(opts, data, circularPageData)
	if err != nil {
		return nil, err
	}
	// A page shows another circular as a card, which names nothing of
	// that circular's own related circulars: those are left out of its
	// key, or a circular added anywhere would render again every page
	// showing a card whose related list moved (cards: cardSums).
	sums := make([]string, len(views.JSON))
	err = render.InBatches(ctx, len(views.JSON), 1024, func(i int) error {
		j, slug := views.JSON[i], views.Keys[i]
		h := sha256.New()
		h.Write(shared)
		fromDraft, err := json.Marshal(txt[slug].FromDraft)
		if err != nil {
			return err
		}
		// the view is its card's hash (its JSON up to its related
		// circulars: cardSums) and the rest of its JSON, so that no view
		// is hashed twice, and written as it is, not through fmt's buffer
		cut, err := relatedCut(slug, j)
		if err != nil {
			return err
		}
		related := j[cut:]
		fmt.Fprintf(h, "card %x\nrelated %d\n", cards[slug], len(related))
		h.Write(related)
		fmt.Fprintf(h, "\ntext %x\nobligations %x\n", txt[slug].MarkedSum, txt[slug].ObligationsSum)
		fmt.Fprintf(h, "\nfrom draft %d\n", len(fromDraft))
		h.Write(fromDraft)
		var line []byte
		for _, s := range shown[slug] {
			line = cardLine(line[:0], "shows ", s, cards[s])
			h.Write(line)
		}
		sums[i] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make(map[string]string, len(views.JSON))
	for i, slug := range views.Keys {
		// a copy in another language is rendered from the same inputs
		// (the catalogue is the program's: ProgramHash)
		keys[circularPagePath(slug)] = sums[i]
		for _, lang := range i18n.Languages[1:] {
			keys[lang.Code+"/"+circularPagePath(slug)] = sums[i]
		}
	}
	return keys, nil
}

// sharedKey hashes what every page of a kind is rendered from: the
// program, the options, the templates and assets, and the data's keys
// the pages read.
func sharedKey(opts Options, data map[string]any, keys []string) ([]byte, error) {
	h := sha256.New()
	prog, err := render.ProgramHash()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(h, "program %s\nbaseURL %q\nsupportEmail %q\nunpublished %t\n", prog, opts.BaseURL, opts.SupportEmail, opts.IncludeUnpublished)
	for _, d := range []string{opts.TemplatesDir, opts.AssetsDir} {
		fmt.Fprintf(h, "dir %s\n", d)
		if err := render.HashDir(h, d); err != nil {
			return nil, err
		}
	}
	for _, k := range keys {
		v, ok := data[k]
		if !ok {
			return nil, fmt.Errorf("page keys: the templates' data has no %q", k)
		}
		j, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "data %s %d\n%s\n", k, len(j), j)
	}
	return h.Sum(nil), nil
}

// keyedByContent says whether a page's key (listPageKeys) is made from
// its own content: a list page's, or a Master Direction's.
func keyedByContent(p render.Page) bool { return p.Group == groupList || p.Group == groupDirection }

// listPageKeys is, by output path, the hash of everything each list page
// (groupList) is rendered from: what sharedKey hashes for listPageData,
// the page's front matter (its pager), and the cards it shows with the
// circulars replacing theirs. An edited circular renders again only the
// list pages that show it. A Master Direction's pages (groupDirection)
// are keyed so too, by what sharedKey hashes for circularPageData (their
// runs' data) and their front matter, which holds all they show: an
// edited circular renders none of them again. The pages are encoded on
// the way.
func listPageKeys(ctx context.Context, opts Options, data map[string]any, views render.Views, cards map[string][sha256.Size]byte, pages []render.Page) (map[string]string, error) {
	shared := map[string][]byte{}
	for layout, keys := range listPageData {
		var err error
		if shared[layout], err = sharedKey(opts, data, keys); err != nil {
			return nil, err
		}
	}
	directionShared, err := sharedKey(opts, data, circularPageData)
	if err != nil {
		return nil, err
	}
	index := views.Index()
	var lists []int
	for i := range pages {
		if keyedByContent(pages[i]) {
			lists = append(lists, i)
		}
	}
	// on every core: at 100,000 circulars some 30,000 pages of 20 cards
	sums := make([]string, len(lists))
	err = render.InBatches(ctx, len(lists), 256, func(i int) error {
		p := &pages[lists[i]]
		if err := p.Encode(); err != nil {
			return err
		}
		sh := shared[p.Layout]
		if p.Group == groupDirection {
			sh = directionShared
		}
		if sh == nil {
			return fmt.Errorf("page keys: %s: no listPageData for layout %q", p.File, p.Layout)
		}
		h := sha256.New()
		h.Write(sh)
		fmt.Fprintf(h, "content %d\n%s\n", len(p.Content), p.Content)
		var line []byte
		for _, s := range p.Shows {
			line = cardLine(line[:0], "shows ", s, cards[s])
			if i, ok := index[s]; ok {
				for _, r := range views.With[i] {
					line = cardLine(line, "replaced by ", r, cards[r])
				}
			}
			h.Write(line)
		}
		sums[i] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make(map[string]string, len(lists))
	for i, at := range lists {
		keys[listPagePath(pages[at])] = sums[i]
	}
	return keys, nil
}

// cardLine appends to line what a page's key hashes of a card it shows:
// how it shows it (what), its slug and its sum (cardSums), as
// fmt's "%s%s %x\n" would, without fmt's buffers (some 600,000 cards
// at 100,000 circulars).
func cardLine(line []byte, what, slug string, sum [sha256.Size]byte) []byte {
	line = append(append(append(line, what...), slug...), ' ')
	return append(hex.AppendEncode(line, sum[:]), '\n')
}

// listPagePath is the output file of a list page (its front's url), once
// encoded.
func listPagePath(p render.Page) string {
	return strings.TrimPrefix(p.URL, "/") + "index.html"
}

// cardSums are, by slug, the hashes of the circulars as cards show them:
// each view's JSON up to its related circulars, which cards do not show
// (circularView's last field), made once for both kinds of page keys
// from the views as encoded (a second encoding without them was some 300
// MB at 100,000 circulars).
func cardSums(ctx context.Context, views render.Views) (map[string][sha256.Size]byte, error) {
	sums := make([][sha256.Size]byte, len(views.JSON))
	err := render.InBatches(ctx, len(views.JSON), 1024, func(i int) error {
		cut, err := relatedCut(views.Keys[i], views.JSON[i])
		if err != nil {
			return err
		}
		sums[i] = sha256.Sum256(views.JSON[i][:cut])
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string][sha256.Size]byte, len(views.Keys))
	for i, slug := range views.Keys {
		out[slug] = sums[i]
	}
	return out, nil
}

// relatedCut is where the related circulars begin in j, slug's view as
// JSON (relatedField): a card's part is before it.
func relatedCut(slug string, j []byte) (int, error) {
	cut := bytes.LastIndex(j, relatedField)
	if cut < 0 {
		return 0, fmt.Errorf("page keys: the view of %s has no %s", slug, relatedField)
	}
	return cut, nil
}

// relatedField begins a view's related circulars in its JSON (a slug's
// quotes would be escaped: only the key matches).
var relatedField = []byte(`,"related":`)

// allShows are, by slug, the other circulars each circular's page shows.
func allShows(views []circularView) map[string][]string {
	byslug := make(map[string]*circularView, len(views))
	for i := range views {
		byslug[views[i].Slug] = &views[i]
	}
	out := make(map[string][]string, len(views))
	for _, v := range views {
		out[v.Slug] = circularShows(v, byslug)
	}
	return out
}

// circularShows are the other circulars a circular's page shows, sorted:
// those it replaces and is replaced by, its related circulars, and those
// replacing them, whose titles the related cards name.
func circularShows(v circularView, byslug map[string]*circularView) []string {
	shown := slices.Concat([]string(v.Supersedes), []string(v.SupersededBy), []string(v.WithdrawnBy), v.Withdraws, v.Related,
		[]string(v.FinalisedBy))
	if v.FinalOf != "" {
		shown = append(shown, string(v.FinalOf))
	}
	for _, r := range v.Related {
		if rv := byslug[r]; rv != nil {
			shown = append(shown, rv.SupersededBy...)
		}
	}
	slices.Sort(shown)
	return slices.Compact(shown)
}

// siteShows are the circulars the site's own pages show beyond their
// lists' items: the dashboard's first screen. (The impact tracker's
// cards carry their entries whole.)
func siteShows(data map[string]any) []string {
	return slices.Clone(data["dashboard"].(map[string]dashboardView)[i18n.English.Code].Circulars)
}

// encodeViews encodes the circulars' views for Hugo's runs: each keyed by
// its slug, with the circulars replacing it (superseded-note.html names
// them).
func encodeViews(ctx context.Context, views []circularView) (render.Views, error) {
	return render.EncodeViews(ctx, views, func(v *circularView) (string, []string) { return v.Slug, v.SupersededBy })
}
