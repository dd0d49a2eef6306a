package catalog

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestLoad_HindiVersion(t *testing.T) {
	fsys := fstest.MapFS{
		"circulars/rbi-2021-04-01-a.md": lifecycleCircular("2021-04-01",
			"hindiVersion:\n  url: \"https://rbi.org.in/hi/web/rbi/-/notifications/a\"\n  number: \"भारिबैं/2020-21/60\"\n"),
		"circulars/rbi-2021-04-02-b.md": lifecycleCircular("2021-04-02", "hindiVersion:\n  url: \"https://website.rbi.org.in/hi/b\"\n"),
		"circulars/rbi-2025-11-28-c.md": lifecycleCircular("2025-11-28", ""),
	}
	cat, err := LoadFS(fsys, "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*HindiVersion{
		"rbi-2021-04-01-a": {URL: "https://rbi.org.in/hi/web/rbi/-/notifications/a", Number: "भारिबैं/2020-21/60"},
		"rbi-2021-04-02-b": {URL: "https://website.rbi.org.in/hi/b"},
		"rbi-2025-11-28-c": nil,
	}
	for _, c := range cat.Circulars {
		if diff := cmp.Diff(want[c.Slug], c.HindiVersion); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.Slug, diff)
		}
	}
}

func TestLoad_HindiVersionProblems(t *testing.T) {
	const file = "content/circulars/rbi-2021-04-01-a.md:"
	for _, tt := range []struct {
		name, extra, want string
	}{
		{"not a map", "hindiVersion: \"https://rbi.org.in/hi/a\"\n", file + "9: hindiVersion: must be a map {url, number}"},
		{"no url", "hindiVersion:\n  number: \"भारिबैं/2020-21/60\"\n", file + "10: hindiVersion.url: required field is missing"},
		{"not a URL", "hindiVersion:\n  url: \"rbi.org.in/hi/a\"\n", file + "10: hindiVersion.url: not a valid http(s) URL"},
		{"http", "hindiVersion:\n  url: \"http://rbi.org.in/hi/a\"\n", file + "10: hindiVersion.url: must be an https address"},
		{"another site", "hindiVersion:\n  url: \"https://example.com/rbi/hi/a\"\n", file + "10: hindiVersion.url: example.com is not on RBI's own site (rbi.org.in)"},
		{"a look-alike host", "hindiVersion:\n  url: \"https://notrbi.org.in/a\"\n", "hindiVersion.url: notrbi.org.in is not on RBI's own site"},
		{"unknown field", "hindiVersion:\n  url: \"https://rbi.org.in/hi/a\"\n  date: 2021-04-01\n", file + "11: hindiVersion.date: unknown field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"circulars/rbi-2021-04-01-a.md": lifecycleCircular("2021-04-01", tt.extra)}
			_, err := LoadFS(fsys, "content", nil)
			var problems Problems
			if !errors.As(err, &problems) {
				t.Fatalf("err = %v, want problems", err)
			}
			if !strings.Contains(problems.Error(), tt.want) {
				t.Errorf("problems:\n%v\nwant one containing %q", problems, tt.want)
			}
		})
	}
	t.Run("a Hindi circular", func(t *testing.T) {
		hindi := "---\ntitle: \"भुगतान एग्रीगेटरों का विनियमन\"\nsource: RBI\ncategory: \"Payment Systems\"\npublishedDate: 2021-04-01\nimpactLevel: medium\nentityImpact: {PSP: high}\nsourceUrl: \"https://rbi.org.in/hi/x\"\n" +
			"hindiVersion:\n  url: \"https://rbi.org.in/hi/a\"\n---\nसभी भुगतान एग्रीगेटर इस परिपत्र का पालन करेंगे।\n"
		_, err := LoadFS(fstest.MapFS{"circulars/rbi-2021-04-01-h.md": {Data: []byte(hindi)}}, "content", nil)
		if err == nil || !strings.Contains(err.Error(), "rbi-2021-04-01-h.md:9: hindiVersion: the circular's own text is Hindi") {
			t.Errorf("err = %v, want the Hindi circular's hindiVersion refused", err)
		}
	})
}
