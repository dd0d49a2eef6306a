package alerts_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/mail"
	"regpulse/internal/store/storetest"
)

func day(s string) catalog.Date {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return catalog.Date{Time: t}
}

// cardsDirection is a small direction with three versions: one in force
// (substituting two provisions and naming a catalog circular), one whose
// changes are not recorded, and one taking effect after storetest.Now
// (inserting, deleting, renumbering; its amending circular is not in the
// catalog).
func cardsDirection(t *testing.T) catalog.MasterDirection {
	d := catalog.MasterDirection{Entry: catalog.Entry{Slug: "cards-2022", ID: "md-cards"},
		Title: "Master Direction – Credit Card and Debit Card <Issuance>", ShortTitle: "Card Directions", Source: "RBI",
		IssuedDate: day("2022-04-21"), Status: "in-force",
		Provisions: []catalog.Provision{
			{ID: "1", Heading: "Short title", Text: "These directions shall be called the Card Directions, 2022.", Wording: "official"},
			{ID: "2", Heading: "Billing", Text: "Card issuers shall send the bill at least 15 days before the due date.", Wording: "official"},
			{ID: "3", Heading: "Closure", Text: "A request for closure shall be honoured within 7 working days.", Wording: "official"},
			{ID: "4", Heading: "Reporting", Text: "Issuers shall report to the Reserve Bank every quarter.", Wording: "digest"},
		},
		Versions: []catalog.DirectionVersion{
			{ID: "v1", Direction: "cards-2022", Date: day("2024-03-07"), ChangesKnown: true, Circulars: catalog.TextList{"rbi-2024-03-07-cards"},
				Note: "Billing and closure timelines shortened.",
				Effects: catalog.List[catalog.Effect]{
					{Kind: catalog.EffectSubstituted, Provision: "2", Text: "Card issuers shall send the bill at least 18 days before the due date, by e-mail or post."},
					{Kind: catalog.EffectSubstituted, Provision: "3", Text: "A request for closure shall be honoured within 7 days."}}},
			{ID: "v2", Direction: "cards-2022", Date: day("2025-01-10"), ChangesKnown: false,
				Amending: &catalog.AmendingCircular{Title: "Card Directions: clarifications", Number: "RBI/2024-25/101"}},
			{ID: "v3", Direction: "cards-2022", Date: day("2025-10-01"), ChangesKnown: true,
				Amending: &catalog.AmendingCircular{Title: "Amendment to the Card Directions", Number: "RBI/2025-26/12", URL: "https://rbi.org.in/notification/12"},
				Effects: catalog.List[catalog.Effect]{
					{Kind: catalog.EffectInserted, Provision: "2A", After: "2", Heading: "Billing cycle", Text: "A cardholder may change the billing cycle once."},
					{Kind: catalog.EffectDeleted, Provision: "3"},
					{Kind: catalog.EffectRenumbered, Provision: "4", To: "5"}}},
		},
	}
	var problems []catalog.EffectProblem
	if d.History, problems = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions); len(problems) > 0 {
		t.Fatal(problems)
	}
	return d
}

// changes compares each of d's versions vis (indexes) with the text
// before it, as a run does.
func changes(d *catalog.MasterDirection, vis ...int) []alerts.VersionChanges {
	var out []alerts.VersionChanges
	for _, vi := range vis {
		before := d.TextBefore(vi)
		out = append(out, alerts.VersionChanges{Version: d.Versions[vi], Before: before,
			Comparison: directions.Compare(d, before, d.Versions[vi].Date, nil)})
	}
	return out
}

// TestRenderDirection_Golden: a followed direction's e-mail's bytes
// (HTML, text, the whole message): several versions at once, one not in
// force yet, one whose changes are not known; and a big amendment,
// whose redlines stop at MaxChanges with the count of the rest and the
// compare page.
func TestRenderDirection_Golden(t *testing.T) {
	tokens, _ := alerts.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	links, err := alerts.NewLinks("https://regpulse.example/", tokens)
	if err != nil {
		t.Fatal(err)
	}
	snd, _ := mail.NewSender("RegPulse Alerts <alerts@regpulse.example>", "")
	f := alerts.Follow{ID: "follow-1", Direction: "cards-2022", Email: "asha@example.com"}
	today := catalog.Date{Time: catalog.Day(storetest.Now)}
	cards := cardsDirection(t)
	refs := map[string]catalog.CircularRef{"rbi-2024-03-07-cards": {Slug: "rbi-2024-03-07-cards", CircularNumber: "RBI/2023-24/134", Title: "Amendments to the Card Directions"}}

	big := cardsDirection(t)
	big.Versions = big.Versions[:1]
	big.Versions[0].ID, big.Versions[0].Effects = "v-big", nil
	for i := range alerts.MaxChanges + 2 {
		id := fmt.Sprintf("%d", 10+i)
		big.Provisions = append(big.Provisions, catalog.Provision{ID: id, Text: "Issuers shall keep records for five years.", Wording: "official"})
		big.Versions[0].Effects = append(big.Versions[0].Effects, catalog.Effect{Kind: catalog.EffectSubstituted, Provision: id,
			Text: "Issuers shall keep records for eight years."})
	}
	var problems []catalog.EffectProblem
	if big.History, problems = catalog.BuildHistory(big.IssuedDate, big.Provisions, big.Versions); len(problems) > 0 {
		t.Fatal(problems)
	}

	for _, tc := range []struct {
		name  string
		email alerts.DirectionEmail
		// subject is the subject line the case must have.
		subject string
	}{
		{"direction", alerts.DirectionEmail{Follow: f, Direction: cards, Versions: changes(&cards, 0, 1, 2), Circulars: refs, Today: today},
			"RegPulse: Card Directions amended: 3 new versions"},
		{"direction-future", alerts.DirectionEmail{Follow: f, Direction: cards, Versions: changes(&cards, 2), Circulars: refs, Today: today},
			"RegPulse: Card Directions amended, in force from 1 October 2025"},
		{"direction-big", alerts.DirectionEmail{Follow: f, Direction: big, Versions: changes(&big, 0), Circulars: refs, Today: today},
			"RegPulse: Card Directions amended (version of 7 March 2024)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := links.RenderDirection(tc.email)
			if err != nil {
				t.Fatal(err)
			}
			if r.Subject != tc.subject {
				t.Errorf("subject %q, want %q", r.Subject, tc.subject)
			}
			goldenEmail(t, tc.name, snd, r, mail.Message{To: f.Email, MessageID: "follow-1@regpulse.example",
				ListID: "RegPulse Master Direction <cards-2022.directions.regpulse.example>"})
		})
		// The same e-mail to a follower who reads Hindi.
		t.Run(tc.name+"-hi", func(t *testing.T) {
			e := tc.email
			e.Follow.Language = "hi"
			r, err := links.RenderDirection(e)
			if err != nil {
				t.Fatal(err)
			}
			goldenEmail(t, tc.name+"-hi", snd, r, mail.Message{To: f.Email, MessageID: "follow-1@regpulse.example",
				ListID: "RegPulse Master Direction <cards-2022.directions.regpulse.example>"})
		})
	}
}

// TestRenderDirection_Hindi: a follower who reads Hindi gets the subject,
// the words, dates and links in Hindi; the direction's title and text as
// written.
func TestRenderDirection_Hindi(t *testing.T) {
	tokens, _ := alerts.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	links, err := alerts.NewLinks("https://regpulse.example/", tokens)
	if err != nil {
		t.Fatal(err)
	}
	f := alerts.Follow{ID: "follow-1", Direction: "cards-2022", Email: "asha@example.com", Language: "hi"}
	today := catalog.Date{Time: catalog.Day(storetest.Now)}
	cards := cardsDirection(t)
	for _, tc := range []struct {
		email   alerts.DirectionEmail
		subject string
		want    []string
	}{
		{alerts.DirectionEmail{Follow: f, Direction: cards, Versions: changes(&cards, 0, 1, 2), Today: today}, "RegPulse: Card Directions में संशोधन: 3 नए संस्करण",
			[]string{"आपके द्वारा अनुसरित एक मास्टर निदेश के 3 नए संस्करण आए हैं।", "इसका आज का पाठ: https://regpulse.example/hi/", "7 मार्च 2024 का संस्करण",
				"1 अक्टूबर 2025 से प्रभावी संस्करण", "2 प्रावधान बदले गए: 2 प्रतिस्थापित।", "https://regpulse.example/hi/circulars/rbi-2024-03-07-cards",
				"अपने अलर्ट प्रबंधित करें: https://regpulse.example/hi/profile#alerts", "Master Direction – Credit Card and Debit Card <Issuance>"}},
		{alerts.DirectionEmail{Follow: f, Direction: cards, Versions: changes(&cards, 2), Today: today}, "RegPulse: Card Directions में संशोधन, 1 अक्टूबर 2025 से प्रभावी",
			[]string{"आपके द्वारा अनुसरित एक मास्टर निदेश का नया संस्करण आया है।", "अभी प्रभावी नहीं: यह 1 अक्टूबर 2025 से प्रभावी होगा।", "2A (अंतःस्थापित)"}},
	} {
		r, err := links.RenderDirection(tc.email)
		if err != nil {
			t.Fatal(err)
		}
		if r.Subject != tc.subject {
			t.Errorf("subject %q, want %q", r.Subject, tc.subject)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.Text, w) {
				t.Errorf("%s: the text lacks %q\n%s", tc.subject, w, r.Text)
			}
		}
	}
}
