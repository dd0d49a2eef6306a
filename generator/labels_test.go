package generator

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
	"regpulse/internal/decisions"
	"regpulse/internal/directions"
	"regpulse/internal/i18n"
	"regpulse/internal/impact"
	"regpulse/internal/newsletter"
	"regpulse/internal/register"
)

func TestLabelKey(t *testing.T) {
	for value, want := range map[string]string{
		"master-direction":   "docType.masterDirection",
		"Payment Systems":    "docType.paymentSystems",
		"PSP":                "docType.psp",
		"UPI":                "docType.upi",
		"newCirculars":       "docType.newCirculars",
		"circular-withdrawn": "docType.circularWithdrawn",
	} {
		if got := labelKey("docType.%s", value); got != want {
			t.Errorf("labelKey(%q) = %q, want %q", value, got, want)
		}
	}
}

// TestLabels_English holds the catalogue's English labels to the ones Go
// names the same values with (the API, the feeds and the e-mails show
// those): the English pages stay as they were.
func TestLabels_English(t *testing.T) {
	type label struct{ value, want string }
	each := func(values []string, name func(string) string) []label {
		var out []label
		for _, v := range values {
			out = append(out, label{v, name(v)})
		}
		return out
	}
	var categories []string
	categories = append(append(append(categories, catalog.CircularCategories...), catalog.NewsCategories...), catalog.CompanyCategories...)
	same := func(v string) string { return v }
	for _, tc := range []struct {
		format string
		labels []label
	}{
		{"docType.%s", each(catalog.DocumentTypes, catalog.DocumentTypeLabel)},
		{"verification.%s", each(catalog.Verifications, catalog.VerificationLabel)},
		{"verification.%sNote", each(catalog.Verifications, catalog.VerificationNote)},
		{"entity.%s", each(append(append([]string{}, catalog.EntityTypes...), auth.PreferenceEntityTypes...), impact.DisplayName)},
		{"stat.%sMeaning", each([]string{"newCirculars", "impactAlerts", "latestNews", "activeUsers", "awaitingVerification"},
			func(k string) string { return dashboard.Meanings[k] })},
		{"change.%s", each(directions.ChangeKinds, func(k string) string { return directions.KindLabels[k] })},
		{"topic.%s", each(newsletter.Topics, func(k string) string { return newsletter.TopicLabels[k] })},
		{"eventType.%s", each(catalog.EventTypes, same)},
		{"region.%s", each(catalog.Regions, same)}, // news-card.html: T (printf "region.%s" (lower .region))
		{"category.%s", each(categories, same)},
		{"logEvent.%s", each(catalog.PublicationEvents, catalog.PublicationEventLabel)},
		{"decision.%s", each(append(append(append(append(append([]string{}, decisions.Applicabilities...), decisions.Reasons...),
			decisions.Statuses...), decisions.EvidenceStates...), decisions.ReopenReasons...), decisions.Label)},
		{"obligationLabel.%s", append(append(each(register.Statuses, register.StatusLabel), each(register.Groups, register.GroupLabel)...),
			each(catalog.ObligationKinds, catalog.ObligationKindLabel)...)},
	} {
		for _, l := range tc.labels {
			if l.want == "" {
				t.Errorf("%s: %q has no English label in Go", tc.format, l.value)
				continue
			}
			if got := labelOf(tc.format, l.value).In("en"); got != l.want {
				t.Errorf("%s of %q: the catalogue's English is %q, Go's %q", tc.format, l.value, got, l.want)
			}
		}
	}
	for key, want := range map[string]string{
		"impactSection.activeRule":    impact.ActiveRule,
		"change.renumberedAndChanged": directions.Label(directions.Change{Kind: directions.Changed, Was: "3"}),
		"entity.all":                  partiesName([]string{catalog.AllEntities}),
	} {
		if got := i18n.T("en", key, nil); got != want {
			t.Errorf("%s: the catalogue's English is %q, Go's %q", key, got, want)
		}
	}
	for _, f := range Feeds() {
		if got := feedTitle(f).In("en"); got != f.Title {
			t.Errorf("feed %q: the catalogue's title is %q", f.Title, got)
		}
	}
	// source-links.html's keys, by kind and form, and the label Go gives
	forms := map[string]string{"press-release": "PressRelease", "hindi": "Hindi", "pdf": "Pdf", "repost": "Repost"}
	for _, k := range catalog.SourceKinds {
		for _, as := range append([]string{""}, catalog.SourceForms...) {
			l := catalog.NewSourceLinkAs("https://www.rbi.org.in/x.pdf", k, as)
			key := "sourceLink." + k
			if as != "" && k != "report" {
				key = "sourceLink." + map[bool]string{true: "official", false: "unofficial"}[k == "official"] + forms[as]
			}
			if got := i18n.T("en", key, map[string]any{"Host": l.Host}); got != l.Label {
				t.Errorf("%s: the catalogue's English is %q, Go's %q", key, got, l.Label)
			}
		}
	}
	for _, s := range catalog.DirectionStatuses {
		for _, versions := range []int{0, 1} {
			d := &catalog.MasterDirection{Status: s, Versions: make([]catalog.DirectionVersion, versions)}
			v := directionsView{}.status(d)
			if got := i18n.T("en", v.Key, nil); got != v.Label {
				t.Errorf("status %s: %s's English is %q, the label %q", s, v.Key, got, v.Label)
			}
		}
	}
}

// TestLabels_HindiPages reads the fixture's Hindi pages: each shows the
// labels Go decides in Hindi, in its text and in its islands' props,
// and none of them in English.
func TestLabels_HindiPages(t *testing.T) {
	out, _ := buildSite(t, fixtureContent, templatesDir)
	hi := func(key string) string { return i18n.T("hi", key, nil) }
	for _, tc := range []struct {
		file    string
		want    []string                     // Hindi labels in the page's text
		notWant []string                     // English labels that must not show
		props   map[string]map[string]string // island: JSON path (dots) → Hindi
	}{
		{file: "hi/index.html",
			want:    []string{hi("stat.newCirculars"), hi("stat.newCircularsMeaning"), hi("entity.psp"), hi("entity.issuer"), hi("feed.all")},
			notWant: []string{"New Circulars", "Circulars published in the last 30 days", "Payment Service Providers", "Card Issuers", "Compliance score of Payment", "All regulator circulars"},
			props:   map[string]map[string]string{"DashboardList": {"labels.documentTypes.circular": hi("docType.circular")}}},
		{file: "hi/impact-tracker/index.html",
			want:    []string{hi("impactSection.high"), hi("impactSection.medium"), hi("impactSection.open"), hi("entity.aggregator")},
			notWant: []string{"High Impact Circulars", "Medium Impact Monitoring", "Drafts and Consultations", "A circular is active while", ">Payment Aggregators<"}},
		{file: "hi/impact-tracker/high/index.html",
			want:    []string{hi("impactSection.high")},
			notWant: []string{"High Impact Circulars", "A circular is active while"}},
		{file: "hi/search/index.html",
			notWant: []string{"Checked against official text"},
			props: map[string]map[string]string{"Search": {"labels.documentTypes.master-direction": hi("docType.masterDirection"),
				"labels.verifications.checked.label": hi("verification.checked")}}},
		{file: "hi/circulars/rbi-2020-03-17-pa-guidelines/index.html",
			want:    []string{hi("verification.checked"), hi("verification.checkedNote"), hi("category.paymentSystems")},
			notWant: []string{"Checked against official text", "An editor has checked", ">Payment Systems<", "View on rbi.org.in", "Reported by example.org"},
			props:   map[string]map[string]string{"DecisionPanel": {"applicabilities.1.label": hi("decision.notApplicable")}}},
		{file: "hi/circulars/category/payment-systems/index.html",
			want: []string{hi("category.paymentSystems")}, notWant: []string{">Payment Systems<"}},
		{file: "hi/obligations/index.html",
			props: map[string]map[string]string{"ObligationsRegister": {"statuses.0.label": hi("obligationLabel.todo"),
				"kinds.0.label": hi("obligationLabel.newRequirement"), "entityTypes.0.label": hi("entity.psp")}}},
		{file: "hi/profile/index.html",
			props: map[string]map[string]string{"ProfilePage": {"entityTypes.0.label": hi("entity.psp")}}},
		{file: "hi/newsletter/index.html",
			notWant: []string{"Regulatory Updates", "Fintech Industry News"},
			props:   map[string]map[string]string{"NewsletterSignup": {"topics.0.label": hi("topic.regulatory")}}},
		{file: "hi/news/index.html",
			want: []string{"data-region>" + hi("region.india")}, notWant: []string{"data-region>India<", "data-region>Global<"}},
		{file: "hi/fintech-events/index.html",
			want: []string{hi("eventType.conference")}, notWant: []string{">Conference<"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(out, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			page := html.UnescapeString(string(b))
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("lacks %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(page, w) {
					t.Errorf("shows %q in English", w)
				}
			}
			for island, paths := range tc.props {
				props := islandProps(t, string(b), island)
				for p, want := range paths {
					if got := jsonPath(props, p); got != want {
						t.Errorf("%s's props %s = %v, want %q", island, p, got, want)
					}
				}
			}
		})
	}
}

// islandProps are the props of the page's first island of name.
func islandProps(t *testing.T, page, name string) any {
	t.Helper()
	m := regexp.MustCompile(`data-island="` + name + `"[^>]*?data-props="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no island %s with props", name)
	}
	var v any
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// jsonPath is the value at a dotted path of objects' keys and arrays'
// indexes ("topics.0.label").
func jsonPath(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i := 0
			for _, r := range k {
				i = i*10 + int(r-'0')
			}
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
