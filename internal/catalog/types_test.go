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
