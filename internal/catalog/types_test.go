package catalog

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestJSON_AbsentIsNull checks the one rule of every entity's JSON: each
// field is present; an absent optional value is null and a list is [].
func TestJSON_AbsentIsNull(t *testing.T) {
	for _, v := range []any{Circular{}, NewsItem{}, Company{}, Regulation{}, Network{}, SibosEvent{}, Event{}, PaymentBody{}, Ad{}, Video{}} {
		typ := reflect.TypeOf(v)
		t.Run(typ.Name(), func(t *testing.T) {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			for _, f := range reflect.VisibleFields(typ) {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if f.Anonymous || name == "" || name == "-" {
					continue
				}
				raw, ok := got[name]
				if !ok {
					t.Errorf("%s is left out", name)
					continue
				}
				var want string
				switch {
				case f.Type == reflect.TypeFor[OptString](), f.Type == reflect.TypeFor[OptInt](), f.Type.Kind() == reflect.Pointer:
					want = "null"
				case f.Type.Kind() == reflect.Slice:
					want = "[]"
				default:
					continue
				}
				if string(raw) != want {
					t.Errorf("%s = %s, want %s", name, raw, want)
				}
			}
			if _, ok := got["path"]; ok {
				t.Error("the file's path is in the JSON")
			}
		})
	}
	t.Run("Values", func(t *testing.T) {
		b, _ := json.Marshal(SibosEvent{Theme: "Next", ExpectedAttendees: 10000, KeyTopics: TextList{"AI"},
			StartDate: &Date{}, Entry: Entry{Path: "content/sibos/x.md"}})
		for _, want := range []string{`"theme":"Next"`, `"expectedAttendees":10000`, `"keyTopics":["AI"]`, `"startDate":"0001-01-01"`} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s lacks %s", b, want)
			}
		}
	})
}

func TestOptional_UnmarshalJSON(t *testing.T) {
	var v struct {
		S OptString `json:"s"`
		N OptInt    `json:"n"`
	}
	v.S, v.N = "old", 9
	if err := json.Unmarshal([]byte(`{"s":null,"n":null}`), &v); err != nil || v.S != "" || v.N != 0 {
		t.Errorf("null: %+v, %v; want the zero values", v, err)
	}
	if err := json.Unmarshal([]byte(`{"s":"x","n":3}`), &v); err != nil || v.S != "x" || v.N != 3 {
		t.Errorf("values: %+v, %v", v, err)
	}
	if err := json.Unmarshal([]byte(`{"n":"3"}`), &v); err == nil {
		t.Error("a string read as OptInt")
	}
}

// FuzzQuoteJSON checks the optional types' and text lists' JSON against
// encoding/json's, for any text: plain text takes quoteJSON's fast path,
// the rest encoding/json.
func FuzzQuoteJSON(f *testing.F) {
	for _, s := range []string{"", "RBI/2025-26/101", `a "quoted" \\ word`, "<b>&amp;</b>", "tab\there", "नियम", "\u2028", "\x7f", "\xff"} {
		f.Add(s, "next")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		want, _ := json.Marshal(struct {
			S  *string  `json:"s"`
			L  []string `json:"l"`
			N  *int     `json:"n"`
			NL []string `json:"nl"`
		}{S: nonEmpty(a), L: []string{a, b}, N: nil, NL: []string{}})
		got, err := json.Marshal(struct {
			S  OptString `json:"s"`
			L  TextList  `json:"l"`
			N  OptInt    `json:"n"`
			NL TextList  `json:"nl"`
		}{S: OptString(a), L: TextList{a, b}})
		if err != nil || string(got) != string(want) {
			t.Errorf("%q, %q: got %s (%v), want %s", a, b, got, err, want)
		}
		n := len(a) - len(b)
		wantN, _ := json.Marshal(n)
		if n == 0 {
			wantN = []byte("null")
		}
		if gotN, _ := OptInt(n).MarshalJSON(); string(gotN) != string(wantN) {
			t.Errorf("OptInt(%d) = %s, want %s", n, gotN, wantN)
		}
	})
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// BenchmarkCircularJSON encodes a circular as the build's views do
// (render.EncodeViews), most of its fields optional text.
func BenchmarkCircularJSON(b *testing.B) {
	c := Circular{Entry: Entry{ID: "rbi-2025-26-101", Slug: "rbi-2025-26-101"}, Title: "Master Direction on Know Your Customer, amended",
		CircularNumber: "RBI/2025-26/101", Source: "RBI", Summary: "Banks must update the KYC records of high-risk customers every two years.",
		OfficialURL: "https://www.rbi.org.in/Scripts/NotificationUser.aspx?Id=12345", SourceKind: "official", Verification: "verified",
		Supersedes: TextList{"rbi-2016-17-11", "rbi-2018-19-7"}, SupersededBy: TextList{},
		EntityImpact: List[EntityImpact]{{EntityType: "Bank", ImpactLevel: "high"}, {EntityType: "NBFC", ImpactLevel: "medium"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(c); err != nil {
			b.Fatal(err)
		}
	}
}
