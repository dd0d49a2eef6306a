package schedule

import (
	"math/rand/v2"
	"testing"
	"time"
)

// ist is a time on the IST wall clock of the week of Monday 30 Nov 2026.
func ist(day, hh, mm int) time.Time { return time.Date(2026, 11, 30+day, hh, mm, 0, 0, IST) }

// TestCadence_Next: busy 09:00–22:00 IST on working days (Mon–Fri, not
// a holiday), quiet otherwise; a quiet wait stops at the next busy
// start. Without a rand, no jitter.
func TestCadence_Next(t *testing.T) {
	holiday := ist(1, 0, 0) // Tuesday 1 Dec, a made-up holiday
	c := Cadence{Busy: 15 * time.Minute, Quiet: time.Hour, Jitter: DefaultJitter, Holidays: []time.Time{holiday}}
	tests := []struct {
		name       string
		last, want time.Time
	}{
		{"Mon 08:30 quiet", ist(0, 8, 30), ist(0, 9, 0)},
		{"Mon 08:59 quiet, up to the busy start", ist(0, 8, 59), ist(0, 9, 0)},
		{"Mon 09:00 busy", ist(0, 9, 0), ist(0, 9, 15)},
		{"Mon 13:07 busy", ist(0, 13, 7), ist(0, 13, 22)},
		{"Mon 21:59 busy", ist(0, 21, 59), ist(0, 22, 14)},
		{"Mon 22:00 quiet", ist(0, 22, 0), ist(0, 23, 0)},
		{"Mon 23:30 quiet", ist(0, 23, 30), ist(1, 0, 30)},
		{"Tue holiday 10:00 quiet", ist(1, 10, 0), ist(1, 11, 0)},
		{"Tue holiday 08:30 quiet, no busy start", ist(1, 8, 30), ist(1, 9, 30)},
		{"Wed 08:45 quiet", ist(2, 8, 45), ist(2, 9, 0)},
		{"Fri 21:59 busy", ist(4, 21, 59), ist(4, 22, 14)},
		{"Sat 10:00 quiet", ist(5, 10, 0), ist(5, 11, 0)},
		{"Sun 08:30 quiet (no busy start)", ist(6, 8, 30), ist(6, 9, 30)},
		{"Sun 23:30 quiet, Mon's start", ist(6, 23, 30), ist(7, 0, 30)},
		{"Mon 08:10 in UTC terms", ist(7, 8, 10).UTC(), ist(7, 9, 0)},
	}
	for _, tt := range tests {
		got := c.Next(tt.last, nil)
		if !got.Equal(tt.want) {
			t.Errorf("%s: Next(%s) = %s, want %s", tt.name, tt.last.In(IST).Format("Mon 15:04"), got.In(IST).Format("Mon 15:04"), tt.want.In(IST).Format("Mon 15:04"))
		}
	}
}

// TestCadence_Jitter: a seeded rand moves each wait by at most ±10%,
// and does move it; the busy start is only ever later.
func TestCadence_Jitter(t *testing.T) {
	c := Cadence{Jitter: DefaultJitter}
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		last   time.Time
		lo, hi time.Duration
	}{
		{ist(0, 10, 0), 13*time.Minute + 30*time.Second, 16*time.Minute + 30*time.Second},
		{ist(5, 10, 0), 54 * time.Minute, 66 * time.Minute},
		{ist(0, 8, 50), 10 * time.Minute, 10*time.Minute + 90*time.Second},
	} {
		seen := map[time.Duration]bool{}
		for range 1000 {
			d := c.Next(tt.last, rnd).Sub(tt.last)
			if d < tt.lo || d > tt.hi {
				t.Fatalf("Next(%s) waits %s, outside [%s, %s]", tt.last.Format("Mon 15:04"), d, tt.lo, tt.hi)
			}
			seen[d] = true
		}
		if len(seen) < 100 {
			t.Errorf("Next(%s): %d distinct waits in 1000, want jitter", tt.last.Format("Mon 15:04"), len(seen))
		}
	}
}

// TestCadence_Backoff: the wait doubles at each failure from Busy up to
// MaxBackoff, and After takes the cadence back once the errors reset.
func TestCadence_Backoff(t *testing.T) {
	c := Cadence{}
	want := []time.Duration{0, 15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 4 * time.Hour, 6 * time.Hour, 6 * time.Hour}
	for n, w := range want {
		if got := c.Backoff(n); got != w {
			t.Errorf("Backoff(%d) = %s, want %s", n, got, w)
		}
	}
	if got := c.Backoff(1000); got != MaxBackoff {
		t.Errorf("Backoff(1000) = %s", got)
	}
	last := ist(0, 10, 0) // busy: cadence 15 min
	for _, tt := range []struct {
		errors int
		want   time.Duration
	}{{0, 15 * time.Minute}, {1, 15 * time.Minute}, {2, 30 * time.Minute}, {3, time.Hour}, {5, 4 * time.Hour}, {9, 6 * time.Hour}, {0, 15 * time.Minute}} {
		if got := c.After(last, tt.errors, nil).Sub(last); got != tt.want {
			t.Errorf("After(%d errors) waits %s, want %s", tt.errors, got, tt.want)
		}
	}
	// Quiet hours: one failure waits no less than the cadence.
	if got := c.After(ist(5, 10, 0), 1, nil).Sub(ist(5, 10, 0)); got != time.Hour {
		t.Errorf("Saturday, 1 error: waits %s, want 1h", got)
	}
}
