package catalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// circularFile is a complete circular published on date with extra front
// matter lines.
func circularFile(date string, extra ...string) *fstest.MapFile {
	lines := strings.Join(extra, "")
	// Its sourceUrl is a report unless the extra lines say what it is or
	// state a verification: a circular with an unlabelled source and no
	// verification is refused (verification.go). Appended last, so that
	// the extra lines keep their numbers.
	if !strings.Contains(lines, "sourceKind:") && !strings.Contains(lines, "verification:") {
		lines += "sourceKind: report\n"
	}
	return &fstest.MapFile{Data: fmt.Appendf(nil,
		"---\ntitle: t\nsource: RBI\ncategory: UPI\npublishedDate: %s\nimpactLevel: low\nentityImpact:\n  PSP: low\nsourceUrl: https://example.org/\n%s---\nbody\n",
		date, lines)}
}

// problemsOf loads fsys and returns its problems as strings (nil when it
// loads).
func problemsOf(t *testing.T, fsys fstest.MapFS) (*Catalog, []string) {
	t.Helper()
	cat, err := LoadFS(fsys, "content", nil)
	if err == nil {
		return cat, nil
	}
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("LoadFS: %v", err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return nil, out
}

func TestLoad_Supersession(t *testing.T) {
	t.Run("links both ways", func(t *testing.T) {
		cat, problems := problemsOf(t, fstest.MapFS{
			"circulars/old-a.md": circularFile("2019-01-01"),
			"circulars/old-b.md": circularFile("2020-01-01"),
			"circulars/mid.md":   circularFile("2021-01-01", "supersedes:\n  - old-a\n"),
			"circulars/new.md":   circularFile("2026-04-21", "supersedes:\n  - old-a\n  - old-b\n"),
		})
		if problems != nil {
			t.Fatal(problems)
		}
		got := map[string][2][]string{}
		for _, c := range cat.Circulars {
			got[c.Slug] = [2][]string{c.Supersedes, c.SupersededBy}
		}
		want := map[string][2][]string{
			"new":   {{"old-a", "old-b"}, nil},
			"mid":   {{"old-a"}, nil},
			"old-b": {nil, {"new"}},
			"old-a": {nil, {"new", "mid"}}, // newest first
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("supersedes, supersededBy (-want +got):\n%s", diff)
		}
		if !cat.Circulars[3].Superseded() || cat.Circulars[0].Superseded() {
			t.Error("Superseded disagrees with SupersededBy")
		}
	})

	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		want []string
	}{
		{"ErrUnknownCircular", fstest.MapFS{
			"circulars/new.md": circularFile("2026-01-01", "supersedes:\n  - nowhere\n"),
		}, []string{"content/circulars/new.md:10: supersedes: refers to unknown circular nowhere"}},
		{"ErrItself", fstest.MapFS{
			"circulars/new.md": circularFile("2026-01-01", "supersedes:\n  - new\n"),
		}, []string{"content/circulars/new.md:10: supersedes: a circular cannot supersede itself"}},
		{"ErrNewerTarget", fstest.MapFS{
			"circulars/a.md": circularFile("2020-01-01", "supersedes:\n  - b\n"),
			"circulars/b.md": circularFile("2021-01-01"),
		}, []string{"content/circulars/a.md:10: supersedes: b was published after this circular (2021-01-01), so this cannot supersede it"}},
		{"ErrCycle", fstest.MapFS{
			// same dates, so only the cycle is wrong
			"circulars/a.md": circularFile("2020-01-01", "supersedes:\n  - b\n"),
			"circulars/b.md": circularFile("2020-01-01", "supersedes:\n  - c\n"),
			"circulars/c.md": circularFile("2020-01-01", "supersedes:\n  - a\n"),
		}, []string{"content/circulars/a.md:10: supersedes: supersession cycle: a → b → c → a"}},
		{"ErrUnpublishedTarget", fstest.MapFS{
			"circulars/a.md": circularFile("2021-01-01", "supersedes:\n  - b\n"),
			"circulars/b.md": circularFile("2020-01-01", "published: false\n"),
		}, []string{"content/circulars/a.md:10: supersedes: refers to circular b, which is not published yet"}},
		{"ErrNotAList", fstest.MapFS{
			"circulars/a.md": circularFile("2021-01-01", "supersedes: b\n"),
		}, []string{"content/circulars/a.md:10: supersedes: must be a list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := problemsOf(t, tc.fsys)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoad_ComplianceDates(t *testing.T) {
	t.Run("sorted by date", func(t *testing.T) {
		cat, problems := problemsOf(t, fstest.MapFS{
			"circulars/a.md": circularFile("2026-01-01", "complianceDates:\n  - date: 2027-01-01\n    what: Second\n  - {date: 2026-07-01, what: First}\n"),
		})
		if problems != nil {
			t.Fatal(problems)
		}
		var got []string
		for _, d := range cat.Circulars[0].ComplianceDates {
			got = append(got, d.Date.String()+" "+d.What)
		}
		if diff := cmp.Diff([]string{"2026-07-01 First", "2027-01-01 Second"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if n := len(cat.Circulars[0].Dates()); n != 3 {
			t.Errorf("Dates() has %d dates, want published + 2", n)
		}
	})
	for _, tc := range []struct {
		name, lines string
		want        []string
	}{
		{"ErrBadDate", "complianceDates:\n  - {date: 2026-13-01, what: x}\n", []string{
			"content/circulars/a.md:11: complianceDates: bad date \"2026-13-01\" (want YYYY-MM-DD)",
			"content/circulars/a.md:11: complianceDates: a compliance date needs a date"}},
		{"ErrNoWhat", "complianceDates:\n  - {date: 2026-03-01}\n", []string{
			"content/circulars/a.md:11: complianceDates: a compliance date needs what: what must be done by then"}},
		{"ErrUnknownKey", "complianceDates:\n  - {date: 2026-03-01, what: x, by: y}\n", []string{
			"content/circulars/a.md:11: complianceDates: unknown key \"by\" in a compliance date (want date and what)"}},
		{"ErrBeforePublished", "complianceDates:\n  - {date: 2025-03-01, what: x}\n", []string{
			"content/circulars/a.md:10: complianceDates: 2025-03-01 is before publishedDate"}},
		{"ErrNotAList", "complianceDates: 2026-03-01\n", []string{
			"content/circulars/a.md:10: complianceDates: must be a list of {date: YYYY-MM-DD, what: text}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := problemsOf(t, fstest.MapFS{"circulars/a.md": circularFile("2026-01-01", tc.lines)})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoad_Unpublished(t *testing.T) {
	// What regpulse ingest writes: title, date, links, source, number.
	ingested := &fstest.MapFile{Data: []byte("---\npublished: false\ntitle: Master Direction on something\ncircularNumber: RBI/2026-27/12\nsource: RBI\npublishedDate: 2026-05-02\nofficialUrl: https://rbi.org.in/x\nsourceUrl: https://rbi.org.in/x\n---\n")}
	fsys := fstest.MapFS{
		"circulars/done.md":     circularFile("2026-01-01"),
		"circulars/ingested.md": ingested,
	}
	cat, problems := problemsOf(t, fsys)
	if problems != nil {
		t.Fatalf("an incomplete unpublished file is not an error: %v", problems)
	}
	if len(cat.Circulars) != 1 || cat.Circulars[0].Slug != "done" {
		t.Errorf("published circulars: %+v", cat.Circulars)
	}
	if len(cat.Unpublished) != 1 || cat.Unpublished[0].Slug != "ingested" || cat.Unpublished[0].CircularNumber != "RBI/2026-27/12" {
		t.Errorf("unpublished: %+v", cat.Unpublished)
	}
	var pending []string
	for _, p := range cat.Pending {
		pending = append(pending, p.String())
	}
	want := []string{
		"content/circulars/ingested.md:2: category: required field is missing",
		"content/circulars/ingested.md:2: documentType: required field is missing",
		"content/circulars/ingested.md:2: entityImpact: required field is missing",
		"content/circulars/ingested.md:2: impactLevel: required field is missing",
		"content/circulars/ingested.md:9: body: the text below the front matter is empty",
	}
	if diff := cmp.Diff(want, pending); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	if err := cat.IncludeUnpublished(); err == nil {
		t.Error("IncludeUnpublished published an incomplete file")
	}

	t.Run("wrong values are still errors", func(t *testing.T) {
		_, got := problemsOf(t, fstest.MapFS{"circulars/x.md": {Data: []byte("---\npublished: false\ntitle: t\nsource: XYZ\npublishedDate: 2026-05-02\nsourceUrl: https://example.org/\n---\n")}})
		want := []string{`content/circulars/x.md:4: source: unknown value "XYZ" (allowed: RBI, NPCI, SEBI, IRDAI, PFRDA, PRB, IDRBT, other)`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})

	t.Run("complete, it can be previewed", func(t *testing.T) {
		cat, problems := problemsOf(t, fstest.MapFS{
			"circulars/done.md":  circularFile("2026-01-01"),
			"circulars/ready.md": circularFile("2026-02-01", "published: false\ndocumentType: draft\nsupersedes:\n  - done\n"),
		})
		if problems != nil {
			t.Fatal(problems)
		}
		if cat.Circulars[0].Superseded() {
			t.Error("an unpublished circular supersedes a published one before it is published")
		}
		if err := cat.IncludeUnpublished(); err != nil {
			t.Fatal(err)
		}
		if len(cat.Circulars) != 2 || cat.Circulars[0].Slug != "ready" || !cat.Circulars[1].Superseded() {
			t.Errorf("after IncludeUnpublished: %+v", cat.Circulars)
		}
	})
}

func TestBinding(t *testing.T) {
	for _, typ := range DocumentTypes {
		if DocumentTypeLabel(typ) == "" {
			t.Errorf("document type %q has no label", typ)
		}
	}
	var nonBinding []string
	for _, typ := range DocumentTypes {
		if !Binding(typ) {
			nonBinding = append(nonBinding, typ)
		}
	}
	if diff := cmp.Diff([]string{"draft", "discussion-paper", "consultation-paper", "press-release", "policy"}, nonBinding); diff != "" {
		t.Errorf("non-binding types (-want +got):\n%s", diff)
	}
}
