package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// withLinkedCirculars is the fixture content plus an amendment that
// supersedes the payment aggregator guidelines and carries a compliance
// date, and a draft for comments known only from reports (both made up
// for the test).
func withLinkedCirculars(t *testing.T) string {
	t.Helper()
	content := copyTree(t, fixtureContent)
	for name, text := range map[string]string{
		"rbi-2021-01-15-pa-amendment.md": "---\ncircularNumber: RBI/2020-21/77\ntitle: Payment aggregators amended\nsource: RBI\ncategory: Payment Systems\n" +
			"publishedDate: 2021-01-15\neffectiveDate: 2021-02-01\ndocumentType: amendment\ncomplianceDates:\n  - {date: 2021-06-30, what: Apply for authorisation}\n" +
			"supersedes:\n  - rbi-2020-03-17-pa-guidelines\nimpactLevel: high\nentityImpact:\n  Aggregator: high\nsourceUrl: https://example.org/pa-amendment\nsourceKind: report\n" +
			"officialUrl: https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=77\nverification: checked\n---\n\nThe amended rules.\n",
		"rbi-2021-02-20-draft-fraud.md": "---\ntitle: Draft fraud rules\nsource: RBI\ncategory: Security\npublishedDate: 2021-02-20\ndocumentType: draft\n" +
			"commentsDue: 2021-03-15\nimpactLevel: high\nentityImpact:\n  PSP: high\nsourceUrl: https://example.org/draft-fraud\nverification: reported\n---\n\nA draft.\n",
	} {
		if err := os.WriteFile(filepath.Join(content, "circulars", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return content
}

func TestCircularPages_Supersession(t *testing.T) {
	out, _ := buildSiteAt(t, withLinkedCirculars(t), templatesDir, fixtureNow)

	old := parseFile(t, filepath.Join(out, "circulars", "rbi-2020-03-17-pa-guidelines", "index.html"))
	note := find(t, old, "data-superseded", "*")
	if got := text(note); !strings.Contains(got, "Superseded by") || !strings.Contains(got, "RBI/2020-21/77 - Payment aggregators amended") {
		t.Errorf("superseded note %q", got)
	}
	if len(findAll(note, "href", "/circulars/rbi-2021-01-15-pa-amendment")) != 1 {
		t.Error("the superseded note does not link to the newer circular")
	}

	amendment := parseFile(t, filepath.Join(out, "circulars", "rbi-2021-01-15-pa-amendment", "index.html"))
	if got := text(find(t, amendment, "data-replaces", "*")); !strings.Contains(got, "Guidelines on Regulation of Payment Aggregators") {
		t.Errorf("replaces list %q", got)
	}
	if got := text(find(t, amendment, "data-compliance-dates", "*")); !strings.Contains(got, "30 June 2021") || !strings.Contains(got, "Apply for authorisation") {
		t.Errorf("compliance dates %q", got)
	}
	if got := text(find(t, amendment, "data-doctype", "amendment")); got != "Amendment" {
		t.Errorf("document type badge %q", got)
	}

	draft := parseFile(t, filepath.Join(out, "circulars", "rbi-2021-02-20-draft-fraud", "index.html"))
	if got := text(find(t, draft, "data-draft-note", "*")); !strings.Contains(got, "draft for comments") || !strings.Contains(got, "obliges no one") {
		t.Errorf("draft note %q", got)
	}

	// The card of the old circular in the list says so too.
	list := parseFile(t, filepath.Join(out, "circulars", "index.html"))
	card := find(t, list, "data-circular", "rbi-2020-03-17-pa-guidelines")
	if len(findAll(card, "data-superseded", "*")) != 1 || len(findAll(card, "data-doctype", "circular")) != 1 {
		t.Errorf("card of the superseded circular: %s", text(card))
	}

	// The tracker: the superseded guidelines are no longer active, the
	// amendment is; the draft is listed apart and lowers no score.
	tracker := parseFile(t, filepath.Join(out, "impact-tracker", "index.html"))
	slugsIn := func(list string) []string {
		var out []string
		for _, li := range elements(find(t, tracker, "data-list", list), "li") {
			raw, _ := attr(li, "data-fields")
			_, rest, _ := strings.Cut(raw, `"slug":"`)
			slug, _, _ := strings.Cut(rest, `"`)
			out = append(out, slug)
		}
		return out
	}
	for list, want := range map[string][]string{
		"high-circulars": {"rbi-2021-01-15-pa-amendment"},
		"open-circulars": {"rbi-2021-02-20-draft-fraud"},
	} {
		if diff := cmp.Diff(want, slugsIn(list)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", list, diff)
		}
	}
	psp := find(t, tracker, "data-entity", "PSP")
	if s := text(find(t, psp, "data-score", "*")); s != "100%" {
		t.Errorf("PSP score %s: the draft must not lower it", s)
	}
	if !strings.Contains(text(tracker), "A circular is active while it can still demand work") {
		t.Error("the tracker does not state the active rule")
	}
}

func TestComplianceCalendar(t *testing.T) {
	content := withLinkedCirculars(t)
	out, _ := buildSiteAt(t, content, templatesDir, fixtureNow)
	raw, err := os.ReadFile(filepath.Join(out, "feeds", "compliance.ics"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("\r\n")) || bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
		t.Error("lines must end in CRLF (RFC 5545)")
	}
	cal, err := ical.NewDecoder(bytes.NewReader(raw)).Decode()
	if err != nil {
		t.Fatalf("the calendar does not parse: %v", err)
	}
	type event struct{ UID, Start, Summary, URL string }
	var got []event
	unchecked := map[string]bool{} // by UID: the description says the entry is not yet checked
	for _, ev := range cal.Events() {
		uid, _ := ev.Props.Text(ical.PropUID)
		start := ev.Props.Get(ical.PropDateTimeStart)
		summary, _ := ev.Props.Text(ical.PropSummary)
		url := ev.Props.Get(ical.PropURL)
		if start.ValueType() != ical.ValueDate {
			t.Errorf("%s: DTSTART is not an all-day date", uid)
		}
		if ev.Props.Get(ical.PropDateTimeStamp) == nil {
			t.Errorf("%s: no DTSTAMP", uid)
		}
		got = append(got, event{uid, start.Value, summary, url.Value})
		desc, _ := ev.Props.Text(ical.PropDescription)
		unchecked[uid] = strings.Contains(desc, catalog.VerificationLabel("reported")+".")
	}
	id := func(slug string) string { return catalog.IDForPath("circulars/" + slug + ".md") }
	amendment, draft := id("rbi-2021-01-15-pa-amendment"), id("rbi-2021-02-20-draft-fraud")
	page := "https://regpulse.test/circulars/"
	// The superseded guidelines' effective date (2020-04-01) is gone; dates
	// come in date order.
	want := []event{
		{amendment + "-20210201-0@regpulse", "20210201", "RBI: Takes effect — Payment aggregators amended", page + "rbi-2021-01-15-pa-amendment"},
		{draft + "-20210315-comments@regpulse", "20210315", "RBI: Comments due — Draft fraud rules", page + "rbi-2021-02-20-draft-fraud"},
		{amendment + "-20210630-0@regpulse", "20210630", "RBI: Apply for authorisation — Payment aggregators amended", page + "rbi-2021-01-15-pa-amendment"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// The draft, known only from reports, says so in its date's
	// description; the amendment, checked, does not.
	wantUnchecked := map[string]bool{want[0].UID: false, want[1].UID: true, want[2].UID: false}
	if diff := cmp.Diff(wantUnchecked, unchecked); diff != "" {
		t.Errorf("descriptions saying the entry is not yet checked (-want +got):\n%s", diff)
	}

	// The same content gives the same bytes (stable UIDs, no build time).
	out2, _ := buildSiteAt(t, content, templatesDir, fixtureNow)
	if again, _ := os.ReadFile(filepath.Join(out2, "feeds", "compliance.ics")); !bytes.Equal(raw, again) {
		t.Error("a second build changed the calendar")
	}
	// Every page links it, and it is served as text/calendar.
	if home := readOut(t, out, "index.html"); !strings.Contains(home, `type="text/calendar"`) {
		t.Error("the home page does not link the calendar")
	}
	if headers := readOut(t, out, "_headers"); !slices.Contains(strings.Split(headers, "\n"), "/feeds/compliance.ics") {
		t.Error("_headers has no rule for the calendar")
	}
}

// TestCircularPages_Withdrawn: a circular withdrawn before the build's
// day says since when, by what and where its rules are now, and that its
// obligations are not due (nor does it send readers to the register);
// one withdrawn from a later day is still in force until then.
func TestCircularPages_Withdrawn(t *testing.T) {
	content := copyTree(t, fixtureContent)
	circular := func(slug, date, withdrawn string) {
		text := "---\ntitle: Circular of " + date + "\nsource: RBI\ncategory: Payment Systems\npublishedDate: " + date +
			"\nimpactLevel: high\nentityImpact:\n  PSP: high\nsourceUrl: https://example.org/" + slug + "\nsourceKind: report\n" + withdrawn +
			"obligations:\n  - what: Report frauds.\n    appliesTo: [PSP]\n    kind: reporting\n    deadline: 2021-06-30\n    source: Frauds are reported.\n---\n\nFrauds are reported.\n"
		if err := os.WriteFile(filepath.Join(content, "circulars", slug+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	circular("rbi-2020-06-01-liability", "2020-06-01",
		"withdrawn:\n  date: 2021-02-01\n  by: rbi-2020-03-17-pa-guidelines\n  rulesNowIn: [\"Conduct Directions, 2021\"]\n")
	circular("rbi-2020-07-01-later", "2020-07-01", "withdrawn:\n  date: 2021-04-01\n  rulesNowIn: [\"Conduct Directions, 2021\"]\n")
	out, _ := buildSiteAt(t, content, templatesDir, fixtureNow)

	ended := parseFile(t, filepath.Join(out, "circulars", "rbi-2020-06-01-liability", "index.html"))
	note := find(t, ended, "data-lifecycle", "ended")
	if got := strings.Join(strings.Fields(text(note)), " "); !strings.Contains(got, "No longer in force since 1 February 2021: withdrawn by") ||
		!strings.Contains(got, "Its rules are now in: Conduct Directions, 2021") || !strings.Contains(got, "neither due nor overdue") {
		t.Errorf("lifecycle note %q", got)
	}
	if len(findAll(note, "href", "/circulars/rbi-2020-03-17-pa-guidelines")) != 1 {
		t.Error("the lifecycle note does not link to the withdrawing circular")
	}
	for _, n := range findAll(ended, "data-withdrawn-note", "*") {
		inCard := false
		for p := n.Parent; p != nil; p = p.Parent {
			_, inCard = attr(p, "data-circular")
			if inCard {
				break
			}
		}
		if !inCard { // related circulars' cards may have theirs
			t.Error("the page repeats the lifecycle note as a card's withdrawn note")
		}
	}
	list := parseFile(t, filepath.Join(out, "circulars", "index.html"))
	card := find(t, list, "data-circular", "rbi-2020-06-01-liability")
	if got := strings.Join(strings.Fields(text(find(t, card, "data-withdrawn-note", "*"))), " "); got != "Withdrawn with effect from 1 Feb 2021" {
		t.Errorf("the card's withdrawn note %q", got)
	}
	find(t, ended, "data-obligations-ended", "*")
	if len(findAll(ended, "href", "/obligations")) != 0 {
		t.Error("an ended circular's page sends readers to track its obligations")
	}

	withdrawing := parseFile(t, filepath.Join(out, "circulars", "rbi-2020-03-17-pa-guidelines", "index.html"))
	if len(findAll(find(t, withdrawing, "data-withdraws", "*"), "href", "/circulars/rbi-2020-06-01-liability")) != 1 {
		t.Error("the withdrawing circular's page does not list the circular it withdrew")
	}

	later := parseFile(t, filepath.Join(out, "circulars", "rbi-2020-07-01-later", "index.html"))
	if got := strings.Join(strings.Fields(text(find(t, later, "data-lifecycle", "ending"))), " "); !strings.HasPrefix(got, "In force until 1 April 2021.") {
		t.Errorf("lifecycle note of a later withdrawal %q", got)
	}
	if len(findAll(later, "data-obligations-ended", "*")) != 0 {
		t.Error("a circular still in force says its obligations ended")
	}

	// The calendar holds the obligation still in force, not the ended one.
	cal, err := os.ReadFile(filepath.Join(out, "feeds", "compliance.ics"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(cal), "SUMMARY:RBI: Report frauds."); n != 1 {
		t.Errorf("the calendar holds %d events of the two circulars' obligations, want 1 (the one in force)", n)
	}
}
