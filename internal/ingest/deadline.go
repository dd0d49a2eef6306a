package ingest

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"regpulse/internal/catalog"
)

// CommentsDeadline guesses a consultation's comment deadline from its
// text: the first date after a word for comments ("comments",
// "feedback", "suggestions", "views") that a deadline word introduces
// ("by", "on or before", "latest by", "not later than", "till", "until"),
// within the same stretch of text, or "the last date for comments is …".
// Dates are read as Indian regulators write them: "15 January 2026",
// "January 15, 2026", "15.01.2026" or "15/01/2026" (day first), and
// "2026-01-15". ok is false when no such date is found; a guess is for
// an editor to confirm (ingest flags it), never published as it is.
func CommentsDeadline(text string) (catalog.Date, bool) {
	s := strings.Join(strings.Fields(text), " ")
	for _, loc := range commentWord.FindAllStringIndex(s, -1) {
		rest := s[loc[1]:min(len(s), loc[1]+deadlineReach)]
		if m := deadlineDate.FindStringSubmatchIndex(rest); m != nil {
			if d, ok := parseDeadline(rest[m[2]:m[3]]); ok {
				return d, true
			}
		}
	}
	return catalog.Date{}, false
}

// deadlineReach is how far after a word for comments the deadline may
// be: a sentence's length ("Comments on the draft directions, with the
// paragraph they concern, may be sent by e-mail to … on or before …").
const deadlineReach = 300

const (
	monthName = `(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?`
	dayMonth  = `\d{1,2}(?:st|nd|rd|th)?\s+` + monthName + `,?\s+\d{4}`
	monthDay  = monthName + `\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}`
	numeric   = `\d{1,2}[./-]\d{1,2}[./-]\d{4}|\d{4}-\d{2}-\d{2}`
	aDate     = `(` + dayMonth + `|` + monthDay + `|` + numeric + `)`
)

var (
	commentWord = regexp.MustCompile(`(?i)\b(?:comments?|feedback|suggestions|views)\b`)
	// deadlineDate is a deadline word then a date, or "is"/":" after
	// "last date for comments"; nothing between them but a weekday or
	// "the".
	deadlineDate = regexp.MustCompile(`(?i)(?:\b(?:on or before|latest by|not later than|no later than|by|till|until|before|is)|:)\s+(?:the\s+)?(?:(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),?\s+)?` + aDate)
	datePart     = regexp.MustCompile(`\d+|[A-Za-z]+`)
)

// parseDeadline reads one date of aDate's forms; ok is false for a day
// the calendar lacks (31 June).
func parseDeadline(s string) (catalog.Date, bool) {
	var nums []int
	m := 0
	for _, p := range datePart.FindAllString(s, -1) {
		if n, err := strconv.Atoi(p); err == nil {
			nums = append(nums, n)
		} else if mo := monthOf(p); mo > 0 {
			m = mo
		} // else an ordinal's suffix (15th)
	}
	var y, d int
	switch {
	case m > 0 && len(nums) == 2: // 15 January 2026, January 15, 2026
		d, y = nums[0], nums[1]
	case m == 0 && len(nums) == 3 && nums[0] > 31: // 2026-01-15
		y, m, d = nums[0], nums[1], nums[2]
	case m == 0 && len(nums) == 3: // 15.01.2026: day first
		d, m, y = nums[0], nums[1], nums[2]
	default:
		return catalog.Date{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if m < 1 || m > 12 || t.Day() != d || y < 1900 {
		return catalog.Date{}, false
	}
	return catalog.Date{Time: t}, true
}

func monthOf(name string) int {
	if len(name) < 3 {
		return 0
	}
	for m := time.January; m <= time.December; m++ {
		if strings.EqualFold(m.String()[:3], name[:3]) && strings.HasPrefix(strings.ToLower(m.String()), strings.ToLower(name)) {
			return int(m)
		}
	}
	return 0
}
