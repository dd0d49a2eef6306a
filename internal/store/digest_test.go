package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/newsletter"
	"regpulse/internal/store/storetest"
)

// TestDigestContent: a digest made from the store (a scheduled function,
// no content folder) selects what one made from the content does, the
// catalog's events aside (not stored), for a month with circulars, news
// and effective dates ahead, and for one with none.
func TestDigestContent(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := storetest.Catalog()
		db := openSynced(t, open, cat)
		for _, m := range []string{"2025-06", "2025-05", "1999-01"} {
			month, _ := newsletter.ParseMonth(m)
			c, err := db.DigestContent(ctx, month)
			if err != nil {
				t.Fatal(err)
			}
			got, want := issueSlugs(newsletter.NewIssueFromList(c, month)), issueSlugs(newsletter.NewIssue(cat, month))
			delete(want, "events")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: issue from the store (-content +store):\n%s", m, diff)
			}
			if m == "2025-06" && len(got["circulars"]) == 0 {
				t.Errorf("%s: no circulars: the test checks nothing", m)
			}
		}
	})
}

// issueSlugs names what an issue holds, section by section.
func issueSlugs(is newsletter.Issue) map[string][]string {
	out := map[string][]string{}
	add := func(k, v string) { out[k] = append(out[k], v) }
	for _, c := range is.Circulars {
		add("circulars", c.Slug)
	}
	for _, c := range is.Effective {
		add("effective", c.Slug)
	}
	for _, n := range is.News {
		add("news", n.Slug)
	}
	for _, s := range is.Sibos {
		add("sibos", s.Title)
	}
	for _, e := range is.Events {
		add("events", e.Name)
	}
	return out
}
