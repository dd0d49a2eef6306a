package catalog

import (
	"encoding/json"
	"testing"
)

// TestJSON_AbsentIsNull checks the one rule of every entity's JSON: each
// field is present; an absent optional value is null and a list is [].
func TestJSON_AbsentIsNull(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"EmptyCircular", Circular{Entry: Entry{ID: "i", Slug: "s", Path: "content/x.md"}},
			`{"id":"i","slug":"s","circularNumber":null,"title":"","titleIsDescriptive":false,"content":"","summary":null,` +
				`"source":"","category":"","publishedDate":"0001-01-01","effectiveDate":null,"impactLevel":"","entityImpact":[],` +
				`"officialUrl":null,"sourceUrl":"","additionalSourceUrls":[]}`},
		{"Values", SibosEvent{Theme: "Next", ExpectedAttendees: 10000, KeyTopics: TextList{"AI"}},
			`{"id":"","slug":"","title":"","year":0,"theme":"Next","description":"","status":"","startDate":null,"endDate":null,` +
				`"location":null,"venue":null,"expectedAttendees":10000,"registrationOpen":false,"keyTopics":["AI"],"speakers":[],` +
				`"websiteUrl":null,"sourceUrl":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
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
