package i18n

import (
	"testing"
	"time"
)

func TestDate(t *testing.T) {
	day := time.Date(2026, time.February, 2, 15, 4, 0, 0, time.UTC) // a Monday
	for _, c := range []struct{ code, layout, want string }{
		{"en", "2 January 2006", "2 February 2026"},
		{"hi", "2 January 2006", "2 फ़रवरी 2026"},
		{"hi", "Monday, 2 January 2006, 15:04 UTC", "सोमवार, 2 फ़रवरी 2026, 15:04 UTC"},
		{"hi", "2006-01-02", "2026-02-02"},
		{"xx", "January 2006", "February 2026"}, // no such language: English
	} {
		if got := Date(c.code, day, c.layout); got != c.want {
			t.Errorf("Date(%s, %q) = %q, want %q", c.code, c.layout, got, c.want)
		}
	}
}
