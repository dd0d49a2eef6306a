package catalog

import (
	"encoding/json"
	"time"
)

// Date is a calendar date without a time of day, written YYYY-MM-DD.
type Date struct{ time.Time }

const dateLayout = "2006-01-02"

func (d Date) String() string { return d.Format(dateLayout) }

func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// MarshalJSON writes the date as "YYYY-MM-DD" too: without it the embedded
// time.Time's MarshalJSON wins over MarshalText.
func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	return d.UnmarshalText([]byte(s))
}

func (d *Date) UnmarshalText(b []byte) error {
	t, err := time.Parse(dateLayout, string(b))
	d.Time = t
	return err
}

// Day is the calendar day of t in UTC, at midnight UTC.
func Day(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// DaysEnding returns the first and last calendar day (midnight UTC) of the
// n days ending on now's date in UTC: that date and the n-1 before it.
func DaysEnding(now time.Time, n int) (from, to time.Time) {
	to = Day(now)
	return to.AddDate(0, 0, -(n - 1)), to
}
