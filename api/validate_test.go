package api

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// fieldRuleCase is a case of testdata/field-rules.json, which the forms'
// test (islands/src/lib/forms.test.ts) reads too: both must agree.
type fieldRuleCase struct {
	Rule, Value, Message, Why string
}

func TestCheckRule_Cases(t *testing.T) {
	b, err := os.ReadFile("testdata/field-rules.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []fieldRuleCase }
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range file.Cases {
		r, ok := rules[c.Rule]
		if !ok {
			t.Fatalf("%s: no rule %q", c.Why, c.Rule)
		}
		seen[c.Rule] = true
		v := c.Value
		if r.Trim {
			v = strings.TrimSpace(v)
		}
		got, _ := checkRule(r, v)
		if got != c.Message {
			t.Errorf("%s, %s (%.20q): %q, want %q", c.Rule, c.Why, c.Value, got, c.Message)
		}
	}
	for name := range rules {
		if !seen[name] {
			t.Errorf("rule %s has no case in testdata/field-rules.json", name)
		}
	}
}
