package generator

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeConsultations adds to content project-made drafts, papers and a
// final instrument (fixtures, not regulators' documents), as of
// fixtureNow (2021-03-01): two papers open (deadlines 2021-04-30 and
// 2021-03-20), a draft closed (deadline past) and finalised, a paper
// without a deadline, and a circular that is none of them.
func writeConsultations(t *testing.T, content string) {
	t.Helper()
	file := func(slug, date, docType, extra, body string) {
		text := "---\ntitle: Fixture " + slug + "\nsource: RBI\ncategory: Payment Systems\npublishedDate: " + date +
			"\ndocumentType: " + docType + "\nimpactLevel: medium\nentityImpact:\n  PSP: medium\nsourceUrl: https://example.org/" + slug +
			"\nsourceKind: report\n" + extra + "---\n\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(content, "circulars", slug+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file("rbi-2021-01-05-late-paper", "2021-01-05", "consultation-paper", "commentsDue: 2021-04-30\n", "A paper open until April.")
	file("rbi-2021-02-10-soon-paper", "2021-02-10", "discussion-paper", "commentsDue: 2021-03-20\n", "A paper open until March.")
	file("rbi-2020-11-02-wallet-draft", "2020-11-02", "draft", "commentsDue: 2020-12-01\n",
		"Wallets shall hold a balance of at most ten thousand rupees.\n\nIssuers shall report monthly.")
	file("rbi-2021-02-01-wallet-final", "2021-02-01", "direction", "finalOf: rbi-2020-11-02-wallet-draft\n",
		"Wallets shall hold a balance of at most twenty thousand rupees.\n\nIssuers shall report monthly.")
	file("rbi-2020-12-15-undated-paper", "2020-12-15", "discussion-paper", "", "A paper with no deadline stated.")
}

func TestConsultations(t *testing.T) {
	content := copyTree(t, fixtureContent)
	writeConsultations(t, content)
	out, _ := buildSiteAt(t, content, templatesDir, fixtureNow)

	page := parseFile(t, filepath.Join(out, "consultations", "index.html"))
	var order []string
	open := map[string]string{}
	for _, n := range findAll(page, "data-consultation", "*") {
		slug, _ := attr(n, "data-consultation")
		order = append(order, slug)
		open[slug], _ = attr(n, "data-open")
	}
	// Open first, soonest deadline first; then closed, newest first.
	want := []string{"rbi-2021-02-10-soon-paper", "rbi-2021-01-05-late-paper", "rbi-2020-12-15-undated-paper", "rbi-2020-11-02-wallet-draft"}
	if d := cmp.Diff(want, order); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
	if open["rbi-2021-02-10-soon-paper"] != "true" || open["rbi-2020-11-02-wallet-draft"] != "false" || open["rbi-2020-12-15-undated-paper"] != "false" {
		t.Errorf("open: %v", open)
	}
	var groups []string
	for _, n := range findAll(page, "data-consultation-group", "*") {
		groups = append(groups, text(n))
	}
	if d := cmp.Diff([]string{"Open for comments", "Closed"}, groups); d != "" {
		t.Errorf("group headings (-want +got):\n%s", d)
	}
	soon := find(t, page, "data-consultation", "rbi-2021-02-10-soon-paper")
	if got := text(find(t, soon, "data-deadline", "*")); got != "Comments due 20 March 2021" {
		t.Errorf("the open paper's deadline: %q", got)
	}
	draft := find(t, page, "data-consultation", "rbi-2020-11-02-wallet-draft")
	if got := text(find(t, draft, "data-deadline", "*")); got != "Comments were due 1 December 2020" {
		t.Errorf("the closed draft's deadline: %q", got)
	}
	final := find(t, draft, "data-final", "*")
	if len(findAll(final, "href", "/circulars/rbi-2021-02-01-wallet-final")) != 1 || !strings.Contains(text(final), "Fixture rbi-2021-02-01-wallet-final") {
		t.Errorf("the draft's final: %q", text(final))
	}
	if text(find(t, find(t, page, "data-consultation", "rbi-2020-12-15-undated-paper"), "data-deadline", "*")) != "No comment deadline stated" {
		t.Error("a paper without a deadline does not say so")
	}

	// The final's page: its draft and the words changed; the draft's: its final.
	fp := parseFile(t, filepath.Join(out, "circulars", "rbi-2021-02-01-wallet-final", "index.html"))
	sec := find(t, fp, "data-from-draft", "*")
	if len(findAll(sec, "href", "/circulars/rbi-2020-11-02-wallet-draft")) != 1 {
		t.Error("the final's page does not link its draft")
	}
	var ins, del []string
	for _, n := range findAll(sec, "data-redline", "insert") {
		ins = append(ins, text(n))
	}
	for _, n := range findAll(sec, "data-redline", "delete") {
		del = append(del, text(n))
	}
	if !slices.Equal(ins, []string{"[inserted: twenty]"}) || !slices.Equal(del, []string{"[deleted: ten]"}) {
		t.Errorf("redline: inserted %q, deleted %q", ins, del)
	}
	if !strings.Contains(text(sec), "1 word put in, 1 struck out") {
		t.Errorf("counts: %q", text(sec))
	}
	dp := parseFile(t, filepath.Join(out, "circulars", "rbi-2020-11-02-wallet-draft", "index.html"))
	by := find(t, dp, "data-finalised-by", "*")
	if len(findAll(by, "href", "/circulars/rbi-2021-02-01-wallet-final#from-draft-heading")) != 1 {
		t.Errorf("the draft's page does not link what changed: %q", text(by))
	}
	if got := text(find(t, dp, "data-comments-due", "*")); got != "Comments due1 December 2020 (closed)" {
		t.Errorf("the draft's deadline: %q", got)
	}

	// Linked from the circulars and the sidebar; in the sitemap.
	circulars := readOut(t, out, "circulars/index.html")
	if !strings.Contains(circulars, `href="/consultations" data-consultations-link`) || !strings.Contains(circulars, `href="/consultations"`) {
		t.Error("/circulars does not link /consultations")
	}
	if !strings.Contains(readOut(t, out, "sitemaps/1.xml"), "/consultations</loc>") {
		t.Error("the sitemap lacks /consultations")
	}

	// The calendar: each deadline in the window, a Consultation.
	ics := readOut(t, out, "feeds/compliance.ics")
	for _, slug := range []string{"rbi-2021-02-10-soon-paper", "rbi-2021-01-05-late-paper", "rbi-2020-11-02-wallet-draft"} {
		if !strings.Contains(ics, "circulars/"+slug) {
			t.Errorf("the calendar lacks %s's deadline", slug)
		}
	}
	if !strings.Contains(ics, "CATEGORIES:Consultation") || !strings.Contains(ics, "SUMMARY:RBI: Comments due — Fixture rbi-2021-02-10-soon-paper") {
		t.Errorf("the calendar's consultation events:\n%s", ics)
	}
}
