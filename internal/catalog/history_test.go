package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func day(s string) Date {
	var d Date
	if err := d.UnmarshalText([]byte(s)); err != nil {
		panic(err)
	}
	return d
}

// texts writes a version's text as "id=text" lines, for comparisons.
func texts(spans []ProvisionSpan) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.ID + "=" + s.Text + "\n")
	}
	return b.String()
}

func TestBuildHistory(t *testing.T) {
	issued := []Provision{
		{ID: "1", Text: "one", Wording: "digest"},
		{ID: "2", Text: "two", Wording: "digest"},
		{ID: "3", Text: "three", Wording: "digest"},
	}
	versions := []DirectionVersion{
		{Date: day("2022-01-01"), Effects: List[Effect]{
			{Kind: EffectInserted, Provision: "2A", After: "2", Text: "two-a", Wording: "digest"},
			{Kind: EffectSubstituted, Provision: "3", Text: "three, amended"},
		}},
		{Date: day("2023-06-01"), Effects: List[Effect]{
			{Kind: EffectDeleted, Provision: "1"},
			{Kind: EffectInserted, Provision: "0", After: "", Text: "zero", Wording: "digest"},
		}},
		{Date: day("2024-03-15"), Draft: true, Effects: List[Effect]{{Kind: EffectDeleted, Provision: "2"}}},
		{Date: day("2025-01-01"), Effects: List[Effect]{
			{Kind: EffectRenumbered, Provision: "2A", To: "2B"},
			{Kind: EffectSubstituted, Provision: "2B", Text: "two-b"},
			{Kind: EffectInserted, Provision: "2A", After: "2", Text: "a new two-a", Wording: "official"},
		}},
	}
	spans, problems := BuildHistory(day("2021-08-27"), issued, versions)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	d := MasterDirection{IssuedDate: day("2021-08-27"), History: spans, Versions: versions}
	for _, tt := range []struct {
		on   string
		want string
	}{
		{"2021-08-26", ""},
		{"2021-08-27", "1=one\n2=two\n3=three\n"},
		{"2021-12-31", "1=one\n2=two\n3=three\n"},
		{"2022-01-01", "1=one\n2=two\n2A=two-a\n3=three, amended\n"},
		{"2023-06-01", "0=zero\n2=two\n2A=two-a\n3=three, amended\n"},
		{"2024-12-31", "0=zero\n2=two\n2A=two-a\n3=three, amended\n"}, // the draft applies nowhere
		{"2025-01-01", "0=zero\n2=two\n2A=a new two-a\n2B=two-b\n3=three, amended\n"},
	} {
		if diff := cmp.Diff(tt.want, texts(d.At(day(tt.on)))); diff != "" {
			t.Errorf("At(%s) (-want +got):\n%s", tt.on, diff)
		}
	}
	// 2B is 2A renumbered: one provision, its texts in order.
	var lineage []string
	var key = -1
	for _, s := range spans {
		if s.ID == "2B" {
			key = s.Key
		}
	}
	for _, s := range spans {
		if s.Key == key {
			lineage = append(lineage, s.ID+":"+string(s.Change)+":"+s.From.String())
		}
	}
	if diff := cmp.Diff([]string{"2A:inserted:2022-01-01", "2B:substituted:2025-01-01"}, lineage); diff != "" {
		t.Errorf("2B's spans (-want +got):\n%s", diff)
	}
}

func TestBuildHistory_Problems(t *testing.T) {
	issued := []Provision{{ID: "1", Text: "one"}, {ID: "2", Text: "two"}}
	versions := []DirectionVersion{{Date: day("2022-01-01"), Effects: List[Effect]{
		{Kind: EffectSubstituted, Provision: "9", Text: "x"},
		{Kind: EffectInserted, Provision: "1", After: "2", Text: "x"},
		{Kind: EffectInserted, Provision: "3", After: "7", Text: "x"},
		{Kind: EffectRenumbered, Provision: "1", To: "2"},
		{Kind: EffectDeleted, Provision: "2"},
		{Kind: EffectDeleted, Provision: "2"},
	}}}
	_, problems := BuildHistory(day("2021-01-01"), issued, versions)
	want := []EffectProblem{
		{0, 0, "provision 9 is not in force on 2022-01-01"},
		{0, 1, "provision 1 is already in force on 2022-01-01: substitute it, or renumber it first"},
		{0, 2, "after: provision 7 is not in force on 2022-01-01"},
		{0, 3, "to: provision 2 is already in force on 2022-01-01"},
		{0, 5, "provision 2 is not in force on 2022-01-01"},
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestProvisionAnchor(t *testing.T) {
	for id, want := range map[string]string{"3": "p-3", "3A": "p-3A", "38(c)": "p-38-c", "9.1(ii)": "p-9-1-ii", "Annex I.2": "p-Annex-I-2"} {
		if got := ProvisionAnchor(id); got != want {
			t.Errorf("ProvisionAnchor(%q) = %q, want %q", id, got, want)
		}
	}
}
