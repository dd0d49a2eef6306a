package schedule

import (
	"math/rand/v2"
	"time"
)

// IST is Indian Standard Time, a fixed +05:30 with no daylight saving:
// a fixed zone needs no tzdata on the machine (a function has none).
var IST = time.FixedZone("IST", 5*3600+30*60)

// Busy hours, IST: the regulators publish on working days, mostly in
// office hours and into the evening.
const (
	BusyFrom = 9  // 09:00 IST
	BusyTo   = 22 // until 22:00 IST
)

// Defaults of a source's cadence (feeds.yaml may set its own).
const (
	DefaultBusy   = 15 * time.Minute
	DefaultQuiet  = time.Hour
	DefaultJitter = 0.1
	// MaxBackoff caps the wait after failures: a source down for a day
	// is still tried several times that day.
	MaxBackoff = 6 * time.Hour
)

// Cadence is how often one source is polled: Busy in the busy hours of
// working days, Quiet otherwise, each wait moved by up to ±Jitter of
// itself so many instances and sources do not poll in step.
type Cadence struct {
	Busy, Quiet time.Duration
	Jitter      float64
	// Holidays are days (their IST date) treated as weekends.
	Holidays []time.Time
}

// withDefaults fills what c leaves zero.
func (c Cadence) withDefaults() Cadence {
	if c.Busy <= 0 {
		c.Busy = DefaultBusy
	}
	if c.Quiet <= 0 {
		c.Quiet = DefaultQuiet
	}
	if c.Jitter < 0 || c.Jitter >= 1 {
		c.Jitter = 0
	}
	return c
}

// busy reports whether t falls in the busy hours of a working day (IST).
func (c Cadence) busy(t time.Time) bool {
	t = t.In(IST)
	return c.workingDay(t) && t.Hour() >= BusyFrom && t.Hour() < BusyTo
}

func (c Cadence) workingDay(t time.Time) bool {
	t = t.In(IST)
	if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	y, m, d := t.Date()
	for _, h := range c.Holidays {
		hy, hm, hd := h.In(IST).Date()
		if hy == y && hm == m && hd == d {
			return false
		}
	}
	return true
}

// nextBusyStart is the first start of busy hours after t (at most two
// weeks on: a longer run of holidays is not looked through).
func (c Cadence) nextBusyStart(t time.Time) time.Time {
	t = t.In(IST)
	day := time.Date(t.Year(), t.Month(), t.Day(), BusyFrom, 0, 0, 0, IST)
	for i := 0; i < 15; i++ {
		if s := day.AddDate(0, 0, i); s.After(t) && c.workingDay(s) {
			return s
		}
	}
	return time.Time{}
}

// Next is when a source polled well at last is next due: last plus Busy
// or Quiet (which one last's hour decides), jittered; a quiet wait that
// would run past the start of busy hours ends at that start instead
// (jittered later only), so the morning's first items are not an hour
// late.
func (c Cadence) Next(last time.Time, rnd *rand.Rand) time.Time {
	c = c.withDefaults()
	if c.busy(last) {
		return last.Add(jitter(c.Busy, c.Jitter, rnd))
	}
	next := last.Add(jitter(c.Quiet, c.Jitter, rnd))
	if s := c.nextBusyStart(last); !s.IsZero() && s.Before(next) {
		if rnd != nil {
			s = s.Add(time.Duration(rnd.Float64() * c.Jitter * float64(c.Busy)))
		}
		return s
	}
	return next
}

// Backoff is the wait after errors failures in a row: Busy, doubled at
// each further failure, capped at MaxBackoff; 0 for none.
func (c Cadence) Backoff(errors int) time.Duration {
	c = c.withDefaults()
	if errors <= 0 {
		return 0
	}
	d := c.Busy
	for i := 1; i < errors && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// After is when a source last polled at last, errors failures in a row
// since its last success, is next due: its cadence, or its back-off when
// that is longer (jittered too).
func (c Cadence) After(last time.Time, errors int, rnd *rand.Rand) time.Time {
	c = c.withDefaults()
	next := c.Next(last, rnd)
	if b := c.Backoff(errors); b > 0 {
		if t := last.Add(jitter(b, c.Jitter, rnd)); t.After(next) {
			return t
		}
	}
	return next
}

// jitter is d moved by a uniform ±j of itself.
func jitter(d time.Duration, j float64, rnd *rand.Rand) time.Duration {
	return time.Duration(float64(d) * (1 + j*(2*unit(rnd)-1)))
}

// unit is a uniform number in [0, 1), 0.5 without rnd (no jitter).
func unit(rnd *rand.Rand) float64 {
	if rnd == nil {
		return 0.5
	}
	return rnd.Float64()
}
