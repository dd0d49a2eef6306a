package cmsrepo

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/cms"
)

func TestLayoutFile(t *testing.T) {
	l, err := newLayout("", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		a    area
		ok   bool
	}{
		{"content/circulars/a.md", areaContent, true},
		{"content/a.md", areaMedia, false},
		{"media/a.png", areaMedia, true},
		{"media/a.png", areaAny, true},
		{"media", areaMedia, false},
		{"contented/a.md", areaContent, false},
		{"content/../media/a.png", areaAny, false},
		{"../content/a.md", areaContent, false},
		{"/content/a.md", areaContent, false},
		{"content/a.md/", areaContent, false},
		{"content/.git/x", areaContent, false},
		{"content/.Git/x", areaContent, false},
		{"content/.git ./x", areaContent, false},
		{"content/x.git/y", areaContent, true},
		{"content\\a.md", areaContent, false},
		{"content/a\x00.md", areaContent, false},
		{"content/a\n.md", areaContent, false},
		{"", areaContent, false},
	} {
		err := l.file(c.path, c.a)
		if (err == nil) != c.ok {
			t.Errorf("%q: ok=%v, err=%v", c.path, c.ok, err)
		}
	}
}

func TestFrontMatterTitle(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"---\ntitle: \"A: b\"\n---\n", "A: b"},
		{"---\ndate: x\ntitle: Plain\n---\n", "Plain"},
		{"---\r\ntitle: 'CRLF'\r\n---\r\n", "CRLF"},
		{"+++\ntitle = \"Toml\"\n+++\n", "Toml"},
		{"---\nsubtitle: no\n---\ntitle: body\n", ""},
		{"no front matter", ""},
	} {
		if got := frontMatterTitle([]byte(c.raw)); got != c.want {
			t.Errorf("%q: got %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestRedactURL(t *testing.T) {
	got := redactURL(`Get "https://x-access-token:ghs_secret@github.com/o/r.git/info/refs": 403`)
	if got != `Get "https://***@github.com/o/r.git/info/refs": 403` {
		t.Error(got)
	}
}

func TestIsAuthor(t *testing.T) {
	c := &object.Commit{Author: object.Signature{Name: "Rita Reviewer", Email: "Rita@Example.org"}}
	noMail := &object.Commit{Author: object.Signature{Name: "Rita Reviewer"}}
	signed := &object.Commit{Author: c.Author, Message: withAccount("Update circulars x", rita)}
	for _, x := range []struct {
		who  cms.Person
		c    *object.Commit
		want bool
	}{
		{rita, c, true},
		{ravi, c, false},
		{cms.Person{Name: "Rita Reviewer"}, noMail, true},
		{cms.Person{Name: "Rita Reviewer"}, c, false},
		{rita, noMail, false},
		// The account trailer wins over a changed e-mail or name.
		{cms.Person{ID: "3", Name: "Rita R.", Email: "rita@new.example", Role: cms.RoleReviewer}, signed, true},
		{cms.Person{ID: "4", Name: "Rita Reviewer", Email: "other@example.org", Role: cms.RoleReviewer}, signed, false},
	} {
		if got := isAuthor(x.who, x.c); got != x.want {
			t.Errorf("%v / %v: got %v", x.who, x.c.Author, got)
		}
	}
}

func TestNewest(t *testing.T) {
	paths := []string{
		"content/circulars/rbi-2019-05-01-a.md",
		"content/circulars/npci-2024-01-02-b.md",
		"content/circulars/rbi-2024-01-02-a.md",
		"content/circulars/sebi-2021-07-09-c.md",
		"content/circulars/undated.md",
	}
	for _, tc := range []struct {
		max  int
		want []string
	}{
		{5, paths},
		{9, paths},
		{3, []string{"content/circulars/npci-2024-01-02-b.md", "content/circulars/rbi-2024-01-02-a.md", "content/circulars/sebi-2021-07-09-c.md"}},
		{1, []string{"content/circulars/npci-2024-01-02-b.md"}},
	} {
		if diff := cmp.Diff(tc.want, newest(paths, tc.max)); diff != "" {
			t.Errorf("newest(%d) (-want +got):\n%s", tc.max, diff)
		}
	}
}
