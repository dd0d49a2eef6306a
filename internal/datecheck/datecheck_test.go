package datecheck

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// circular is a circular's file: a report of slug's date, with extra front
// matter and a body.
func circular(date, extra, body string) string {
	return "---\ntitle: t\nsource: RBI\ncategory: UPI\npublishedDate: " + date +
		"\nimpactLevel: low\nentityImpact: {PSP: low}\nsourceUrl: https://example.org/\nsourceKind: report\n" + extra + "---\n" + body + "\n"
}

func network(body string) string {
	return "---\nname: Visa\ndescription: A network.\nguidelines: [One rule]\nguidelinesAsOf: 2025-01-01\ncircularTerms: [Visa]\n---\n" + body + "\n"
}

// check loads files (content-relative names) and checks them as of day.
func check(t *testing.T, files map[string]string, day string) []string {
	t.Helper()
	content, whole := fstest.MapFS{}, fstest.MapFS{}
	for name, text := range files {
		content[name] = &fstest.MapFile{Data: []byte(text)}
		whole["content/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	cat, err := catalog.LoadFS(content, "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	now, err := time.Parse(time.DateOnly, day)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range Check(cat, whole, now) {
		out = append(out, r.String())
	}
	return out
}

func TestCheck(t *testing.T) {
	const a, b = "circulars/rbi-2024-01-10-a.md", "circulars/rbi-2025-09-15-b.md"
	for _, tc := range []struct {
		name  string
		files map[string]string
		day   string
		want  []string
	}{
		{
			name:  "future tense about a past date",
			files: map[string]string{"networks/visa.md": network("It follows the rules that take effect on 1 April 2026.")},
			day:   "2026-12-01",
			want: []string{"content/networks/visa.md:8: body: warning: \"take effect\" about 1 April 2026, now past: say what happened, or what applies since then\n" +
				`    "It follows the rules that take effect on 1 April 2026."`},
		},
		{
			name:  "future tense about a date to come",
			files: map[string]string{"networks/visa.md": network("It follows the rules that take effect on 1 April 2026.")},
			day:   "2026-03-31",
		},
		{
			name:  "future tense on the day itself is past",
			files: map[string]string{"networks/visa.md": network("The rule will apply from April 1, 2026.")},
			day:   "2026-04-02",
			want: []string{"content/networks/visa.md:8: body: warning: \"will\" about April 1, 2026, now past: say what happened, or what applies since then\n" +
				`    "The rule will apply from April 1, 2026."`},
		},
		{
			// The future may be about the later date.
			name:  "a past and a future date",
			files: map[string]string{"networks/visa.md": network("After the pilot of March 2026, the scheme will start on 1 January 2027.")},
			day:   "2026-12-01",
		},
		{
			name:  "the future in the past is past",
			files: map[string]string{"networks/visa.md": network("The tort was to start on proclamation, so it has applied since June 2025. Banks were set to comply by 1 May 2025, and would start on 2 May 2025.")},
			day:   "2026-12-01",
		},
		{
			name: "an as-of claim carries its own date",
			files: map[string]string{"bodies/rbi.md": "---\nname: Reserve Bank of India\nshortName: RBI\nkeyFunctions: [Regulates]\nhead: A\nheadTitle: Governor (as of April 2025)\n---\nBody.\n",
				b: circular("2025-09-15", "", "New rules.")},
			day: "2026-12-01",
		},
		{
			name: "a regulator's latest claim older than its newest circular",
			files: map[string]string{"bodies/rbi.md": "---\nname: Reserve Bank of India\nshortName: RBI\nkeyFunctions: [Regulates]\n---\nIts latest directions are of March 2025.\n",
				b: circular("2025-09-15", "", "New rules.")},
			day: "2026-12-01",
			want: []string{"content/bodies/rbi.md:6: body: warning: \"latest\" of March 2025, and rbi-2025-09-15-b of 15 September 2025 is newer\n" +
				`    "Its latest directions are of March 2025."`},
		},
		{
			name:  "a rule's own mood is no future",
			files: map[string]string{"networks/visa.md": network("Payments of 1 April 2026 are to be reported by banks. Banks shall file by 2026-05-01.")},
			day:   "2026-12-01",
		},
		{
			name:  "only the sentence with the future is reported, in front matter too",
			files: map[string]string{"regulations/r.md": "---\nname: R\ncountry: India\nstatus: active\nkeyProvisions:\n  - Adopted in 2020. Its duties start on 10 June 2025.\n---\nBody.\n"},
			day:   "2026-12-01",
			want: []string{"content/regulations/r.md:6: list: warning: \"start on\" about 10 June 2025, now past: say what happened, or what applies since then\n" +
				`    "Its duties start on 10 June 2025."`},
		},
		{
			// A news item is a report of its day.
			name:  "news keeps its tense",
			files: map[string]string{"news/2026-01-02-x.md": "---\ntitle: t\nexcerpt: e\nsource: RBI\ncategory: CBDC\nregion: India\npublishedDate: 2026-01-02\nsourceUrl: https://example.org/\n---\nThe rule will take effect on 1 April 2026.\n"},
			day:   "2026-12-01",
		},
		{
			name: "a latest claim older than what replaced the circular",
			files: map[string]string{
				a: circular("2024-01-10", "", "The latest update seen is dated 6 September 2024."),
				b: circular("2025-09-15", "supersedes: [rbi-2024-01-10-a]\n", "New rules."),
			},
			day: "2026-12-01",
			want: []string{"content/circulars/rbi-2024-01-10-a.md:11: body: warning: \"latest\" of 6 September 2024, and rbi-2025-09-15-b of 15 September 2025 is newer\n" +
				`    "The latest update seen is dated 6 September 2024."`},
		},
		{
			name:  "a latest claim with nothing newer",
			files: map[string]string{a: circular("2024-01-10", "", "The latest update seen is dated 6 September 2024.")},
			day:   "2026-12-01",
		},
		{
			name: "an obligation due after its circular ended",
			files: map[string]string{
				a: circular("2024-01-10", "obligations:\n  - what: File the return.\n    appliesTo: [PSP]\n    kind: reporting\n    deadline: 2026-03-31\n    source: Banks file by 31 March 2026.\n  - what: Keep records.\n    appliesTo: [PSP]\n    kind: new-requirement\n    deadline: 2025-01-31\n    source: Banks file by 31 March 2026.\n", "Banks file by 31 March 2026."),
				b: circular("2025-09-15", "supersedes: [rbi-2024-01-10-a]\n", "New rules."),
			},
			day:  "2026-12-01",
			want: []string{"content/circulars/rbi-2024-01-10-a.md:14: obligations.deadline: error: due on 31 March 2026, and the circular is no longer in force since 15 September 2025 (by rbi-2025-09-15-b): move it to where its rule now is, or remove the deadline"},
		},
		{
			name: "a compliance date after its circular ended",
			files: map[string]string{
				a: circular("2024-01-10", "complianceDates:\n  - {date: 2026-03-31, what: Authorisation}\n", "Apply."),
				b: circular("2025-09-15", "supersedes: [rbi-2024-01-10-a]\n", "New rules."),
			},
			day:  "2026-12-01",
			want: []string{"content/circulars/rbi-2024-01-10-a.md:11: complianceDates: error: Authorisation on 31 March 2026, and the circular is no longer in force since 15 September 2025 (by rbi-2025-09-15-b)"},
		},
		{
			name: "a network's list older than a circular about it",
			files: map[string]string{"networks/visa.md": network("Visa."),
				a: circular("2024-01-10", "", "Visa cards."),
				b: strings.Replace(circular("2025-09-15", "", "New rules."), "title: t", "title: Visa tokens", 1)},
			day:  "2026-12-01",
			want: []string{"content/networks/visa.md:5: guidelinesAsOf: warning: guidelines as of 1 January 2025, and rbi-2025-09-15-b of 15 September 2025 is about Visa: bring them up to it"},
		},
		{
			name: "an event's upcoming edition that ended",
			files: map[string]string{"events/gff.md": "---\nname: GFF\ngroup: major\neditions:\n- year: 2025\n  status: completed\n  sourceUrl: https://example.org/a\n" +
				"- year: 2026\n  startDate: 2026-09-08\n  endDate: 2026-09-11\n  status: upcoming\n  sourceUrl: https://example.org/b\n---\nBody.\n"},
			day:  "2026-12-01",
			want: []string{"content/events/gff.md:11: editions.status: error: 2026: upcoming, and the edition ended on 11 September 2026: completed"},
		},
		{
			name:  "an upcoming edition that ended",
			files: map[string]string{"sibos/2026.md": "---\ntitle: Sibos 2026\nyear: 2026\nstatus: upcoming\nstartDate: 2026-09-28\nendDate: 2026-10-01\n---\nBody.\n"},
			day:   "2026-12-01",
			want:  []string{"content/sibos/2026.md:4: status: error: upcoming, and the edition ended on 1 October 2026: completed"},
		},
		{
			name:  "an upcoming edition without dates in a past year",
			files: map[string]string{"sibos/2025.md": "---\ntitle: Sibos 2025\nyear: 2025\nstatus: upcoming\n---\nBody.\n"},
			day:   "2026-12-01",
			want:  []string{"content/sibos/2025.md:4: status: error: upcoming, with no dates, in 2025: a past year"},
		},
		{
			name:  "an upcoming edition to come",
			files: map[string]string{"sibos/2027.md": "---\ntitle: Sibos 2027\nyear: 2027\nstatus: upcoming\n---\nBody.\n"},
			day:   "2026-12-01",
		},
		{
			name:  "a completed edition that has not started",
			files: map[string]string{"sibos/2027.md": "---\ntitle: Sibos 2027\nyear: 2027\nstatus: completed\nstartDate: 2027-10-04\n---\nBody.\n"},
			day:   "2026-12-01",
			want:  []string{"content/sibos/2027.md:4: status: error: completed, and the edition starts on 4 October 2027: upcoming"},
		},
		{
			name:  "a proposed regulation past its effective date",
			files: map[string]string{"regulations/r.md": "---\nname: R\ncountry: India\nstatus: proposed\neffectiveDate: 2026-01-01\nkeyProvisions: [One]\n---\nBody.\n"},
			day:   "2026-12-01",
			want:  []string{"content/regulations/r.md:4: status: error: proposed, and effectiveDate 1 January 2026 is past: active, or the date it now takes effect"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, check(t, tc.files, tc.day)); diff != "" {
				t.Errorf("reports (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDates(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"on 1 April 2026 and April 2, 2026", []string{"2026-04-01 1 April 2026", "2026-04-02 April 2, 2026"}},
		{"from 2026-04-03, by 4th Sept. 2026", []string{"2026-09-04 4th Sept. 2026", "2026-04-03 2026-04-03"}},
		{"in February 2024", []string{"2024-02-29 February 2024"}}, // a month means its last day
		{"8–11 September 2026", []string{"2026-09-11 11 September 2026"}},
		{"Rs. 2,000 in 2026 and No. 12", nil},
	} {
		var got []string
		for _, d := range dates(tc.in) {
			got = append(got, d.at.Format(time.DateOnly)+" "+d.text)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("dates(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestSentences(t *testing.T) {
	got := sentences(`RBI capped it at Rs. 5 lakh. It took effect on 1 May. "Banks" must act! No. 12 stays.`)
	want := []string{"RBI capped it at Rs. 5 lakh.", "It took effect on 1 May.", `"Banks" must act!`, "No. 12 stays."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sentences (-want +got):\n%s", diff)
	}
}

// The checker on the portal's own content, on a day it was written for:
// whatever it reports there is a defect of the content or of the rules.
func TestCheck_Content(t *testing.T) {
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range Check(cat, os.DirFS("../.."), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		out = append(out, r.String())
	}
	if len(out) > 0 {
		t.Errorf("content has %d report(s) on 1 December 2026:\n%s", len(out), strings.Join(out, "\n"))
	}
}
