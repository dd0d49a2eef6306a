package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

func TestMarkSentences(t *testing.T) {
	const html = "<p>Banks must report &ldquo;frauds&rdquo; at once &amp; the customer&rsquo;s bank &ndash; too.</p>\n<p>Apps must <code>log</code> it. Then more.</p>"
	for _, tc := range []struct {
		name, sentence, want string
	}{
		{"Entities", `Banks must report "frauds" at once & the customer's bank -- too.`,
			`<p><mark id="m" data-obligation-source class="rounded-sm bg-amber-100 px-0.5 text-inherit dark:bg-amber-900/60">Banks must report &ldquo;frauds&rdquo; at once &amp; the customer&rsquo;s bank &ndash; too.</mark></p>`},
		{"NotAcrossTags", "Apps must log it.", ""},
		{"Absent", "Banks must not report.", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, found := markSentences(html, []textMark{{tc.sentence, "m"}})
			if tc.want == "" {
				if got != html || found["m"] {
					t.Errorf("marked %q", got)
				}
				return
			}
			if !found["m"] || !strings.HasPrefix(got, tc.want) || strings.ReplaceAll(strings.ReplaceAll(got, `<mark id="m" data-obligation-source class="rounded-sm bg-amber-100 px-0.5 text-inherit dark:bg-amber-900/60">`, ""), "</mark>", "") != html {
				t.Errorf("marked\n%s\nwant prefix\n%s", got, tc.want)
			}
		})
	}
}

// withObligations is the fixture with a direction whose editors wrote
// obligations, a draft with a proposed one, and a circular without any
// (the store's extracted one is given to the build).
func withObligations(t *testing.T) string {
	t.Helper()
	content := copyTree(t, fixtureContent)
	for name, text := range map[string]string{
		"rbi-2021-01-20-escrow.md": "---\ntitle: Escrow for aggregators\nsource: RBI\ncategory: Payment Systems\npublishedDate: 2021-01-20\ndocumentType: direction\n" +
			"impactLevel: high\nentityImpact:\n  Aggregator: high\n  Issuer: medium\nsourceUrl: https://example.org/escrow\nsourceKind: report\nobligations:\n" +
			"  - {appliesTo: [Aggregator], what: Keep funds in escrow., kind: new-requirement, deadline: 2021-06-30, source: Payment aggregators must keep funds in escrow by 30 June 2021.}\n" +
			"  - {appliesTo: [Issuer], what: Report frauds., kind: reporting, deadline: within seven days, source: \"Card issuers shall report the customer's frauds within seven days.\"}\n" +
			"---\n\nPayment aggregators must keep funds in escrow by 30 June 2021.\n\nCard issuers shall report the customer's frauds within seven days.\n",
		"rbi-2021-02-10-returns.md": "---\ntitle: Returns\nsource: RBI\ncategory: Payment Systems\npublishedDate: 2021-02-10\ndocumentType: circular\n" +
			"impactLevel: medium\nentityImpact:\n  PSP: medium\nsourceUrl: https://example.org/returns\nsourceKind: report\n---\n\nPSPs must file returns by 31 May 2021.\n",
		"rbi-2021-02-20-draft-kyc.md": "---\ntitle: Draft KYC rules\nsource: RBI\ncategory: Security\npublishedDate: 2021-02-20\ndocumentType: draft\n" +
			"impactLevel: high\nentityImpact:\n  PSP: high\nsourceUrl: https://example.org/draft-kyc\nsourceKind: report\nobligations:\n" +
			"  - {appliesTo: [all], what: Verify customers., kind: new-requirement, deadline: 2021-09-01, source: Banks would verify customers by 1 September 2021.}\n" +
			"---\n\nBanks would verify customers by 1 September 2021.\n",
	} {
		if err := os.WriteFile(filepath.Join(content, "circulars", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return content
}

func TestObligations_PagesAndCalendars(t *testing.T) {
	content := withObligations(t)
	returnsID := catalog.IDForPath("circulars/rbi-2021-02-10-returns.md")
	due := catalog.Date{Time: time.Date(2021, 5, 31, 0, 0, 0, 0, time.UTC)}
	const src = "PSPs must file returns by 31 May 2021."
	extracted := catalog.Obligation{ID: catalog.ObligationID(returnsID, src, 0), CircularID: returnsID, Position: 1,
		AppliesTo: catalog.TextList{"PSP"}, What: src, Kind: "new-requirement", DueDate: &due, Deadline: "by 31 May 2021", Binding: true,
		SourceText: src, SourceStart: 0, SourceEnd: len(src), Origin: catalog.OriginExtracted, Provider: "local", Model: "rules",
		CircularSlug: "rbi-2021-02-10-returns", CircularTitle: "Returns", Source: "RBI", ImpactLevel: "medium"}
	build := func() string {
		out := filepath.Join(t.TempDir(), "public")
		_, err := Build(t.Context(), Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out,
			BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test", Now: func() time.Time { return fixtureNow },
			Obligations: newStoredObligations(map[string][]catalog.Obligation{returnsID: {extracted}})})
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		return out
	}
	out := build()

	t.Run("CircularPage", func(t *testing.T) {
		page := parseFile(t, filepath.Join(out, "circulars", "rbi-2021-01-20-escrow", "index.html"))
		section := find(t, page, "data-obligations", "*")
		got := text(section)
		for _, want := range []string{"Obligations", "30 June 2021", "Keep funds in escrow.", "Payment Aggregators", "New requirement",
			"within seven days", "Report frauds.", "Card Issuers", "Reporting", "Binding", "Show in the text"} {
			if !strings.Contains(got, want) {
				t.Errorf("the section lacks %q: %q", want, got)
			}
		}
		if strings.Contains(got, "Machine-extracted") || strings.Contains(got, "obliges no one") {
			t.Errorf("an editor's binding obligations are labelled otherwise: %q", got)
		}
		if m := text(find(t, page, "id", "obligation-1")); m != "Payment aggregators must keep funds in escrow by 30 June 2021." {
			t.Errorf("mark 1 = %q", m)
		}
		if m := text(find(t, page, "id", "obligation-2")); m != "Card issuers shall report the customer’s frauds within seven days." {
			t.Errorf("mark 2 = %q", m)
		}
		if len(findAll(section, "href", "#obligation-2")) != 1 {
			t.Error("no link to the second mark")
		}

		returns := text(find(t, parseFile(t, filepath.Join(out, "circulars", "rbi-2021-02-10-returns", "index.html")), "data-obligations", "*"))
		if !strings.Contains(returns, "Machine-extracted from the text below and not yet reviewed") || !strings.Contains(returns, "Machine-extracted (local rules)") {
			t.Errorf("the extracted obligation is not labelled: %q", returns)
		}
		draft := text(find(t, parseFile(t, filepath.Join(out, "circulars", "rbi-2021-02-20-draft-kyc", "index.html")), "data-obligations", "*"))
		if !strings.Contains(draft, "It obliges no one yet") || !strings.Contains(draft, "Not binding yet") {
			t.Errorf("the draft's section: %q", draft)
		}
	})

	t.Run("Calendars", func(t *testing.T) {
		escrow := catalog.IDForPath("circulars/rbi-2021-01-20-escrow.md")
		escrowOb := catalog.ObligationID(escrow, "Payment aggregators must keep funds in escrow by 30 June 2021.", 0)
		uids := func(path string) []string {
			t.Helper()
			raw, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(path, "/"))))
			if err != nil {
				t.Fatal(err)
			}
			cal, err := ical.NewDecoder(bytes.NewReader(raw)).Decode()
			if err != nil {
				t.Fatalf("%s does not parse: %v", path, err)
			}
			var out []string
			for _, ev := range cal.Events() {
				uid, _ := ev.Props.Text(ical.PropUID)
				if len(uid) == len(extracted.ID+"@regpulse") { // an obligation's: its id alone
					out = append(out, uid)
					start := ev.Props.Get(ical.PropDateTimeStart)
					desc, _ := ev.Props.Text(ical.PropDescription)
					if start.ValueType() != ical.ValueDate || !strings.Contains(desc, "from the text:") {
						t.Errorf("%s: %s, %q", uid, start.Value, desc)
					}
					if uid == extracted.ID+"@regpulse" && !strings.Contains(desc, "Machine-extracted") {
						t.Errorf("the extracted obligation's event does not say so: %q", desc)
					}
				}
			}
			slices.Sort(out)
			return out
		}
		// Dated binding obligations only (not the issuers' undated one,
		// nor the draft's), each once, by its stable id.
		all := []string{escrowOb + "@regpulse", extracted.ID + "@regpulse"}
		slices.Sort(all)
		if diff := cmp.Diff(all, uids(CalendarPath)); diff != "" {
			t.Errorf("compliance.ics obligations (-want +got):\n%s", diff)
		}
		for typ, want := range map[string][]string{"PSP": {extracted.ID + "@regpulse"}, "Aggregator": {escrowOb + "@regpulse"}, "Issuer": nil} {
			if diff := cmp.Diff(want, uids(EntityCalendarPath(typ))); diff != "" {
				t.Errorf("%s calendar (-want +got):\n%s", typ, diff)
			}
		}
		if headers := readOut(t, out, "_headers"); !strings.Contains(headers, "/feeds/compliance-psp.ics\n  Content-Type: text/calendar") {
			t.Error("_headers has no rule for the PSP calendar")
		}
		again := build()
		for _, p := range CalendarPaths() {
			a, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(p, "/"))))
			b, _ := os.ReadFile(filepath.Join(again, filepath.FromSlash(strings.TrimPrefix(p, "/"))))
			if !bytes.Equal(a, b) {
				t.Errorf("a second build changed %s", p)
			}
		}
	})

	t.Run("RegisterPage", func(t *testing.T) {
		page := parseFile(t, filepath.Join(out, "obligations", "index.html"))
		for _, p := range CalendarPaths() {
			if len(findAll(page, "href", p)) == 0 {
				t.Errorf("/obligations does not link %s", p)
			}
		}
		if len(findAll(page, "data-island", "ObligationsRegister")) != 1 {
			t.Error("/obligations has no register island")
		}
	})
}
