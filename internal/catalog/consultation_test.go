package catalog

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// consultationFiles are a made-up draft, its final instrument, a
// discussion paper still open and a circular (fixtures, not regulators'
// documents); extra adds front matter to the file named.
func consultationFiles(extra map[string]string) fstest.MapFS {
	file := func(date, docType, more string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\ntitle: \"Fixture document of " + date + "\"\nsource: RBI\ncategory: \"Payment Systems\"\npublishedDate: " + date +
			"\ndocumentType: " + docType + "\nimpactLevel: low\nentityImpact: {PSP: low}\nverification: pending\nsourceUrl: \"https://example.org/" + date + "\"\n" + more + "---\nFixture text.\n")}
	}
	return fstest.MapFS{
		"circulars/rbi-2025-01-10-draft.md":  file("2025-01-10", "draft", "commentsDue: 2025-02-10\n"+extra["draft"]),
		"circulars/rbi-2025-06-01-final.md":  file("2025-06-01", "master-direction", "finalOf: rbi-2025-01-10-draft\n"+extra["final"]),
		"circulars/rbi-2025-03-01-paper.md":  file("2025-03-01", "discussion-paper", "commentsDue: 2025-04-01\n"+extra["paper"]),
		"circulars/rbi-2025-02-01-plain.md":  file("2025-02-01", "circular", extra["plain"]),
		"circulars/rbi-2025-07-01-later.md":  file("2025-07-01", "consultation-paper", extra["later"]),
		"circulars/rbi-2025-08-01-second.md": file("2025-08-01", "notification", extra["second"]),
	}
}

func TestLoad_Consultations(t *testing.T) {
	cat, err := LoadFS(consultationFiles(map[string]string{"second": "finalOf: rbi-2025-01-10-draft\n"}), "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]any{}
	for _, c := range cat.Circulars {
		due := ""
		if c.CommentsDue != nil {
			due = c.CommentsDue.String()
		}
		got[c.Slug] = [2]any{due, []string(c.FinalisedBy)}
	}
	want := map[string][2]any{
		// Derived in the catalog's order: newest first.
		"rbi-2025-01-10-draft":  {"2025-02-10", []string{"rbi-2025-08-01-second", "rbi-2025-06-01-final"}},
		"rbi-2025-06-01-final":  {"", []string(nil)},
		"rbi-2025-03-01-paper":  {"2025-04-01", []string(nil)},
		"rbi-2025-02-01-plain":  {"", []string(nil)},
		"rbi-2025-07-01-later":  {"", []string(nil)},
		"rbi-2025-08-01-second": {"", []string(nil)},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("commentsDue and finalisedBy (-want +got):\n%s", d)
	}
	for _, c := range cat.Circulars {
		day := time.Date(2025, 3, 15, 0, 0, 0, 0, time.UTC)
		open := c.CommentsOpen(day)
		if open != (c.Slug == "rbi-2025-03-01-paper") {
			t.Errorf("%s: CommentsOpen(2025-03-15) = %v", c.Slug, open)
		}
	}
}

func TestLoad_ConsultationProblems(t *testing.T) {
	for _, tt := range []struct {
		name  string
		extra map[string]string
		want  string
	}{
		{"commentsDue on a circular", map[string]string{"plain": "commentsDue: 2025-03-01\n"},
			`content/circulars/rbi-2025-02-01-plain.md:11: commentsDue: only a draft, discussion paper or consultation paper asks for comments, and documentType is "circular"`},
		{"commentsDue before publication", map[string]string{"later": "commentsDue: 2025-06-30\n"},
			"content/circulars/rbi-2025-07-01-later.md:11: commentsDue: 2025-06-30 is before publishedDate"},
		{"commentsDue not a date", map[string]string{"later": "commentsDue: soon\n"},
			`content/circulars/rbi-2025-07-01-later.md:11: commentsDue: bad date "soon"`},
		{"finalOf not a draft", map[string]string{"second": "finalOf: rbi-2025-02-01-plain\n"},
			"content/circulars/rbi-2025-08-01-second.md:11: finalOf: rbi-2025-02-01-plain is a circular, not a draft, discussion paper or consultation paper"},
		{"finalOf unknown", map[string]string{"second": "finalOf: rbi-nope\n"},
			"content/circulars/rbi-2025-08-01-second.md:11: finalOf: refers to unknown circular rbi-nope"},
		{"finalOf itself", map[string]string{"second": "finalOf: rbi-2025-08-01-second\n"},
			"content/circulars/rbi-2025-08-01-second.md:11: finalOf: a circular cannot finalise itself"},
		{"finalOf a later draft", map[string]string{"plain": "finalOf: rbi-2025-03-01-paper\n"},
			"content/circulars/rbi-2025-02-01-plain.md:11: finalOf: rbi-2025-03-01-paper was published on 2025-03-01, after this circular, so this cannot be its final version"},
		{"finalOf on a draft", map[string]string{"later": "finalOf: rbi-2025-01-10-draft\n"},
			"content/circulars/rbi-2025-07-01-later.md:11: finalOf: a Consultation paper cannot finalise a draft"},
		{"finalOf an unpublished draft", map[string]string{"paper": "published: false\n", "second": "finalOf: rbi-2025-03-01-paper\n"},
			"content/circulars/rbi-2025-08-01-second.md:11: finalOf: refers to circular rbi-2025-03-01-paper, which is not published yet"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadFS(consultationFiles(tt.extra), "content", nil)
			var problems Problems
			if !errors.As(err, &problems) {
				t.Fatalf("err = %v, want problems", err)
			}
			if !strings.Contains(problems.Error(), tt.want) {
				t.Errorf("problems:\n%v\nwant one containing %q", problems, tt.want)
			}
		})
	}
}
